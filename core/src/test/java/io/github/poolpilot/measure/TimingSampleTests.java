package io.github.poolpilot.measure;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.LongStream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.github.poolpilot.testsupport.Seeds;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link TimingSample}'s draws: a random word scaled to the bound must stay a
 * uniform draw in [0, bound), each value taking a share of the words within one word of
 * {@code 2^32 / bound}; a submitting thread's count of untimed tasks must time each task
 * with probability {@code 1 / every}.
 *
 * @author poolpilot authors
 */
class TimingSampleTests {

	private static final long WORDS = 1L << 32;

	static LongStream seeds() {
		return Seeds.first(200);
	}

	/**
	 * The words that draw a value are one run of consecutive words, found from where the
	 * scale puts the value's first word: each run is {@code floor} or {@code ceil} of
	 * {@code 2^32 / bound} long, so no value is drawn more than one word in {@code 2^32}
	 * more often than another.
	 */
	@ParameterizedTest
	@MethodSource("seeds")
	void aScaledWordIsAUniformDrawInTheBound(long seed) {
		Seeds.check(seed, "./mvnw -pl core test -Dtest=TimingSampleTests", () -> {
			SplittableRandom random = new SplittableRandom(seed);
			int bound = (seed % 4 == 0) ? 1 + random.nextInt(16) : 1 + random.nextInt(1 << random.nextInt(1, 31));
			assertThat(TimingSample.scaled(0, bound)).isZero();
			assertThat(TimingSample.scaled(-1, bound)).isEqualTo(bound - 1);
			for (int i = 0; i < 20; i++) {
				int value = random.nextInt(bound);
				long first = firstWordOf(value, bound);
				long next = firstWordOf(value + 1, bound);
				assertThat(TimingSample.scaled((int) first, bound)).isEqualTo(value);
				assertThat(TimingSample.scaled((int) (next - 1), bound)).isEqualTo(value);
				if (first > 0) {
					assertThat(TimingSample.scaled((int) (first - 1), bound)).isEqualTo(value - 1);
				}
				assertThat(next - first).isBetween(WORDS / bound, WORDS / bound + 1);
			}
			int word = random.nextInt();
			assertThat(TimingSample.scaled(word, bound)).isBetween(0, bound - 1);
		});
	}

	/**
	 * Drawn once per timed task, from the count the submitting thread's totals keep, each
	 * task is still timed with probability {@code 1 / every}: about one in {@code every}
	 * is (400 expected, binomial spread under 20), and the untimed runs between them are
	 * geometric, their spread as wide as their mean (a fixed count would have none).
	 */
	@ParameterizedTest
	@MethodSource("seeds")
	void aThreadsOwnCountTimesEachTaskWithProbabilityOneInEvery(long seed) {
		Seeds.check(seed, "./mvnw -pl core test -Dtest=TimingSampleTests", () -> {
			SplittableRandom random = new SplittableRandom(seed);
			int every = 2 + random.nextInt(1 << random.nextInt(1, 14));
			TimingSample sample = new TimingSample(every, 0, random::nextInt);
			WorkerTotals own = new WorkerTotals();
			List<Integer> runs = new ArrayList<>();
			int run = 0;
			for (long task = 0; task < 400L * every; task++) {
				if (sample.timesThisTask(own)) {
					runs.add(run);
					run = 0;
				}
				else {
					run++;
				}
			}
			assertThat(runs.size()).isBetween(280, 520);
			double mean = runs.stream().mapToInt(Integer::intValue).average().orElseThrow();
			double variance = runs.stream().mapToDouble((r) -> (r - mean) * (r - mean)).sum() / (runs.size() - 1);
			// A geometric count's standard deviation is sqrt(1 - p) / p against a mean of
			// (1 - p) / p: their ratio is 1 / sqrt(1 - p), 1 to 1.42 here.
			assertThat(Math.sqrt(variance) / Math.max(mean, 1e-9)).isBetween(0.6, 1.8);
		});
	}

	/**
	 * A count drawn for one share of timed tasks is not waited out when the share
	 * changes: once every task is to be timed, the next one is.
	 */
	@ParameterizedTest
	@MethodSource("seeds")
	void aNewShareOfTimedTasksAppliesFromTheNextTask(long seed) {
		Seeds.check(seed, "./mvnw -pl core test -Dtest=TimingSampleTests", () -> {
			SplittableRandom random = new SplittableRandom(seed);
			TimingSample sample = new TimingSample(1, 0, random::nextInt);
			WorkerTotals own = new WorkerTotals();
			assertThat(sample.timesThisTask(own)).isTrue();
			// Eight million tasks a window with time to time a thousand: one in 8000.
			sample.adapt(8_000_000, 1, 1e9);
			assertThat(sample.every()).isEqualTo(8000);
			int timed = 0;
			for (int task = 0; task < 8000; task++) {
				timed += sample.timesThisTask(own) ? 1 : 0;
			}
			assertThat(timed).isLessThan(10);
			sample.adapt(10, timed, 1e9);
			assertThat(sample.every()).isEqualTo(1);
			for (int task = 0; task < 100; task++) {
				assertThat(sample.timesThisTask(own)).isTrue();
			}
		});
	}

	/**
	 * The first word that draws {@code value}: {@code ceil(value * 2^32 / bound)}.
	 */
	private static long firstWordOf(long value, int bound) {
		if (value >= bound) {
			return WORDS;
		}
		// value < bound <= 2^30: the product fits in a long.
		return (value * WORDS + bound - 1) / bound;
	}

}
