package io.github.poolpilot.tuning;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.pool.PoolBounds;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ClosedWindow}: when work waits or is turned away.
 *
 * @author poolpilot authors
 */
class ClosedWindowTests {

	@Test
	void workQueuesWhenMoreThanATwentiethBeyondWhatWasServedWasOffered() {
		assertThat(window(105, 100, 0).queueing).isFalse();
		assertThat(window(105.1, 100, 0).queueing).isTrue();
	}

	@Test
	void workQueuesWhenTasksWaitInTheQueue() {
		assertThat(window(100, 100, 1).queueing).isTrue();
	}

	private static ClosedWindow window(double arrivalRate, double throughput, int queued) {
		return new ClosedWindow(PoolControllerTests.window(arrivalRate, throughput, 20, 10, queued, null), 10,
				new PoolBounds(1, 64), 0.2, 20, Double.NaN);
	}

}
