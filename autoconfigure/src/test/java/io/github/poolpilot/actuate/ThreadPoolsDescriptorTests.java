package io.github.poolpilot.actuate;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.actuate.ThreadPoolsDescriptor.LittlesLawDescriptor;
import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.measure.PoolSnapshot.Latency;
import io.github.poolpilot.measure.PoolSnapshot.LittlesLaw;
import io.github.poolpilot.measure.PoolSnapshot.Sizes;
import io.github.poolpilot.measure.PoolSnapshot.TaskCounts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ThreadPoolsDescriptor}.
 *
 * @author poolpilot authors
 */
class ThreadPoolsDescriptorTests {

	@Test
	void busyThreadsAreNeverMoreThanThePoolsThreads() {
		// 30 tasks of 200 ms ended in a 2-second window of a 2-thread pool: X·S = 3.0,
		// the third thread's worth having been spent in the window before.
		LittlesLawDescriptor law = LittlesLawDescriptor.of(snapshot(2, 3.0));
		assertThat(law.busyThreads()).isEqualTo(2.0);
		assertThat(LittlesLawDescriptor.of(snapshot(4, 3.0)).busyThreads()).isEqualTo(3.0);
	}

	@Test
	void theMedianAndThe90thPercentileStandBesideThe99th() {
		LittlesLawDescriptor law = LittlesLawDescriptor.of(snapshot(2, 1.0));
		assertThat(law.p50ResponseTimeMs()).isEqualTo(180.0);
		assertThat(law.p90ResponseTimeMs()).isEqualTo(240.0);
		assertThat(law.p99ResponseTimeMs()).isEqualTo(260.0);
	}

	@Test
	void thePercentilesSayHowManyTimedTasksTheyRestOn() {
		assertThat(LittlesLawDescriptor.of(snapshot(2, 1.0)).percentileSampleSize()).isEqualTo(1000);
	}

	private static PoolSnapshot snapshot(int threads, double busyThreads) {
		Latency response = new Latency(200, 180, 240, 260, 300, 1000);
		return new PoolSnapshot("talk", 2, new Sizes(threads, threads, threads, threads, 0, 10, 1, 8),
				new TaskCounts(30, 30, 0, 0, 0), 30, 30, Latency.NONE, response, response,
				new LittlesLaw(15, 15, 200, 0, 200, 260, busyThreads, busyThreads, 0, busyThreads / 2, null, null));
	}

}
