package io.github.poolpilot.measure;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Tests for {@link Occupancy}: trapezoids between samples, and the error bound they keep.
 *
 * @author poolpilot authors
 */
class OccupancyTests {

	@Test
	void aSteadyOccupancyIsIntegratedExactlyAndEachWindowStartsFromTheLastSample() {
		Occupancy occupancy = new Occupancy(0);
		occupancy.sample(0, 3, 2);
		for (long t = 1; t < 1000; t++) {
			occupancy.sample(t, 3, 2);
		}
		Occupancy.Window first = occupancy.close(1000, 3, 2);
		assertThat(first.queuedNanos()).isEqualTo(3000.0);
		assertThat(first.busyNanos()).isEqualTo(2000.0);
		assertThat(first.longestGapNanos()).isEqualTo(1);
		Occupancy.Window second = occupancy.close(1500, 5, 0);
		// From (3, 2) to (5, 0) over 500 ns: the trapezoid.
		assertThat(second.queuedNanos()).isEqualTo(2000.0);
		assertThat(second.busyNanos()).isEqualTo(500.0);
		assertThat(second.longestGapNanos()).isEqualTo(500);
	}

	@Test
	void theErrorIsAtMostThePeriodTimesTheEventsEvenWhenTheyAreBunchedAgainstTheSamples() {
		Occupancy occupancy = new Occupancy(0);
		long period = 1000;
		double trueIntegral = 0;
		long events = 0;
		int busy = 0;
		// Each period, one task starts just after a sample and another ends just before
		// the next: the worst case for the samples, which see the count before both.
		for (long t = period; t <= 100 * period; t += period) {
			busy++;
			trueIntegral += busy * (double) (period - 2);
			busy--;
			trueIntegral += busy * 2.0;
			events += 2;
			occupancy.sample(t, 0, busy);
		}
		Occupancy.Window window = occupancy.close(100 * period, 0, busy);
		assertThat(window.busyNanos()).isCloseTo(trueIntegral, within((double) period * events));
		assertThat(Math.abs(window.busyNanos() - trueIntegral)).isGreaterThan(0.9 * trueIntegral);
	}

}
