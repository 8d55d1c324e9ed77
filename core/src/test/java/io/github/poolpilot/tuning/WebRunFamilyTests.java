package io.github.poolpilot.tuning;

import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.DoubleStream;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.testsupport.Seeds;
import io.github.poolpilot.tuning.PoolSimulator.Sample;
import io.github.poolpilot.tuning.PoolSimulator.Workload;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample's web-server run as its load generator sends it, drawn from a seed: a pool
 * of 10..200 threads with a queue of 100 in front of a downstream that admits 20 calls of
 * 300 ms (66.7 a second, a knee of 20 threads), offered 204 requests a second at a steady
 * rate, the calls' noise σ drawn from 0, 0.1, 0.3 and 0.5. Once the uncongested windows
 * of its start had left the last windows its base service time is the least of, a window
 * whose ends kept fewer threads busy than it had, though it refused work, was taken for
 * the work's own time, and the base climbed with the pool, which grew to several times
 * its knee; on real threads at {@code f89c67c} the sample's run grew the same way, to 74
 * threads. Whatever a draw's noise makes of its knee, the pool must never hold more than
 * twice it from the load's 20th second; before refusals counted as congestion, 6 of the
 * first 20 draws did (of σ 0.1 to 0.5).
 * <p>
 * A slowdown cut judged on the one window after it, whose ends were mostly of tasks begun
 * before it, was undone, and the undoing made that congested service time the base: with
 * exact call times (σ = 0) the pool climbed to 108 threads that way. A cut that stood by
 * less than its noise did not rest growth, and the next refusals grew the pool back into
 * the threads it took. Before a cut was judged on two windows and a cut that stands
 * rested growth, 15 of these 40 draws held more than twice the knee.
 * <p>
 * The run as the sample sends it: 10 requests a second for 15 s first, then 204, the pool
 * {@code http} beside the sample's three other pools in a budget of 400. The light load
 * measures the calls' own 300 ms, and the surge sizes the pool for the whole offered
 * rate; from there it refuses in every window, does not probe down, and without a knee
 * seen is not cut for its slowdown, so most draws still hold more than twice the knee 30
 * s after the step and are listed. When the first window after the surge judged it on the
 * noise of a service time whose tasks mostly began before the surge's threads met the
 * downstream's line, 26 of the 40 did; since the first window holds the pool to look
 * again whenever its service time passed 1.5× the base, 21 did. The light load's base was
 * let go by the first congested window after the surge, which finished several times its
 * tasks, and once the windows before it had left the last ones that window's time, mostly
 * waiting at the downstream, was the base, and the pool grew on it; now a least is let go
 * for fewer tasks only at as many threads or fewer, and 14 did: 10 of the 21 met, and 3
 * that had met did not (7 and 17 probed down to the knee, but reached it 40 s after the
 * step; 11 stopped at 69 threads, where a probe's noisy window taught a knee of 63). Most
 * of them refused in every window at several times the knee, never crowded by the model's
 * need, which counts a thread for every task refused; a pool with over three times the
 * threads its throughput keeps busy at its base is crowded too, probes down while it
 * refuses, and 6 did: 9 of the 14 met, and 18, which met, held 53 threads (its probes
 * down stopped at 40 for a noisy knee of 35.5, and a burst's surge went to half beyond
 * it). Since the windows' noise leaves out every window of another regime (the light
 * load's, the surge's first), 18 meets again and 5 do.
 *
 * @author poolpilot authors
 */
class WebRunFamilyTests {

	private static final String RERUN = "./mvnw -B -ntp -pl core test-compile surefire:test@default-test "
			+ "-Dtest=WebRunFamilyTests -Dsurefire.failIfNoSpecifiedTests=false";

	private static final int DRAWS = 40;

	private static final int FROM = 20;

	private static final int LIGHT_SECONDS = 15;

	private static final int SETTLED = 30;

	private static final int KNEE = 20;

