package io.github.poolpilot.tuning;

import java.util.List;
import java.util.function.DoubleUnaryOperator;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.core.PoolBounds;
import io.github.poolpilot.tuning.PoolSimulator.Run;
import io.github.poolpilot.tuning.PoolSimulator.Sample;
import io.github.poolpilot.tuning.PoolSimulator.Workload;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tuning scenarios S1 to S6 of DESIGN.md §5 in the deterministic simulator: the real
 * {@link Tuner} on virtual time, identical on every run. Where a scenario has a static
 * baseline, the best static size is found by a sweep in the same simulator with the same
 * seed, and the tuned pool is held to the goals of the real-thread scenarios: at least
 * 0.95 of its throughput and at most 1.25 times its p99 response time.
 *
 * @author poolpilot authors
 */
class PoolSimulationTests {

	/**
	 * S1: 2 ms of CPU per task, on 2 cores.
	 */
	private static final Workload CPU_BOUND = new Workload(2, 0, 0, 0);

	/**
	 * S2: 2 ms of CPU and 18 ms of blocking per task, each within about 10 %, so that
	 * tasks do not march in lockstep as exact times would make them.
	 */
	private static final Workload BLOCKING = new Workload(2, 18, 0.1, 0);

	/**
	 * S3: a 20 ms call through a downstream that admits 8 calls at a time (400/s at
	 * most).
	 */
	private static final Workload DOWNSTREAM = new Workload(0, 20, 0, 8);

	private static final int[] SIZES = { 1, 2, 3, 4, 6, 8, 10, 12, 16, 20, 24, 32 };

	@Test
	void s1CpuBoundWorkDoesNotGrowPastTheCores() {
		// Capacity 1000/s, offered 1200/s.
		DoubleUnaryOperator load = (second) -> 1200;
		List<Sample> run = PoolSimulator.onePool(CPU_BOUND, load, 2, 1).run(60).only();
		assertThat(run).allSatisfy((sample) -> assertThat(sample.nextSize()).isLessThanOrEqualTo(3));
		meetsTheGoalsOfTheBestStaticSize(run, CPU_BOUND, load, 1, 11, 60);
	}

	@Test
	void s2BlockingWorkSettlesNearTheBestStaticSize() {
		// 300/s of 20 ms keep 6 threads busy.
		DoubleUnaryOperator load = (second) -> 300;
		List<Sample> run = PoolSimulator.onePool(BLOCKING, load, 2, 2).run(60).only();
		Baseline best = Baseline.sweep(BLOCKING, load, 2, 11, 60);
		assertThat(best.size()).isBetween(8, 16);
		assertThat(Run.settleSeconds(run, 0, 20)).isLessThanOrEqualTo(15);
		assertThat(run.get(59).size()).isBetween((int) (best.size() * 0.8), (int) (best.size() * 1.5));
		assertThat(Run.sizeChanges(run, 21, 60)).isZero();
		meetsTheGoalsOfTheBestStaticSize(run, BLOCKING, load, 2, 11, 60);
	}

	@Test
	void s3ADownstreamThatAdmitsEightIsNotFloodedWithThreads() {
		// Offered 600/s, 1.5 × what the downstream serves.
		DoubleUnaryOperator load = (second) -> 600;
		List<Sample> run = PoolSimulator.onePool(DOWNSTREAM, load, 4, 3).run(120).only();
		// Never past the downstream's knee + 50 %.
		assertThat(run).allSatisfy((sample) -> assertThat(sample.nextSize()).isLessThanOrEqualTo(12));
		Baseline eight = Baseline.of(8, DOWNSTREAM, load, 3, 11, 120);
		assertThat(Run.throughput(run, 11, 120)).isGreaterThanOrEqualTo(0.95 * eight.throughput());
		assertThat(Run.p99ResponseMs(run, 11, 120)).isLessThanOrEqualTo(1.25 * eight.p99ResponseMs());
		// Probing again after each block, less and less often.
		assertThat(Run.sizeChanges(run, 61, 120)).isLessThanOrEqualTo(2);
	}

	@Test
	void withoutItsGuardTheModelFloodsTheDownstreamWithThreads() {
		List<Sample> run = PoolSimulator.onePool(DOWNSTREAM, (second) -> 600, 4, 3).guarded(false).run(30).only();
		assertThat(run.get(29).size()).isGreaterThan(24);
	}

	@Test
	void s4ALoadStepIsFollowedWithinFiveSecondsAndTheThreadsAreGivenBack() {
		DoubleUnaryOperator load = (second) -> (second < 30) ? 100 : (second < 60) ? 600 : 100;
		List<Sample> run = PoolSimulator.onePool(BLOCKING, load, 2, 4).run(90).only();
		Baseline bestAtPeak = Baseline.sweep(BLOCKING, (second) -> 600, 4, 11, 60);
		assertThat(Run.settleSeconds(run, 30, 60)).isLessThanOrEqualTo(5);
		int atPeak = run.get(59).size();
		assertThat(atPeak).isBetween(12, (int) (1.5 * bestAtPeak.size()));
		// Overshoot: never beyond the size the peak settled at.
		assertThat(run.subList(30, 60)).allSatisfy((sample) -> assertThat(sample.size()).isLessThanOrEqualTo(atPeak));
		// Once the backlog of the climb is served, as good as the best static size.
		assertThat(Run.throughput(run, 41, 60)).isGreaterThanOrEqualTo(0.95 * bestAtPeak.throughput());
		assertThat(Run.p99ResponseMs(run, 41, 60)).isLessThanOrEqualTo(1.25 * bestAtPeak.p99ResponseMs());
		// Ten windows after the step down the pool gives its threads back, at once.
		assertThat(run.get(71).size()).isLessThanOrEqualTo(8);
		assertThat(Run.sizeChanges(run, 61, 90)).isEqualTo(1);
	}

