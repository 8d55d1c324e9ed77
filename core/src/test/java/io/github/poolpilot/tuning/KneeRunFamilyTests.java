package io.github.poolpilot.tuning;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.LongStream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.testsupport.Seeds;
import io.github.poolpilot.tuning.PoolSimulator.Run;
import io.github.poolpilot.tuning.PoolSimulator.Sample;
import io.github.poolpilot.tuning.PoolSimulator.Workload;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample's knee run as a family of draws: {@code talk} (5..300 threads, a queue of
 * 100) at 50 threads, its share of a budget of 400 beside two pools offered a few tasks a
 * second, idle for 2 s, then offered 240 calls a second, one and a half times what a
 * downstream admitting 8 calls of 50 ms serves, the calls five times as slow while the
 * path to the downstream warms up. Each draw takes from its seed the calls' noise and how
 * long they stay slow. The goal of the knee run: from 30 s after the load began to the
 * end, 8 to 12 threads, serving at least 0.95 of the 160 calls a second. The pool never
 * sees its downstream uncongested, so its base service time is measured on threads that
 * wait in the downstream's line, and the windows' noise is that of a throughput the
 * downstream holds. On the tuner of {@code c1ce9f2} half the draws missed the goal (3, 9,
 * 10, 12 to 16, 18, 20): a probe judged fallen on one window, against the best window of
 * its chain, taught a knee far above 8, below which the pool, cut to its share, never
 * probed.
 *
 * @author poolpilot authors
 */
class KneeRunFamilyTests {

	private static final String RERUN = "./mvnw -B -ntp -pl core test-compile surefire:test@default-test "
			+ "-Dtest=KneeRunFamilyTests -Dsurefire.failIfNoSpecifiedTests=false";

	private static final int DRAWS = 20;

	/**
	 * The draws the tuner does not meet yet, each still checked: it must still miss the
	 * goal, so that one the tuner comes to meet is taken off the list. None since the
	 * windows' noise leaves out every window of another regime (10 was the last: its
	 * probes waited for the cold start's windows to leave the noise); 10 again since a
	 * chain halves the pool once two of its probes held: its probe from 42 to 21, judged
	 * over three windows of calls of σ = 0.5 against a chain level 5 % above what the
	 * downstream serves, fell by 7 % and taught a knee of 22.6.
	 */
	private static final Set<Long> KNOWN_FAILURES = Set.of(10L);

	/**
	 * The draws on a busy process the tuner does not meet yet, each still checked. Since
	 * probes wait for windows quiet enough to read them, two draws (12, 15) reach the
	 * knee a second or two later than before, and their last probe, below it, falls in
	 * the goal's time; two others (10, 13) now meet the goal. Since the noise leaves out
	 * every window of the cold start, 12 meets it too, and since a chain halves the pool
	 * once two of its probes held, 15.
	 */
	private static final Set<Long> KNOWN_FAILURES_ON_A_BUSY_PROCESS = Set.of(14L);

	/**
	 * The draws whose load arrives before the pool's first window that the tuner does not
	 * meet yet, each still checked. Since a chain halves the pool once two of its probes
	 * held, 4, 10 and 11 meet the goal. Since the simulator spreads exact times
	 * ({@link PoolSimulator#EXACT_SPREAD}), 6 and 8, both of exact calls, miss it too.
	 * Grown on refusals during the cold start, they measured a base of calls that waited
	 * in the downstream's line (334 ms and 472 ms, for calls of 50 ms), which no window
	 * at their sizes undercuts: 8 held 160 threads, refusing in every window, neither
	 * crowded by that base nor above a knee; 6 climbed past its share twice, gave the
	 * loans back, and held 50 to 75 threads at a knee of 50 its steps taught, its budget
	 * of changes spent on the climbs. Since a pool with twice the threads its throughput
	 * keeps busy at its base is crowded (three times before) and probes down while it
	 * refuses, 3, 8, 12 and 15 meet the goal (8's base of 472 ms was about half its
	 * service time of 1 s at 160 threads).
	 */
	private static final Set<Long> KNOWN_FAILURES_FROM_THE_FIRST_WINDOW = Set.of(6L);

	private static final int LOAD_FROM = 2;

	private static final int SECONDS = 60;

	@ParameterizedTest(name = "seed {0}")
	@MethodSource("seeds")
	void talkSettlesAtTheKneeWithin30SecondsAndServesWhatTheDownstreamAllows(long seed) {
		check(seed, LOAD_FROM, 0, false, KNOWN_FAILURES);
	}

