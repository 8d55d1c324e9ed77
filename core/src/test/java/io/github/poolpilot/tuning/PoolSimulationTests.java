package io.github.poolpilot.tuning;

import java.util.Arrays;
import java.util.List;
import java.util.function.DoubleUnaryOperator;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.tuning.PoolSimulator.Run;
import io.github.poolpilot.tuning.PoolSimulator.Sample;
import io.github.poolpilot.tuning.PoolSimulator.Workload;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tuning scenarios S1 to S9 in the deterministic simulator: the real {@link Tuner} on
 * virtual time (its windows every second, its fast path every 100 ms), identical on every
 * run. Where a scenario has a static baseline, the best static size is found by a sweep
 * in the same simulator with the same seed, and the tuned pool is held to the goals of
 * the real-thread scenarios: at least 0.95 of its throughput and at most 1.25 times its
 * p99 response time, unless a scenario says otherwise.
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

	/**
	 * S8: a 50 ms call through a downstream that admits 8 calls at a time (160/s at
	 * most).
	 */
	private static final Workload SLOW_DOWNSTREAM = new Workload(0, 50, 0, 8);

	/**
	 * S9: a blocking call of about 20 ms that spends 0.5 ms on the CPU.
	 */
	private static final Workload CPU_LIGHT = new Workload(0.5, 19.5, 0.1, 0);

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
		// The first window left 388 of its 607 tasks waiting at 4 threads, a fifth of
		// the model's size: the pool leaps to it (22), judged as a surge, and is taken
		// back to the threads its throughput keeps busy two windows later. Never past the
		// downstream's knee + 50 % after that.
		assertThat(Run.largestSize(run, 1, 3)).isEqualTo(22);
		assertThat(Run.largestSize(run, 4, 120)).isLessThanOrEqualTo(12);
		Baseline eight = Baseline.of(8, DOWNSTREAM, load, 3, 11, 120);
		assertThat(Run.throughput(run, 11, 120)).isGreaterThanOrEqualTo(0.95 * eight.throughput());
		assertThat(Run.p99ResponseMs(run, 11, 120)).isLessThanOrEqualTo(1.25 * eight.p99ResponseMs());
		// A probe down from the cut finds the knee (9 → 6 fell, back to 9 at 6 s), and no
		// probe starts again from within a quarter of it while growth rests.
		assertThat(Run.sizeChanges(run, 7, 30)).isZero();
		// Probing again after each block, less and less often.
		assertThat(Run.sizeChanges(run, 61, 120)).isLessThanOrEqualTo(2);
	}

	@Test
	void aSurgeOntoADownstreamsUnseenKneeOvershootsOnceAndIsBackAtItWithinTenSeconds() {
		// S3's downstream, the load stepping 100 → 600/s: at the step nothing tells a
		// load step from a downstream's limit, so the fast path staffs the new load; the
		// slowdown rule and the probes down then find the knee.
		DoubleUnaryOperator load = (second) -> (second < 30) ? 100 : 600;
		List<Sample> run = PoolSimulator.onePool(DOWNSTREAM, load, 4, 3).run(120).only();
		assertThat(Run.largestSize(run, 31, 32)).isGreaterThan(12);
		assertThat(Run.smallestSize(run, 41, 120)).isGreaterThanOrEqualTo(8);
		assertThat(Run.largestSize(run, 41, 120)).isLessThanOrEqualTo(12);
		assertThat(Run.throughput(run, 41, 120)).isGreaterThanOrEqualTo(0.95 * 400);
	}

	@Test
	void aColdDownstreamServesItsCallsFiveTimesAsSlowlyUntilItWarms() {
		// 8 threads on a downstream admitting 8 calls of 20 ms: 400/s once warm, 80/s
		// while each call takes 100 ms.
		List<Sample> run = PoolSimulator.onePool(DOWNSTREAM, (second) -> 600, 8, 3)
			.fixedSize(8)
			.cold(2, 5)
			.run(10)
			.only();
		assertThat(Run.throughput(run, 1, 2)).isBetween(0.15 * 400, 0.25 * 400);
		assertThat(Run.throughput(run, 4, 10)).isGreaterThanOrEqualTo(0.95 * 400);
	}

	@Test
	void withoutItsGuardTheModelFloodsTheDownstreamWithThreads() {
		List<Sample> run = PoolSimulator.onePool(DOWNSTREAM, (second) -> 600, 4, 3).modelOnly().run(30).only();
		assertThat(run.get(29).size()).isGreaterThan(24);
	}

	@Test
	void s4ALoadStepIsMetWithinHalfASecondAndTheThreadsAreGivenBackAfterTheLull() {
		DoubleUnaryOperator load = (second) -> (second < 30) ? 100 : (second < 60) ? 600 : 100;
		Run tuned = PoolSimulator.onePool(BLOCKING, load, 2, 4).run(90);
		List<Sample> run = tuned.only();
		// The model's size at 600/s of 20 ms: R = 12, ⌈12 + 2·√12⌉ = 19.
		assertThat(Run.secondsToReach(tuned.onlyChanges(), 30, 19)).isLessThanOrEqualTo(0.5);
		assertThat(Run.largestSize(run, 31, 60)).isLessThanOrEqualTo(23);
		// The whole run, both steps included, against the best static size for the peak.
		Baseline bestAtPeak = Baseline.sweep(BLOCKING, (second) -> 600, 4, 11, 60);
		Baseline best = Baseline.of(bestAtPeak.size(), BLOCKING, load, 4, 6, 90);
		assertThat(Run.throughput(run, 6, 90)).isGreaterThanOrEqualTo(0.97 * best.throughput());
		assertThat(Run.p99ResponseMs(run, 6, 90)).isLessThanOrEqualTo(1.25 * best.p99ResponseMs());
		// No change while the load is steady at its peak.
		assertThat(Run.sizeChanges(run, 32, 60)).isZero();
		// The step down waits out the lull rule: ten windows, then one step.
		assertThat(Run.sizeChanges(run, 61, 69)).isZero();
		assertThat(run.get(71).size()).isLessThanOrEqualTo(8);
		assertThat(Run.sizeChanges(run, 61, 90)).isEqualTo(1);
	}

	@Test
	void s9ATenfoldStepOfCpuLightBlockingWorkIsMetWithinHalfASecond() {
		DoubleUnaryOperator load = (second) -> (second < 30) ? 50 : (second < 60) ? 500 : 50;
		Run tuned = PoolSimulator.onePool(CPU_LIGHT, load, 2, 9).run(90);
		List<Sample> run = tuned.only();
		// R = 500/s · 20 ms = 10, ⌈10 + 2·√10⌉ = 17.
		assertThat(Run.secondsToReach(tuned.onlyChanges(), 30, 17)).isLessThanOrEqualTo(0.5);
		Baseline bestAtPeak = Baseline.sweep(CPU_LIGHT, (second) -> 500, 9, 11, 60);
		Baseline best = Baseline.of(bestAtPeak.size(), CPU_LIGHT, load, 9, 6, 90);
		assertThat(Run.throughput(run, 6, 90)).isGreaterThanOrEqualTo(0.97 * best.throughput());
		assertThat(Run.p99ResponseMs(run, 6, 90)).isLessThanOrEqualTo(2 * best.p99ResponseMs());
		assertThat(Run.sizeChanges(run, 61, 90)).isEqualTo(1);
	}

	@Test
	void s8APoolStartingFarAboveADownstreamsKneeProbesDownToIt() {
		// Started at 50 threads, offered 240/s, 1.5 × what the downstream serves.
		List<Sample> run = PoolSimulator.onePool(SLOW_DOWNSTREAM, (second) -> 240, 50, 8).run(120).only();
		// Within 30 s at the knee and staying there.
		assertThat(Run.smallestSize(run, 30, 120)).isGreaterThanOrEqualTo(8);
		assertThat(Run.largestSize(run, 30, 120)).isLessThanOrEqualTo(12);
		assertThat(Run.throughput(run, 30, 120)).isGreaterThanOrEqualTo(0.95 * 160);
		// The probes cost at most a quarter of the throughput, one window each.
		assertThat(run.subList(0, 30)).allSatisfy((sample) -> assertThat(sample.throughput()).isGreaterThan(115));
		assertThat(Run.sizeChanges(run, 61, 120)).isLessThanOrEqualTo(2);
	}

	@Test
	void s5PoolsSharingABudgetBorrowGiveBackAtOnceAndNeverExceedIt() {
		// A alone (0-30 s) needs more than its guaranteed 30 of 40 threads; then B and C
		// want more than their 5 each (30-60 s); then B has a burst alone (60-70 s); then
		// everything is idle.
		PoolSimulator.Builder pools = sharing(new PoolBounds(1, 60));
		Run run = pools.run(100);
		// At every moment, resizes between windows included.
		assertThat(Arrays.stream(run.peakLiveThreads()).max().getAsInt()).isLessThanOrEqualTo(40);
		// A borrows what B and C leave idle.
		assertThat(run.of("a").get(29).size()).isEqualTo(38);
		// B and C get their guaranteed shares within a second of asking: A's borrowed
		// threads end with their tasks and B and C grow into them at the next pulse.
		assertThat(Run.secondsToReach(run.changes().get("b"), 30, 5)).isLessThanOrEqualTo(1);
		assertThat(Run.secondsToReach(run.changes().get("c"), 30, 5)).isLessThanOrEqualTo(1);
		assertThat(run.of("a").get(39).size()).isEqualTo(30);
		assertThat(run.of("b").get(39).size()).isEqualTo(5);
		assertThat(run.of("c").get(39).size()).isEqualTo(5);
		// As good as their static shares.
		Run shares = sharing(new PoolBounds(1, 60)).fixedSizes(30, 5, 5).run(100);
		for (String pool : List.of("b", "c")) {
			assertThat(Run.p99ResponseMs(run.of(pool), 31, 70)).as("p99 of %s", pool)
				.isLessThanOrEqualTo(1.25 * Run.p99ResponseMs(shares.of(pool), 31, 70));
			assertThat(Run.throughput(run.of(pool), 31, 70)).as("throughput of %s", pool)
				.isGreaterThanOrEqualTo(0.95 * Run.throughput(shares.of(pool), 31, 70));
		}
		// B's burst takes the threads A keeps idle, within a second of A's queue
		// draining.
		assertThat(Run.secondsToReach(run.changes().get("b"), 60, 21)).isLessThanOrEqualTo(1);
		assertThat(Run.throughput(run.of("b"), 62, 70)).isGreaterThan(850);
		// Idle: every pool back at its min-threads ten windows after its last load.
		run.samples().values().forEach((samples) -> assertThat(samples.get(84).size()).isEqualTo(1));
	}

	@Test
	void s5ByHandAPoolResizedPastItsShareGivesItBackWithinASecondOfAPoolBelowItsShareHavingWork() {
		// S5's pools, A's threads beyond its guaranteed 30 of 40 set by a person: at 5 s,
		// as its load starts, A is resized by hand to 38 (manual); B and C, idle at 1,
		// have work from 30 s and want their 5 each.
		Workload call = new Workload(0, 20, 0.1, 0);
		PoolBounds bounds = new PoolBounds(1, 60);
		DoubleUnaryOperator bc = (second) -> (second >= 30 && second < 60) ? 300 : 0;
		Run run = PoolSimulator.builder()
			.budget(40)
			.seed(5)
			.pool("a", call, (second) -> (second >= 5 && second < 60) ? 1800 : 0, bounds, 10, 6)
			.pool("b", call, bc, bounds, 1, 1)
			.pool("c", call, bc, bounds, 1, 1)
			.resizeByHand("a", 5, 38)
			.run(65);
		assertThat(Arrays.stream(run.peakLiveThreads()).max().getAsInt()).isLessThanOrEqualTo(40);
		assertThat(run.of("a").get(29).size()).isEqualTo(38);
		// A keeps the size it was given up to its share and gives back the rest as soon
		// as B and C have work; they grow into it within a second.
		assertThat(Run.secondsToReach(run.changes().get("b"), 30, 5)).isLessThanOrEqualTo(1);
		assertThat(Run.secondsToReach(run.changes().get("c"), 30, 5)).isLessThanOrEqualTo(1);
		assertThat(run.changes().get("a")).filteredOn((change) -> change.at() >= 30)
			.singleElement()
			.satisfies((change) -> {
				assertThat(change.at()).isLessThan(31);
				assertThat(change.from()).isEqualTo(38);
				assertThat(change.to()).isEqualTo(30);
				assertThat(change.reason())
					.endsWith("gave back threads beyond its weighted share: a pool below its " + "share has work");
			});
		assertThat(run.of("b").get(39).size()).isEqualTo(5);
		assertThat(run.of("c").get(39).size()).isEqualTo(5);
		// As good as their static shares.
		Run shares = sharing(bounds).fixedSizes(30, 5, 5).run(65);
		for (String pool : List.of("b", "c")) {
			assertThat(Run.p99ResponseMs(run.of(pool), 31, 60)).as("p99 of %s", pool)
				.isLessThanOrEqualTo(1.25 * Run.p99ResponseMs(shares.of(pool), 31, 60));
			assertThat(Run.throughput(run.of(pool), 31, 60)).as("throughput of %s", pool)
				.isGreaterThanOrEqualTo(0.95 * Run.throughput(shares.of(pool), 31, 60));
		}
	}

	private static PoolSimulator.Builder sharing(PoolBounds bounds) {
		Workload call = new Workload(0, 20, 0.1, 0);
		return PoolSimulator.builder()
			.budget(40)
			.seed(5)
			.pool("a", call, (second) -> (second < 60) ? 1800 : 0, bounds, 10, 6)
			.pool("b", call, (second) -> (second >= 30 && second < 60) ? 300 : (second >= 60 && second < 70) ? 900 : 0,
					bounds, 1, 1)
			.pool("c", call, (second) -> (second >= 30 && second < 60) ? 300 : 0, bounds, 1, 1);
	}

	@Test
	void s6BurstyLoadChangesTheSizeRarelyAndNeverGrowsWhileIdle() {
		// S2's work with lognormal times, 4 s at 420/s then 4 s idle: 70 % of S2's load.
		Workload lognormal = new Workload(2, 18, 1, 0);
		DoubleUnaryOperator load = (second) -> (((int) second / 4) % 2 == 0) ? 420 : 0;
		List<Sample> run = PoolSimulator.onePool(lognormal, load, 2, 6).run(140).only();
		assertThat(Run.sizeChanges(run, 21, 140)).isLessThanOrEqualTo(4);
		assertThat(run).filteredOn((sample) -> sample.arrivals() == 0)
			.allSatisfy((sample) -> assertThat(sample.maxSize()).isEqualTo(sample.size()));
		meetsTheGoalsOfTheBestStaticSize(run, lognormal, load, 6, 21, 140);
	}

	@Test
	void anIdlePoolMakesNoChange() {
		List<Sample> run = PoolSimulator.onePool(BLOCKING, (second) -> 0, 1, 6).run(60).only();
		assertThat(run).allSatisfy((sample) -> assertThat(sample.maxSize()).isEqualTo(1));
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
