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

	@Test
	void aServiceTimeSlowedByThreadsRoseBeyondABaseMeasuredOnFewerThreads() {
		// 300 ms against a base of 15 ms measured on 10 threads.
		assertThat(slowed(10, 10).slowed()).isTrue();
		assertThat(slowed(10, 10).slowedByThreads()).isFalse();
		assertThat(slowed(10, 20).slowedByThreads()).isFalse();
		assertThat(slowed(20, 10).slowedByThreads()).isTrue();
		assertThat(slowed(20, 0).slowedByThreads()).isTrue();
	}

	private static ClosedWindow slowed(int size, int baseSize) {
		return new ClosedWindow(PoolControllerTests.window(200, 33, 300, size, 100, null), size, new PoolBounds(1, 64),
				0.2, 15, Double.NaN, 0, baseSize);
	}

	private static ClosedWindow window(double arrivalRate, double throughput, int queued) {
		return new ClosedWindow(PoolControllerTests.window(arrivalRate, throughput, 20, 10, queued, null), 10,
				new PoolBounds(1, 64), 0.2, 20, Double.NaN);
	}

}