	@Test
	void s5PoolsSharingABudgetBorrowGiveBackAndNeverExceedIt() {
		// A alone (0-30 s) needs more than its guaranteed 30 of 40 threads; then B and C
		// want more than their 5 each (30-60 s); then B has a burst alone (60-70 s); then
		// everything is idle.
		Workload call = new Workload(0, 20, 0.1, 0);
		PoolBounds bounds = new PoolBounds(1, 60);
		Run run = PoolSimulator.builder()
			.budget(40)
			.seed(5)
			.pool("a", call, (second) -> (second < 60) ? 1800 : 0, bounds, 10, 6)
			.pool("b", call, (second) -> (second >= 30 && second < 60) ? 300 : (second >= 60 && second < 70) ? 900 : 0,
					bounds, 1, 1)
			.pool("c", call, (second) -> (second >= 30 && second < 60) ? 300 : 0, bounds, 1, 1)
			.run(100);
		IntStream.range(0, 100)
			.forEach((second) -> assertThat(
					run.samples().values().stream().mapToInt((samples) -> samples.get(second).liveThreads()).sum())
				.as("live threads at %d s", second + 1)
				.isLessThanOrEqualTo(40));
		// A borrows what B and C leave idle.
		assertThat(run.of("a").get(29).size()).isEqualTo(38);
		// All busy: each gets its guaranteed share, A gives its borrowed threads back
		// as B and C grow.
		assertThat(run.of("a").get(39).size()).isEqualTo(30);
		assertThat(run.of("b").get(39).size()).isEqualTo(5);
		assertThat(run.of("c").get(39).size()).isEqualTo(5);
		assertThat(Run.throughput(run.of("b"), 41, 60)).isGreaterThan(240);
		// B's burst takes the threads A and C keep idle.
		assertThat(run.of("b").get(69).size()).isGreaterThan(20);
		assertThat(Run.throughput(run.of("b"), 66, 70)).isGreaterThan(850);
		// Idle: every pool back at its min-threads ten windows after its last load.
		run.samples().values().forEach((samples) -> assertThat(samples.get(84).size()).isEqualTo(bounds.minThreads()));
	}

	@Test
	void s6BurstyLoadChangesTheSizeRarelyAndNeverGrowsWhileIdle() {
		// S2's work with lognormal times, 4 s at 420/s then 4 s idle: 70 % of S2's load.
		Workload lognormal = new Workload(2, 18, 1, 0);
		DoubleUnaryOperator load = (second) -> (((int) second / 4) % 2 == 0) ? 420 : 0;
		List<Sample> run = PoolSimulator.onePool(lognormal, load, 2, 6).run(140).only();
		assertThat(Run.sizeChanges(run, 21, 140)).isLessThanOrEqualTo(4);
		assertThat(run).filteredOn((sample) -> sample.arrivals() == 0)
			.allSatisfy((sample) -> assertThat(sample.nextSize()).isLessThanOrEqualTo(sample.size()));
		meetsTheGoalsOfTheBestStaticSize(run, lognormal, load, 6, 21, 140);
	}

	@Test
	void anIdlePoolMakesNoChange() {
		List<Sample> run = PoolSimulator.onePool(BLOCKING, (second) -> 0, 1, 6).run(60).only();
		assertThat(run).allSatisfy((sample) -> assertThat(sample.nextSize()).isEqualTo(1));
	}

	@Test
	void aRunIsTheSameEveryTime() {
		DoubleUnaryOperator load = (second) -> (second < 10) ? 100 : 500;
		Run first = PoolSimulator.onePool(BLOCKING, load, 2, 9).run(30);
		Run again = PoolSimulator.onePool(BLOCKING, load, 2, 9).run(30);
		assertThat(again).isEqualTo(first);
	}

	private static void meetsTheGoalsOfTheBestStaticSize(List<Sample> run, Workload workload, DoubleUnaryOperator load,
			long seed, int from, int to) {
		Baseline best = Baseline.sweep(workload, load, seed, from, to);
		assertThat(Run.throughput(run, from, to)).as("throughput against static %d", best.size())
			.isGreaterThanOrEqualTo(0.95 * best.throughput());
		assertThat(Run.p99ResponseMs(run, from, to)).as("p99 against static %d", best.size())
			.isLessThanOrEqualTo(1.25 * best.p99ResponseMs());
	}

	/**
	 * A static size and what it did over a range of seconds, with the same seed as the
	 * tuned runs it is compared with.
	 */
	private record Baseline(int size, double throughput, double p99ResponseMs) {

		static Baseline of(int size, Workload workload, DoubleUnaryOperator load, long seed, int from, int to) {
			List<Sample> run = PoolSimulator.onePool(workload, load, size, seed).fixedSize(size).run(to).only();
			return new Baseline(size, Run.throughput(run, from, to), Run.p99ResponseMs(run, from, to));
		}

		/**
		 * The best static size: the most throughput; within 1 % of it, the least p99;
		 * within 5 % of that, the fewest threads.
		 */
		static Baseline sweep(Workload workload, DoubleUnaryOperator load, long seed, int from, int to) {
			List<Baseline> all = IntStream.of(SIZES)
				.mapToObj((size) -> of(size, workload, load, seed, from, to))
				.toList();
			double most = all.stream().mapToDouble(Baseline::throughput).max().orElseThrow();
			List<Baseline> fastest = all.stream().filter((baseline) -> baseline.throughput() >= 0.99 * most).toList();
			double least = fastest.stream().mapToDouble(Baseline::p99ResponseMs).min().orElseThrow();
			return fastest.stream().filter((baseline) -> baseline.p99ResponseMs() <= 1.05 * least).findFirst().get();
		}

	}

}