	/**
	 * The draws after a light load that still hold more than twice the knee, each still
	 * checked, so that one the tuner comes to meet is taken off the list. Since a chain
	 * halves the pool once two of its probes held, 5, 6 and 9 meet the goal, and 8 no
	 * longer did: its chain halved from 37 threads to 18, two below the knee, on a window
	 * within the noise of exact calls (σ = 0) that ended in waves, three or four a
	 * second; the next probe fell and went back to 18, and when growth's block ended the
	 * pool grew to 45. Since the simulator spreads exact times
	 * ({@link PoolSimulator#EXACT_SPREAD}), its calls no longer end in waves, and 8 meets
	 * the goal again.
	 */
	private static final Set<Long> KNOWN_FAILURES_AFTER_A_LIGHT_LOAD = Set.of(14L, 21L);

	/**
	 * The draws with cheap requests beside the calls that serve less than 0.95 of the
	 * downstream: none since a cut stopped at the min-threads is judged by the base too
	 * (39 served 0.947 before).
	 */
	private static final Set<Long> KNOWN_FAILURES_WITH_CHEAP_REQUESTS = Set.of();

	/**
	 * The calls a second the downstream serves: 20 at a time, 300 ms each.
	 */
	private static final double DOWNSTREAM = 20 / 0.3;

	@ParameterizedTest(name = "seed {0}")
	@MethodSource("seeds")
	void thePoolNeverHoldsTwiceTheKneeOnceItsBaseIsOld(long seed) {
		TuningFamily family = draw(seed);
		List<Sample> tuned = family.tuned().run(family.seconds()).only();
		int most = tuned.stream().filter((sample) -> sample.second() >= FROM).mapToInt(Sample::maxSize).max().orElse(0);
		Seeds.check(seed, RERUN, () -> assertThat(most).as("%s: the most threads from %d s", family, FROM)
			.isLessThanOrEqualTo((int) (2 * family.knee())));
	}

	@ParameterizedTest(name = "seed {0}")
	@MethodSource("seeds")
	void afterALightLoadInABudgetThePoolHoldsAtMostTwiceTheKnee(long seed) {
		double sigma = new double[] { 0, 0.1, 0.3, 0.5 }[new SplittableRandom(seed).nextInt(4)];
		List<Sample> http = withTheSamplesOtherPools(seed)
			.pool("http", new Workload(0.5, 300, sigma, 20), (second) -> (second < LIGHT_SECONDS) ? 10 : 204,
					new PoolBounds(10, 200), 10, 3, TuningMode.AUTO, 100)
			.run(LIGHT_SECONDS + 90)
			.of("http");
		int most = http.stream()
			.filter((sample) -> sample.second() >= LIGHT_SECONDS + SETTLED)
			.mapToInt(Sample::maxSize)
			.max()
			.orElse(0);
		String draw = String.format("calls of sigma %.1f: the most threads from %d s", sigma, LIGHT_SECONDS + SETTLED);
		Seeds.check(seed, RERUN, () -> {
			if (KNOWN_FAILURES_AFTER_A_LIGHT_LOAD.contains(seed)) {
				assertThat(most).as("%s: a known failure that now meets the goal: take it off the list", draw)
					.isGreaterThan(2 * KNEE);
			}
			else {
				assertThat(most).as(draw).isLessThanOrEqualTo(2 * KNEE);
			}
		});
	}

