package io.github.poolpilot.tuning;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.core.PoolBounds;
import io.github.poolpilot.tuning.PoolSimulator.Sample;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tuning scenarios of DESIGN.md §5 in the deterministic simulator: the real
 * {@link PoolController} on virtual time, identical on every run.
 *
 * @author poolpilot authors
 */
class PoolSimulationTests {

	private static final PoolBounds BOUNDS = new PoolBounds(1, 64);

	@Test
	void s1CpuBoundWorkDoesNotGrowPastTheCores() {
		// 2 ms of CPU per task on 2 cores: capacity 1000/s, offered 1200/s.
		List<Sample> run = new PoolSimulator(2, 2, 0, 0, 200, BOUNDS, 2, 1).run(60, (second) -> 1200);
		assertThat(run).allSatisfy((sample) -> assertThat(sample.size()).isLessThanOrEqualTo(4));
		assertThat(last(run, 10).stream().mapToDouble(Sample::throughput).average().orElse(0)).isGreaterThan(900);
	}

	@Test
	void s3ADownstreamThatAdmitsEightIsNotFloodedWithThreads() {
		// 20 ms calls through a downstream admitting 8 at a time: 400/s at most, offered
		// 600/s.
		List<Sample> run = new PoolSimulator(2, 0, 20, 8, 200, BOUNDS, 4, 3).run(60, (second) -> 600);
		assertThat(run).allSatisfy((sample) -> assertThat(sample.size()).isLessThanOrEqualTo(12));
		assertThat(last(run, 10).stream().mapToDouble(Sample::throughput).average().orElse(0)).isGreaterThan(360);
	}

	@Test
	void s2BlockingWorkGrowsTowardsWhatTheLoadNeeds() {
		// 2 ms CPU + 18 ms blocking at 300/s needs about 300 · 0.02 = 6 busy threads.
		List<Sample> run = new PoolSimulator(2, 2, 18, 0, 500, BOUNDS, 2, 2).run(60, (second) -> 300);
		Sample end = run.get(run.size() - 1);
		assertThat(end.size()).isBetween(6, 16);
		assertThat(last(run, 10).stream().mapToDouble(Sample::throughput).average().orElse(0)).isGreaterThan(285);
	}

	@Test
	void s4ALoadStepUpIsFollowedAndAStepDownGivesTheThreadsBack() {
		// S2's work with the load stepping 100 → 600 → 100 per second.
		List<Sample> run = new PoolSimulator(2, 2, 18, 0, 600, BOUNDS, 2, 4).run(90,
				(second) -> (second < 30) ? 100 : (second < 60) ? 600 : 100);
		int atLowLoad = run.get(29).size();
		int atHighLoad = run.get(59).size();
		assertThat(atLowLoad).isBetween(2, 6);
		// 600/s of 20 ms needs 12 busy threads; the backlog of the climb asks for more.
		assertThat(atHighLoad).isBetween(12, 32);
		// It follows the step, slowly (docs/tuning.md): served load at the end of the
		// high
		// phase is well above its start.
		double startOfStep = run.subList(30, 35).stream().mapToDouble(Sample::throughput).average().orElse(0);
		double endOfStep = run.subList(55, 60).stream().mapToDouble(Sample::throughput).average().orElse(0);
		assertThat(endOfStep).isGreaterThan(1.5 * startOfStep);
		assertThat(run.get(79).size()).isLessThanOrEqualTo(6);
		assertThat(run).allSatisfy((sample) -> assertThat(sample.size()).isLessThanOrEqualTo(32));
	}

	@Test
	void s6AnIdlePoolMakesNoChange() {
		List<Sample> run = new PoolSimulator(2, 2, 18, 0, 100, BOUNDS, 1, 6).run(60, (second) -> 0);
		assertThat(run).allSatisfy((sample) -> assertThat(sample.nextSize()).isEqualTo(1));
	}

	@Test
	void aRunIsTheSameEveryTime() {
		List<Sample> first = new PoolSimulator(2, 2, 18, 0, 500, BOUNDS, 2, 9).run(30, (second) -> 300);
		List<Sample> again = new PoolSimulator(2, 2, 18, 0, 500, BOUNDS, 2, 9).run(30, (second) -> 300);
		assertThat(again).isEqualTo(first);
	}

	private static List<Sample> last(List<Sample> run, int seconds) {
		return run.subList(run.size() - seconds, run.size());
	}

}
