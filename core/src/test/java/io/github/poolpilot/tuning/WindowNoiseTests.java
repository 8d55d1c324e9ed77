package io.github.poolpilot.tuning;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.tuning.WindowNoise.Level;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

/**
 * Tests for {@link WindowNoise}: what counts as noise, and the level a step is compared
 * with.
 *
 * @author poolpilot authors
 */
class WindowNoiseTests {

	@Test
	void theNoiseIsMeasuredOnceTwoWindowsInARowHadOneSize() {
		WindowNoise noise = new WindowNoise();
		noise.add(5, 80);
		assertThat(noise.measured()).isFalse();
		noise.add(11, 180);
		assertThat(noise.measured()).isFalse();
		noise.add(11, 180);
		assertThat(noise.measured()).isTrue();
		// Alike, so no noise, but measured.
		assertThat(noise.relativeVariance()).isZero();
	}

	@Test
	void aSteadyFigureHasNoNoise() {
		WindowNoise noise = new WindowNoise();
		for (int i = 0; i < 5; i++) {
			noise.add(10, 100);
		}
		assertThat(noise.relativeVariance()).isZero();
	}

	@Test
	void noNoiseIsMeasuredUntilTwoWindowsInARowHadOneSize() {
		WindowNoise noise = new WindowNoise();
		noise.add(10, 50);
		noise.add(11, 150);
		assertThat(noise.relativeVariance()).isZero();
		noise.add(11, 50);
		assertThat(noise.relativeVariance()).isEqualTo(0.5);
	}

	@Test
	void theNoiseIsTheVarianceWithinTheRunsOfWindowsAtOneSizeNotTheStepsBetweenThem() {
		WindowNoise noise = new WindowNoise();
		// ±10 % around 100 at 10 threads, ±10 % around 200 at 20: the step doubled the
		// throughput, which is no noise.
		noise.add(10, 90);
		noise.add(10, 110);
		noise.add(20, 180);
		noise.add(20, 220);
		// Four squared deviations of 0.01 over 2 degrees of freedom.
		assertThat(noise.relativeVariance()).isCloseTo(0.02, offset(1e-12));
	}

	@Test
	void eachWindowDeviatesFromItsRunsMedian() {
		WindowNoise noise = new WindowNoise();
		// Around a median of 160 (a mean of 164): two windows 10 off, one 20 and one 40,
		// four degrees; the farthest is about three times as far as the others' typical
		// deviation, ordinary noise.
		for (double value : new double[] { 150, 170, 160, 140, 200 }) {
			noise.add(300, value);
		}
		assertThat(noise.relativeVariance()).isCloseTo((10 * 10 * 2 + 20 * 20 + 40 * 40) / (160.0 * 160) / 4,
				offset(1e-12));
	}

	@Test
	void aWindowOfAnotherRegimeThanItsRunIsLeftOutOfTheNoise() {
		WindowNoise noise = new WindowNoise();
		// A cold start: the first window at 300 threads served half of what the next did.
		for (double value : new double[] { 81, 162, 159, 162, 160 }) {
			noise.add(300, value);
		}
		// (2/160)² + (1/160)² + (2/160)² over the three degrees left.
		assertThat(noise.relativeVariance()).isCloseTo((4 + 1 + 4) / (160.0 * 160) / 3, offset(1e-12));
	}

	@Test
	void everyWindowOfAnotherRegimeIsLeftOutOfTheNoiseNotOnlyTheFarthest() {
		WindowNoise noise = new WindowNoise();
		// A cold start of three windows at 300 threads, then six around 159: a mean of
		// the others would count the two nearer cold windows as typical.
		for (double value : new double[] { 33, 32, 59, 159, 161, 160, 158, 162, 159 }) {
			noise.add(300, value);
		}
		// The run's median is 159: (0² + 2² + 1² + 1² + 3² + 0²) / 159² over the five
		// degrees the six windows leave.
		assertThat(noise.relativeVariance()).isCloseTo((0 + 4 + 1 + 1 + 9 + 0) / (159.0 * 159) / 5, offset(1e-12));
	}

	@Test
	void theLevelIsThatOfTheLastWindowsRegime() {
		WindowNoise noise = new WindowNoise();
		// A light load's windows, then two of a load ten times as heavy, at one size.
		for (double value : new double[] { 20, 18, 21, 19, 22, 20, 75, 72 }) {
			noise.add(5, value);
		}
		assertThat(noise.level(5)).isEqualTo(new Level(73.5, 2));
		// Once the heavy load is the run's regime, the light windows are the outliers.
		for (double value : new double[] { 74, 73, 76, 75, 74 }) {
			noise.add(5, value);
		}
		assertThat(noise.level(5)).isEqualTo(new Level(74.5, WindowNoise.LEVEL_WINDOWS));
	}

	@Test
	void aFarWindowCountsWhileTooFewOthersSayWhatIsNear() {
		WindowNoise noise = new WindowNoise();
		for (double value : new double[] { 81, 162, 160 }) {
			noise.add(300, value);
		}
		// (79/160)² + (2/160)² over two degrees: three windows tell no regime from noise.
		assertThat(noise.relativeVariance()).isCloseTo((79 * 79 + 4) / (160.0 * 160) / 2, offset(1e-12));
	}

	@Test
	void aWindowWhoseSizeChangedDuringItBelongsToNoRun() {
		WindowNoise noise = new WindowNoise();
		noise.add(10, 90);
		noise.add(-1, 300);
		noise.add(10, 110);
		assertThat(noise.relativeVariance()).isZero();
		assertThat(noise.level(10)).isEqualTo(new Level(110, 1));
	}

	@Test
	void theLevelIsTheMeanOfTheLastFewWindowsOfTheLastRunAtThatSize() {
		WindowNoise noise = new WindowNoise();
		noise.add(10, 50);
		for (int throughput = 100; throughput <= 150; throughput += 10) {
			noise.add(12, throughput);
		}
		assertThat(noise.level(12)).isEqualTo(new Level(135, WindowNoise.LEVEL_WINDOWS));
		assertThat(noise.level(10).windows()).isZero();
	}

	@Test
	void onlyTheLastWindowsCount() {
		WindowNoise noise = new WindowNoise();
		noise.add(10, 50);
		noise.add(10, 150);
		for (int i = 0; i < WindowNoise.WINDOWS; i++) {
			noise.add(20, 100);
		}
		assertThat(noise.relativeVariance()).isZero();
	}

}
