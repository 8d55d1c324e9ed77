package io.github.poolpilot.benchmarks.ab;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link Spread}.
 *
 * @author poolpilot authors
 */
class SpreadTests {

	@Test
	void fiveValuesHaveTheirQuartilesAtTheSecondAndFourth() {
		Spread spread = Spread.of(0.9, 0.7, 0.8, 0.6, 1.0);
		assertThat(spread).isEqualTo(new Spread(5, 0.8, 0.7, 0.9, 0.6, 1.0));
		assertThat(spread.describe()).isEqualTo("0.800 (IQR 0.700-0.900, range 0.600-1.000, n=5)");
	}

	@Test
	void quartilesInterpolateBetweenValues() {
		Spread spread = Spread.of(1, 2, 3, 4);
		assertThat(spread.median()).isEqualTo(2.5);
		assertThat(spread.lowerQuartile()).isEqualTo(1.75);
		assertThat(spread.upperQuartile()).isEqualTo(3.25);
	}

	@Test
	void oneValueIsItsOwnSpread() {
		assertThat(Spread.of(0.5)).isEqualTo(new Spread(1, 0.5, 0.5, 0.5, 0.5, 0.5));
	}

	@Test
	void noValueIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(Spread::of).withMessage("A spread needs at least one value");
	}

}
