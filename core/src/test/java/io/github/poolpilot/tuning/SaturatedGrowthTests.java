package io.github.poolpilot.tuning;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.pool.PoolBounds;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link SaturatedGrowth#crowded}: a saturated pool with far more threads than its model
 * needs for all it was offered.
 *
 * @author poolpilot authors
 */
class SaturatedGrowthTests {

	@Test
	void aPoolWithOverOneAndAHalfTimesTheThreadsItsModelNeedsIsCrowded() {
		// 240 a second at a base of 50 ms need 12 busy threads, staffed 19.
		assertThat(window(150, 0.2).need).isEqualTo(19);
		assertThat(SaturatedGrowth.crowded(window(150, 0.2))).isTrue();
		assertThat(SaturatedGrowth.crowded(window(29, 0.2))).isTrue();
		assertThat(SaturatedGrowth.crowded(window(28, 0.2))).isFalse();
	}

	@Test
	void aPoolWhoseCpuIsOverHalfBusyOrUnknownIsNotCrowded() {
		assertThat(SaturatedGrowth.crowded(window(150, 0.6))).isFalse();
		assertThat(SaturatedGrowth.crowded(window(150, -1))).isFalse();
	}

	/**
	 * A window offered 240 tasks a second, serving 160 at 900 ms, the base 50 ms.
	 */
	private static ClosedWindow window(int size, double cpuLoad) {
		return new ClosedWindow(PoolControllerTests.window(240, 160, 900, size, 100, null), size,
				new PoolBounds(1, 300), cpuLoad, 50, 160);
	}

}
