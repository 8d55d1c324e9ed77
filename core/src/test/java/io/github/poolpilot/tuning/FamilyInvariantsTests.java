package io.github.poolpilot.tuning;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.tuning.PoolSimulator.Sample;
import io.github.poolpilot.tuning.PoolSimulator.Workload;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link FamilyInvariants}: what the refusal rule counts against the pool fixed at its
 * max-threads, and the most threads the knee's rule allows.
 *
 * @author poolpilot authors
 */
class FamilyInvariantsTests {

	@Test
	void theFixedPoolsIdleThreadsExcuseNoRefusal() {
		List<Sample> tuned = List.of(sample(5, 0, 0, 150));
		List<Sample> fixed = List.of(sample(100, 0, 0, 100));
		assertThat(FamilyInvariants.excessRefusals(tuned, fixed)).isEqualTo(50);
	}

	@Test
	void theTasksTheFixedPoolStillHoldsCountAsRefusedByIt() {
		List<Sample> tuned = List.of(sample(5, 5, 20, 150));
		List<Sample> fixed = List.of(sample(100, 40, 20, 100));
		assertThat(FamilyInvariants.excessRefusals(tuned, fixed)).isEqualTo(15);
	}

	@Test
	void theTasksTheTunedPoolStillHoldsAreNotCountedForIt() {
		List<Sample> tuned = List.of(sample(30, 30, 20, 150));
		List<Sample> fixed = List.of(sample(100, 10, 0, 100));
		assertThat(FamilyInvariants.excessRefusals(tuned, fixed)).isEqualTo(50);
	}

	@Test
	void theKneesLimitIsHalfBeyondTheKneeOrTheMinThreadsAboveThat() {
		Workload calls = new Workload(1, 50, 0, 8);
		assertThat(FamilyInvariants.kneeLimit(family(calls, new PoolBounds(1, 300), 240))).isEqualTo(12);
		assertThat(FamilyInvariants.kneeLimit(family(calls, new PoolBounds(20, 300), 240))).isEqualTo(20);
	}

	@Test
	void theKneeSetsNoLimitWhereNoDownstreamIsTheLimit() {
		assertThat(FamilyInvariants.kneeLimit(family(new Workload(1, 50, 0, 0), new PoolBounds(1, 300), 240))).isZero();
		assertThat(FamilyInvariants.kneeLimit(family(new Workload(1, 50, 0, 8), new PoolBounds(1, 300), 100))).isZero();
	}

	private static TuningFamily family(Workload workload, PoolBounds bounds, double rate) {
		return TuningFamily.of(1, workload, bounds, 100, bounds.minThreads(), rate, 0, 0, 0, 0);
	}

	private static Sample sample(int live, int running, int queued, long rejected) {
		return new Sample(60, live, live, live, 1000, rejected, 900, new double[0], queued, running, 0.5, live, 0,
				"hold");
	}

}
