package io.github.poolpilot.tuning;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.core.NanoClock;
import io.github.poolpilot.core.PoolBounds;
import io.github.poolpilot.core.PoolSnapshot;
import io.github.poolpilot.core.PoolSnapshot.Latency;
import io.github.poolpilot.core.PoolSnapshot.LittlesLaw;
import io.github.poolpilot.core.PoolSnapshot.Sizes;
import io.github.poolpilot.core.PoolSnapshot.TaskCounts;
import io.github.poolpilot.tuning.PoolController.Decision;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link PoolController}, fed windows whose figures are chosen by hand.
 *
 * @author poolpilot authors
 */
class PoolControllerTests {

	private static final PoolBounds BOUNDS = new PoolBounds(1, 64);

	private final AtomicLong nanos = new AtomicLong();

	private final NanoClock clock = this.nanos::get;

	private final PoolController controller = new PoolController(this.clock);

	@Test
	void theModelIsSquareRootStaffingOfTheOfferedLoad() {
		// 120/s of 100 ms keep R = 12 threads busy: ⌈12 + 2·√12⌉ = 19.
		assertThat(PoolController.staffed(12)).isEqualTo(19);
		assertThat(PoolController.staffed(100)).isEqualTo(120);
		assertThat(PoolController.staffed(0.5)).isEqualTo(2);
		assertThat(PoolController.staffed(0)).isZero();
	}

	@Test
	void aSaturatedPoolGrowsTowardsTheModelByHalfItsSizeAtMost() {
		// 120/s offered, 80/s served by 8 threads of 100 ms, tasks queueing.
		Decision grow = decide(120, 80, 100, 8, 50);
		assertThat(grow.threads()).isEqualTo(12);
		assertThat(grow.reason()).isEqualTo("grow 8→12: queueing, busy 8.0 of 8, needs 19");
		// The step paid in proportion: the next may be as large.
		Decision again = decide(120, 120, 100, 12, 30);
		assertThat(again.threads()).isEqualTo(18);
		assertThat(again.reason())
			.isEqualTo("grow 12→18: queueing, busy 12.0 of 12, needs 19; step 8→12 kept: " + "throughput +50%");
		// The queue drained: kept, and no further growth.
		Decision keep = decide(120, 125, 100, 18, 0);
		assertThat(keep.changed()).isFalse();
		assertThat(keep.reason()).isEqualTo("hold: busy 12.5 of 18, needs 19; step 12→18 kept: the queue drained");
	}

	@Test
	void theModelIsCappedByGoetz() {
		Decision grow = this.controller.decide(window(120, 80, 100, 8, 50, 10), 8, BOUNDS, 0.2);
		assertThat(grow.threads()).isEqualTo(11);
		assertThat(grow.reason()).isEqualTo("grow 8→11: queueing, busy 8.0 of 8, needs 10");
	}

	@Test
	void aStepThatPaidLessThanInProportionLimitsTheNextToHalfBeyondTheKnee() {
		decide(600, 300, 20, 6, 500);
		// +33 % throughput for +50 % threads: the knee is near 6 + 0.67·3 = 8.
		Decision next = decide(600, 400, 22.5, 9, 500);
		assertThat(next.threads()).isEqualTo(12);
		assertThat(next.reason()).endsWith("step 6→9 kept: throughput +33%");
	}

	@Test
	void aStepThatDoesNotRaiseThroughputIsRevertedThenGrowthIsBlockedWithBackoff() {
		decide(600, 400, 20, 8, 500);
		// 400 tasks a window: ±7 % of noise on the ratio of two windows, so a flat
		// reading is judged over up to three windows before the step is undone.
		assertThat(decide(600, 400, 30, 12, 500).reason())
			.isEqualTo("hold: judging 8→12: throughput +0% so far, within its noise");
		decide(600, 400, 30, 12, 500);
		Decision revert = decide(600, 400, 30, 12, 500);
		assertThat(revert.threads()).isEqualTo(8);
		assertThat(revert.reason()).isEqualTo("revert 12→8: throughput +0% for +50% threads, growth blocked for 30 s");
		assertThat(revert.mayBorrow()).isFalse();
		assertThat(decide(600, 400, 20, 8, 500).reason())
			.isEqualTo("hold: growth blocked for 30 s (more threads did not help)");
		this.nanos.addAndGet(Duration.ofSeconds(31).toNanos());
		// After the block, a small probe.
		Decision probe = decide(600, 400, 20, 8, 500);
		assertThat(probe.threads()).isEqualTo(9);
		decide(600, 400, 22.5, 9, 500);
		decide(600, 400, 22.5, 9, 500);
		assertThat(decide(600, 400, 22.5, 9, 500).reason()).endsWith("growth blocked for 60 s");
	}

	@Test
	void aShortfallBeyondTheNoiseIsRevertedAtOnce() {
		// 10 000 tasks a window: the ratio of two windows is known within 1.4 %.
		decide(20000, 10000, 1, 10, 500);
		Decision revert = decide(20000, 10000, 1.5, 15, 500);
		assertThat(revert.threads()).isEqualTo(10);
		assertThat(revert.reason()).startsWith("revert 15→10: throughput +0% for +50% threads");
	}

	@Test
	void noGrowthWhileTheCpuIsBusy() {
		Decision decision = this.controller.decide(window(120, 80, 100, 8, 50, null), 8, BOUNDS, 0.95);
		assertThat(decision.changed()).isFalse();
		assertThat(decision.reason()).isEqualTo("hold: CPU 95%");
		assertThat(decision.mayBorrow()).isFalse();
	}