	/**
	 * The same draws with the load from the pool's first second, before its controller
	 * closed a window, as on real threads at {@code 8eed952} when {@code talk} was set to
	 * 50 threads and back to {@code auto} 0.3 s before its load: the fast path compares
	 * an interval's arrivals with the last window's, so with no window it meets no surge,
	 * and the windows grow the pool by half while it refuses, keep the step on a
	 * throughput that neither rose nor fell and learn a knee at its start, near which no
	 * probe starts. That run held 75 threads to the end, and 16 of these 20 draws held 75
	 * to 113 (with the load at 2 s, 1 of them misses). Such a knee is only a bound:
	 * probes may now start near it, and a pool at half beyond it probes down while it
	 * refuses, and 9 missed; one anywhere above it does, and 7 missed (13 and 14 held 157
	 * and 44 threads, above a bound their steps had taught, short of its cap). Since the
	 * noise leaves out every window of the cold start, not only the farthest, 6 missed;
	 * since a chain of probes halves the pool once two of them held, 3 miss. Letting a
	 * pool grown before two windows measured its base probe down while it refuses, as
	 * after a surge on such a base, met 9 of the 16 too, but cost the census of the
	 * families 52 and 130 failing draws against 47 and 120: not kept.
	 * @param seed the draw
	 */
	@ParameterizedTest(name = "seed {0}")
	@MethodSource("seeds")
	void withTheLoadBeforeTheFirstWindowTalkSettlesAtTheKnee(long seed) {
		check(seed, 0, 0, false, KNOWN_FAILURES_FROM_THE_FIRST_WINDOW);
	}

	/**
	 * The same draws on a busy process, as on real threads: the process's other threads
	 * (the web server's handling of every request, refused ones included, the JIT
	 * compiler) keep 70 to 100 % of the two cores busy, drawn each second, and each call
	 * takes 1 ms of CPU time. The process's CPU reading passes 90 % in a third of the
	 * windows. When any such window held the pool as CPU-bound, 18 of the 20 draws missed
	 * the goal: the budget took back what the pool had borrowed in every window read
	 * above 90 %, the pool grew again in the next, and it never probed down.
	 * @param seed the draw
	 */
	@ParameterizedTest(name = "seed {0}")
	@MethodSource("seeds")
	void onABusyProcessTalkSettlesAtTheKneeWithin30Seconds(long seed) {
		check(seed, LOAD_FROM, 1, true, KNOWN_FAILURES_ON_A_BUSY_PROCESS);
	}

	private static void check(long seed, int loadFrom, double cpuMs, boolean busyProcess, Set<Long> knownFailures) {
		SplittableRandom draw = new SplittableRandom(seed);
		double sigma = new double[] { 0, 0.1, 0.3, 0.5 }[draw.nextInt(4)];
		double coldSeconds = draw.nextDouble(0, 5);
		Workload light = new Workload(0.5, 20, 0.3, 0);
		PoolSimulator.Builder builder = PoolSimulator.builder()
			.seed(seed)
			.budget(400)
			.pool("start", light, (second) -> 2, new PoolBounds(10, 300), 10, 6, TuningMode.AUTO, 600)
			.pool("talk", new Workload(cpuMs, 50, sigma, 8), (second) -> (second < loadFrom) ? 0 : 240,
					new PoolBounds(5, 300), 50, 1, TuningMode.AUTO, 100)
			.pool("stop", light, (second) -> 2, new PoolBounds(5, 50), 5, 1, TuningMode.AUTO, 100)
			.cold(loadFrom + coldSeconds, 5);
		if (busyProcess) {
			builder.otherThreads(seed * 31, 0.7, 1, SECONDS);
		}
		List<Sample> talk = builder.run(SECONDS).of("talk");
		List<String> missed = missed(talk, loadFrom + 30);
		String draws = String.format("calls of sigma %.1f, slow for %.1f s, sizes %s", sigma, coldSeconds,
				talk.stream().map(Sample::size).toList());
		Seeds.check(seed, RERUN, () -> {
			if (knownFailures.contains(seed)) {
				assertThat(missed).as("%s: a known failure that now meets the goal: take it off the list", draws)
					.isNotEmpty();
			}
			else {
				assertThat(missed).as(draws).isEmpty();
			}
		});
	}

	private static List<String> missed(List<Sample> talk, int settledFrom) {
		List<String> missed = new ArrayList<>();
		int fewest = Run.smallestSize(talk, settledFrom, SECONDS);
		int most = Run.largestSize(talk, settledFrom, SECONDS);
		double throughput = Run.throughput(talk, settledFrom, SECONDS);
		if (fewest < 8 || most > 12) {
			missed.add(String.format("%d to %d threads from %d s", fewest, most, settledFrom));
		}
		if (throughput < 0.95 * 160) {
			missed.add(String.format("served %.1f/s from %d s", throughput, settledFrom));
		}
		return missed;
	}

	static LongStream seeds() {
		return Seeds.first(DRAWS);
	}

}