	/**
	 * The same run as the sample serves it, its {@code http} pool taking the start and
	 * stop requests (a few milliseconds) beside the calls: 10 calls and 4 cheap requests
	 * a second for 15 s, then 200 calls and the same 4 for 60 s (the simulator sends the
	 * cheap ones through the downstream too, for 5 ms). The light load measures the base
	 * of a mix, 4 of whose 14 tasks are cheap; the calls alone take 300 ms. On real
	 * threads at {@code 781dcc9} the sample's pool, its base 121 ms, surged to 29 threads
	 * at the overload's start and its surge's overshoot was cut straight to a tenth
	 * beyond X·S₀, 10 threads, half the downstream's limit: the calls' service time fell
	 * and the cut stood. Here the same: the throughput's fall, one window against one, is
	 * within the noise the light load's windows measured (a dozen tasks each), and 6 of
	 * these 40 draws served less than 0.95 of the downstream over the minute (7 at 0.72:
	 * cut to 14, then a probe down taught a knee of 13.6 and growth rested for a minute).
	 * A service time left over {@value SlowdownRule#OWN_WORK}× the base at that size says
	 * the base was a mix's, and the pool goes back to the knee ({@link SlowdownRule}),
	 * also when the cut stopped at the pool's min-threads of 10, above a tenth beyond
	 * X·S₀ (on real threads at {@code 910b513}, on a base of 106 ms, the cut
	 * {@code 34→10} stood).
	 * @param seed the draw
	 */
	@ParameterizedTest(name = "seed {0}")
	@MethodSource("seeds")
	void withCheapRequestsBesideTheCallsThePoolServesWhatTheDownstreamAllows(long seed) {
		double sigma = new double[] { 0, 0.1, 0.3, 0.5 }[new SplittableRandom(seed).nextInt(4)];
		List<Sample> http = withTheSamplesOtherPools(seed).pool("http", new Workload(0.01, 5, sigma, 20).mixed(0, 60),
				(second) -> (second < LIGHT_SECONDS) ? 14 : 204, new PoolBounds(10, 200), 10, 3, TuningMode.AUTO, 100)
			.expensiveShare("http", (second) -> (second < LIGHT_SECONDS) ? 10.0 / 14 : 200.0 / 204)
			.run(LIGHT_SECONDS + 60)
			.of("http");
		double served = http.stream()
			.filter((sample) -> sample.second() >= LIGHT_SECONDS)
			.mapToLong(Sample::throughput)
			.sum() / 60.0;
		String draw = String.format("calls of sigma %.1f: served %.1f/s of the downstream's 66.7, sizes %s", sigma,
				served, http.stream().map(Sample::size).toList());
		Seeds.check(seed, RERUN, () -> {
			if (KNOWN_FAILURES_WITH_CHEAP_REQUESTS.contains(seed)) {
				assertThat(served).as("%s: a known failure that now meets the goal: take it off the list", draw)
					.isLessThan(0.95 * DOWNSTREAM);
			}
			else {
				assertThat(served).as(draw).isGreaterThanOrEqualTo(0.95 * DOWNSTREAM);
			}
		});
	}

	@Test
	void theSimulatorsMixFollowsItsShareByTheSecond() {
		// Cheap requests of 5 ms alone for 5 s, then calls 60 times as long alone.
		List<Sample> pool = PoolSimulator.onePool(new Workload(0.01, 5, 0, 0).mixed(0, 60), (second) -> 20, 64, 1)
			.expensiveShare("sim", (second) -> (second < 5) ? 0 : 1)
			.fixedSize(64)
			.run(10)
			.only();
		assertThat(responsesMs(pool, 1, 5)).isNotEmpty().allSatisfy((ms) -> assertThat(ms).isLessThan(10.0));
		assertThat(responsesMs(pool, 6, 10)).isNotEmpty().allSatisfy((ms) -> assertThat(ms).isGreaterThan(250.0));
	}

	private static List<Double> responsesMs(List<Sample> samples, int from, int to) {
		return samples.stream()
			.filter((sample) -> sample.second() >= from && sample.second() < to)
			.flatMapToDouble((sample) -> DoubleStream.of(sample.responseMs()))
			.boxed()
			.toList();
	}

	private static PoolSimulator.Builder withTheSamplesOtherPools(long seed) {
		Workload light = new Workload(0.5, 20, 0.3, 0);
		return PoolSimulator.builder()
			.seed(seed)
			.budget(400)
			.pool("start", light, (second) -> 2, new PoolBounds(10, 300), 10, 6, TuningMode.AUTO, 600)
			.pool("talk", light, (second) -> 2, new PoolBounds(5, 50), 5, 1, TuningMode.AUTO, 100)
			.pool("stop", light, (second) -> 2, new PoolBounds(5, 50), 5, 1, TuningMode.AUTO, 100);
	}

	static LongStream seeds() {
		return Seeds.first(DRAWS);
	}

	static TuningFamily draw(long seed) {
		return TuningFamilies.webRun(seed, new double[] { 0, 0.1, 0.3, 0.5 }[new SplittableRandom(seed).nextInt(4)]);
	}

}
