package io.github.poolpilot.actuate;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import io.github.poolpilot.actuate.ThreadPoolsDescriptor.LittlesLawDescriptor;
import io.github.poolpilot.actuate.ThreadPoolsDescriptor.RestartsDescriptor;
import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.measure.PoolSnapshot.Latency;
import io.github.poolpilot.measure.PoolSnapshot.LittlesLaw;
import io.github.poolpilot.measure.PoolSnapshot.Sizes;
import io.github.poolpilot.measure.PoolSnapshot.TaskCounts;
import io.github.poolpilot.pool.Restarts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link PoolDescriptions}.
 *
 * @author poolpilot authors
 */
class PoolDescriptionsTests {

	@Test
	void busyThreadsAreNeverMoreThanThePoolsThreads() {
		// 30 tasks of 200 ms ended in a 2-second window of a 2-thread pool: X·S = 3.0,
		// the third thread's worth having been spent in the window before.
		LittlesLawDescriptor law = PoolDescriptions.littlesLaw(snapshot(2, 3.0));
		assertThat(law.busyThreads()).isEqualTo(2.0);
		assertThat(PoolDescriptions.littlesLaw(snapshot(4, 3.0)).busyThreads()).isEqualTo(3.0);
	}

	@Test
	void theMedianAndThe90thPercentileStandBesideThe99th() {
		LittlesLawDescriptor law = PoolDescriptions.littlesLaw(snapshot(2, 1.0));
		assertThat(law.p50ResponseTimeMs()).isEqualTo(180.0);
		assertThat(law.p90ResponseTimeMs()).isEqualTo(240.0);
		assertThat(law.p99ResponseTimeMs()).isEqualTo(260.0);
	}

	@Test
	void thePercentilesSayHowManyTimedTasksTheyRestOn() {
		assertThat(PoolDescriptions.littlesLaw(snapshot(2, 1.0)).percentileSampleSize()).isEqualTo(1000);
	}

	@Test
	void aRestartThatCouldNotStartTheConsumersIsShownUntilOneWorks() {
		String failure = "Could not start listener 'orders' with 3 consumers (3 tries, the last: refused), nor "
				+ "with its 1 consumers again (refused): it is stopped";
		RestartsDescriptor failed = PoolDescriptions
			.restarts(RestartingPool.of(new Restarts(2, Duration.ofMillis(840), null, failure)));
		assertThat(failed).isEqualTo(new RestartsDescriptor(2, 840, 0, failure));
		JsonMapper json = JsonMapper.builder().build();
		assertThat(json.writeValueAsString(failed)).contains("\"failure\":\"Could not start listener 'orders'");
		RestartsDescriptor worked = PoolDescriptions
			.restarts(RestartingPool.of(new Restarts(3, Duration.ofMillis(500), null)));
		assertThat(worked).isEqualTo(new RestartsDescriptor(3, 500, 0, null));
		assertThat(json.writeValueAsString(worked)).doesNotContain("failure");
	}

	private static PoolSnapshot snapshot(int threads, double busyThreads) {
		Latency response = new Latency(200, 180, 240, 260, 300, 1000);
		return new PoolSnapshot("talk", 2, new Sizes(threads, threads, threads, threads, 0, 10, 1, 8),
				new TaskCounts(30, 30, 0, 0, 0), 30, 30, Latency.NONE, response, response,
				new LittlesLaw(15, 15, 200, 0, 200, 260, busyThreads, busyThreads, 0, busyThreads / 2, null, null));
	}

}
