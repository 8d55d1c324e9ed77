package io.github.poolpilot.measure;

import java.util.SplittableRandom;
import java.util.stream.LongStream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.github.poolpilot.testsupport.Seeds;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link TimingSample}'s draw: a random word scaled to the bound must stay a
 * uniform draw in [0, bound), each value taking a share of the words within one word of
 * {@code 2^32 / bound}.
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