	@Test
	void aSlowerServiceWithoutMoreThroughputGivesThreadsBack() {
		Decision decision = cutForAServiceThreeTimesSlower();
		assertThat(decision.threads()).isEqualTo(9);
		assertThat(decision.reason())
			.isEqualTo("shrink 12→9: service time 3.0× its base of 20.0 ms without more throughput");
		assertThat(decision.mayBorrow()).isFalse();
	}

	@Test
	void aCutThatShortensTheServiceTimeIsKeptAndTheNextMayFollow() {
		assertThat(cutForAServiceThreeTimesSlower().threads()).isEqualTo(9);
		// Fewer threads queue less at the downstream: 45 ms, a quarter shorter.
		Decision next = decide(400, 200, 45, 9, 40);
		assertThat(next.threads()).isEqualTo(8);
		assertThat(next.reason())
			.isEqualTo("shrink 9→8: service time 2.3× its base of 20.0 ms without more throughput");
	}

	@Test
	void aCutThatDoesNotShortenTheServiceTimeIsUndoneAndTheRuleRestsUntilTheSlowdownEnds() {
		assertThat(cutForAServiceThreeTimesSlower().threads()).isEqualTo(9);
		// Still 60 ms with 9 threads: the service is slower for everyone, not congested
		// by this pool, and fewer threads only serve less.
		Decision restore = decide(400, 150, 60, 9, 100);
		assertThat(restore.threads()).isEqualTo(12);
		assertThat(restore.reason())
			.isEqualTo("restore 9→12: service time 60.0 ms, not shorter with fewer threads (60.0 ms before the cut)");
		// The same slowdown does not cut again: the pool is judged as any saturated pool.
		Decision after = decide(400, 200, 60, 12, 100);
		assertThat(after.threads()).isGreaterThanOrEqualTo(12);
		assertThat(after.reason()).doesNotStartWith("shrink");
		// Once the service time is back near its base, a new slowdown is cut again.
		decide(400, 400, 20, after.threads(), 0);
		Decision again = decide(400, 200, 60, 13, 40);
		assertThat(again.reason()).startsWith("shrink 13→10: service time 3.0×");
	}

	@Test
	void anOverProvisionedPoolShrinksAfterTenWindowsToTheMostItNeededInThem() {
		// 10/s of 100 ms: R = 1, needing ⌈1 + 2⌉ = 3 threads of 20; once 40/s: 8.
		for (int i = 1; i < 10; i++) {
			double rate = (i == 5) ? 40 : 10;
			Decision hold = decide(rate, rate, 100, 20, 0);
			assertThat(hold.changed()).isFalse();
			assertThat(hold.needed()).isEqualTo((i == 5) ? 8 : 3);
		}
		Decision shrink = decide(10, 10, 100, 20, 0);
		assertThat(shrink.threads()).isEqualTo(8);
		assertThat(shrink.reason()).isEqualTo("shrink 20→8: needed at most 8 in the last 10 windows");
	}

	@Test
	void aShortSurgeStartsTheCountOfSurplusWindowsAgain() {
		for (int i = 0; i < 9; i++) {
			decide(10, 10, 100, 20, 0);
		}
		// 150/s needs ⌈15 + 2·√15⌉ = 23 threads: not a surplus.
		decide(150, 150, 100, 20, 0);
		for (int i = 0; i < 9; i++) {
			assertThat(decide(10, 10, 100, 20, 0).changed()).isFalse();
		}
		// Ten windows on, the surge is out of sight.
		assertThat(decide(10, 10, 100, 20, 0).threads()).isEqualTo(3);
	}

	@Test
	void aPoolWithNoWorkStaysAtItsMinimum() {
		for (int i = 0; i < 20; i++) {
			Decision decision = this.controller.decide(window(0, 0, 0, 1, 0, null), 1, BOUNDS, 0);
			assertThat(decision.changed()).isFalse();
		}
	}

	@Test
	void withoutTheGuardThePoolJumpsToTheModelAndNothingIsJudged() {
		PoolController bare = new PoolController(this.clock, false);
		Decision grow = bare.decide(window(120, 80, 100, 8, 50, null), 8, BOUNDS, 0.95);
		assertThat(grow.threads()).isEqualTo(20);
		Decision again = bare.decide(window(120, 80, 250, 20, 50, null), 20, BOUNDS, 0.95);
		assertThat(again.reason()).isEqualTo("grow 20→45: queueing, busy 20.0 of 20, needs 41");
	}

	/**
	 * Two windows of 20 ms tasks on 12 threads, then the service 3× slower, as behind a
	 * saturated downstream: 12 threads serve 200/s, which needs ⌈4 + 2·2⌉ = 8 threads at
	 * the base service time, and a quarter at most goes per window.
	 */
	private Decision cutForAServiceThreeTimesSlower() {
		decide(400, 400, 20, 12, 0);
		decide(400, 400, 20, 12, 0);
		return decide(400, 200, 60, 12, 40);
	}

	private Decision decide(double arrivalRate, double throughput, double serviceMs, int size, int queued) {
		return this.controller.decide(window(arrivalRate, throughput, serviceMs, size, queued, null), size, BOUNDS,
				0.2);
	}

	static PoolSnapshot window(double arrivalRate, double throughput, double serviceMs, int size, int queued,
			Integer goetz) {
		double busy = throughput * serviceMs / 1000;
		Latency service = new Latency(serviceMs, serviceMs, serviceMs, serviceMs, serviceMs);
		LittlesLaw law = new LittlesLaw(arrivalRate, throughput, serviceMs, 0, serviceMs, serviceMs, busy, busy, 0,
				busy / 2, null, goetz);
		return new PoolSnapshot("talk", 1, new Sizes(size, size, size, (int) Math.round(busy), queued, 100, 1, 64),
				new TaskCounts(0, 0, 0, 0, 0), (long) arrivalRate, (long) throughput, Latency.NONE, service, service,
				law);
	}

}
