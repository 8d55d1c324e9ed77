package io.github.poolpilot.testsupport;

import java.util.stream.LongStream;

/**
 * The seeds a family of drawn cases runs, for a parameterized test's
 * {@code @MethodSource}. Every case is drawn from its seed alone, so a failure names the
 * seed that reproduces it: {@code -Dpoolpilot-tests.seed=N} runs that seed only, and
 * {@code -Dpoolpilot-tests.draws.factor=K} runs K times as many seeds as the build does.
 *
 * @author poolpilot authors
 */
public final class Seeds {

	/**
	 * The system property that runs one seed only.
	 */
	public static final String SEED = "poolpilot-tests.seed";

	/**
	 * The system property that multiplies the number of seeds every family runs.
	 */
	public static final String FACTOR = "poolpilot-tests.draws.factor";

	private Seeds() {
	}

	/**
	 * The seeds 1 to {@code count} (times the factor), or the one seed asked for.
	 * @param count how many seeds the build runs
	 * @return the seeds
	 */
	public static LongStream first(int count) {
		String one = System.getProperty(SEED);
		if (one != null && !one.isBlank()) {
			return LongStream.of(Long.parseLong(one.trim()));
		}
		return LongStream.rangeClosed(1, (long) count * Integer.getInteger(FACTOR, 1));
	}

	/**
	 * Runs the checks of one drawn case, naming its seed and how to rerun it alone when
	 * one of them fails.
	 * @param seed the case's seed
	 * @param rerun the command that runs the test, to which the seed is added
	 * @param checks the case's checks
	 */
	public static void check(long seed, String rerun, Runnable checks) {
		try {
			checks.run();
		}
		catch (AssertionError ex) {
			throw new AssertionError("Seed " + seed + " fails; rerun it alone with: " + rerun + " -D" + SEED + "="
					+ seed + "\n" + ex.getMessage(), ex);
		}
	}

}
