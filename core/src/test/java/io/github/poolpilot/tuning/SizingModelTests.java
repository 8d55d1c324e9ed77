package io.github.poolpilot.tuning;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.measure.PoolSnapshot.LittlesLaw;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SizingModel}.
 *
 * @author poolpilot authors
 */
class SizingModelTests {

	@Test
	void theOfferedLoadAtAServiceTimeNeedsItsBusyThreadsAndAMarginOfTheirSquareRoot() {
		// 120/s of 250 ms keep 30 threads busy: ⌈30 + 2·√30⌉ = 41.
		assertThat(SizingModel.need(law(120, null), 250)).isEqualTo(41);
		// 120/s of 100 ms: 12 busy, ⌈12 + 2·√12⌉ = 19.
		assertThat(SizingModel.need(law(120, null), 100)).isEqualTo(19);
	}

	@Test
	void goetzCapsTheModel() {
		assertThat(SizingModel.need(law(120, 10), 100)).isEqualTo(10);
		assertThat(SizingModel.need(law(120, 0), 100)).isEqualTo(1);
	}

	@Test
	void noLoadNeedsNothingAndAnUnknownServiceTimeIsSaid() {
		assertThat(SizingModel.need(law(0, null), 100)).isZero();
		assertThat(SizingModel.need(law(10, null), 0)).isEqualTo(-1);
		assertThat(SizingModel.need(law(10, null), Double.NaN)).isEqualTo(-1);
	}

	private static LittlesLaw law(double arrivalRate, Integer goetz) {
		return new LittlesLaw(arrivalRate, arrivalRate, 0, 0, 0, 0, 0, 0, 0, 0, null, goetz);
	}

}
