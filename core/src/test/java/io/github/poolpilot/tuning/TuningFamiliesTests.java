package io.github.poolpilot.tuning;

import java.util.List;
import java.util.Set;
import java.util.stream.DoubleStream;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.github.poolpilot.testsupport.Seeds;
import io.github.poolpilot.tuning.PoolSimulator.Sample;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The simulator's scenario families: pools drawn from a seed ({@link TuningFamily}), each
 * run tuned and fixed at its max-threads on the same arrivals, and held to the invariants
 * of {@link FamilyInvariants}; and the failures reported against the second tuner and
 * seen since, reproduced as named scenarios. A draw that fails prints its seed and the
 * command that runs it alone; {@code -Dpoolpilot-tests.draws.factor=K} runs K times as
 * many draws.
 *
 * @author poolpilot authors
 */
class TuningFamiliesTests {

	private static final String RERUN = "./mvnw -B -ntp -pl core test-compile surefire:test@default-test "
			+ "-Dtest=TuningFamiliesTests -Dsurefire.failIfNoSpecifiedTests=false";

	private static final int DRAWS = 200;

	/**
	 * The draws of the build that the tuner does not meet yet, each still checked: it
	 * must still break an invariant, so that one the tuner comes to meet is taken off the
	 * list rather than left to hide a later regression. Since the simulator spreads exact
	 * times ({@link PoolSimulator#EXACT_SPREAD}), 37, 110, 165 and 166 meet every
	 * invariant (their threads no longer end their tasks in lockstep) and 103, 106 and
	 * 181 do not. Since a pool with twice the threads its throughput keeps busy at its
	 * base is crowded, 79 does not: a mix of calls whose base is its cheap windows', it
	 * probes down while it refuses and holds fewer tasks in its threads. Since a pool
	 * shrinks to no fewer threads than its pulses found busy at once, 133 meets them.
	 */
	private static final Set<Long> KNOWN_FAILURES = Set.of(2L, 3L, 6L, 9L, 25L, 32L, 50L, 55L, 65L, 69L, 70L, 74L, 76L,
			79L, 80L, 81L, 92L, 99L, 100L, 102L, 103L, 104L, 106L, 107L, 109L, 114L, 118L, 137L, 139L, 148L, 149L, 153L,
			157L, 158L, 168L, 181L, 182L, 183L, 184L, 189L, 191L, 195L, 199L, 200L);

	@ParameterizedTest(name = "seed {0}")
	@MethodSource("seeds")
	void everyDrawRefusesServesAndChangesAsThePoolFixedAtItsMaxAllows(long seed) {
		TuningFamily family = TuningFamily.draw(seed);
		List<String> broken = broken(family);
		Seeds.check(seed, RERUN, () -> meets(family, broken, KNOWN_FAILURES.contains(seed)));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("scenarios")
	void theReportedFailuresMeetTheInvariants(String name, TuningFamily family) {
		meets(family, broken(family), false);
	}

	@Test
	void aLightLoadsCallsTakeTheirOwnTime() {
		TuningFamily family = TuningFamilies.webRun(1, 0).afterALightLoad(15, 0.1);
		assertThat(callsMs(family, 2, 15)).as("the light load's calls of 300 ms (%s)", family)
			.allSatisfy((ms) -> assertThat(ms).isBetween(exactly(300.0, -1), exactly(300.5, 1)));
	}

	@Test
	void aColdStartAfterALightLoadBeginsAtTheFirstArrival() {
		TuningFamily family = TuningFamilies.webRun(1, 0).cold(5).afterALightLoad(15, 0.1);
		assertThat(callsMs(family, 2, 5)).as("calls 5 x as long in the cold seconds (%s)", family)
			.allSatisfy((ms) -> assertThat(ms).isGreaterThan(1400.0));
		assertThat(callsMs(family, 8, 15)).as("calls of 300 ms after them (%s)", family)
			.allSatisfy((ms) -> assertThat(ms).isBetween(exactly(300.0, -1), exactly(300.5, 1)));
	}

	/**
	 * An exact time of the simulator at the edge of its spread.
	 * @param ms the time
	 * @param side -1 for the least, 1 for the most
	 */
	private static double exactly(double ms, int side) {
		return ms * (1 + side * PoolSimulator.EXACT_SPREAD);
	}

	/**
	 * The response times of the tasks that ended from one second to another, the pool
	 * fixed at its max-threads, so that none waits for a thread.
	 */
	private static List<Double> callsMs(TuningFamily family, int from, int to) {
		return family.fixedAtMax()
			.run(to)
			.only()
			.stream()
			.filter((sample) -> sample.second() >= from && sample.second() < to)
			.flatMapToDouble((sample) -> DoubleStream.of(sample.responseMs()))
			.boxed()
			.toList();
	}

	static LongStream seeds() {
		return Seeds.first(DRAWS);
	}

	static Stream<Arguments> scenarios() {
		return Stream.of(Arguments.of("web-server", TuningFamilies.WEB_SERVER),
				Arguments.of("talk", TuningFamilies.TALK),
				Arguments.of("slow-downstream", TuningFamilies.SLOW_DOWNSTREAM),
				Arguments.of("knee-from-idle", TuningFamilies.KNEE_FROM_IDLE),
				Arguments.of("knee-cold", TuningFamilies.KNEE_COLD), Arguments.of("web-run", TuningFamilies.WEB_RUN));
	}

	private static List<String> broken(TuningFamily family) {
		List<Sample> tuned = family.tuned().run(family.seconds()).only();
		List<Sample> fixed = family.fixedAtMax().run(family.seconds()).only();
		return FamilyInvariants.broken(family, tuned, fixed);
	}

	private static void meets(TuningFamily family, List<String> broken, boolean knownFailure) {
		if (knownFailure) {
			assertThat(broken).as("%s is a known failure that now meets every invariant: take it off the list", family)
				.isNotEmpty();
		}
		else {
			assertThat(broken).as("%s", family).isEmpty();
		}
	}

}
