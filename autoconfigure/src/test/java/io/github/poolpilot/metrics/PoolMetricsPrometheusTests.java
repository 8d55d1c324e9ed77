package io.github.poolpilot.metrics;

import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that poolpilot's meters reach {@code /actuator/prometheus} with the right types,
 * beside Spring Boot's own {@code executor.*} meters and without binding any twice.
 *
 * @author poolpilot authors
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=prometheus", "poolpilot.pools.talk.min-threads=2",
				"poolpilot.pools.talk.max-threads=2", "poolpilot.budget.max-threads=20",
				"poolpilot.pools.idle.max-threads=6", "poolpilot.pools.idle.initial-threads=5",
				// The tuner would resize idle pools while the test reads their sizes.
				"poolpilot.measurement.window=1h" })
class PoolMetricsPrometheusTests {

	@LocalServerPort
	private int port;

	@Autowired
	@Qualifier("talk")
	private ThreadPoolTaskExecutor talk;

	@Test
	void poolMetersAreScrapedWithTheirTypes() throws Exception {
		Future<?> done = this.talk.submit(() -> {
		});
		done.get(10, TimeUnit.SECONDS);
		Future<?> failed = this.talk.submit(() -> {
			throw new IllegalStateException("boom");
		});
		((Executor) this.talk).execute(() -> {
		});
		try {
			failed.get(10, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			// expected
		}
		String scrape = RestClient.create("http://localhost:" + this.port)
			.get()
			.uri("/actuator/prometheus")
			.retrieve()
			.body(String.class);
		assertThat(scrape).contains("# TYPE executor_rejected_tasks_total counter")
			.contains("executor_rejected_tasks_total{name=\"talk\",reason=\"queue_full\"}")
			.contains("executor_rejected_tasks_total{name=\"talk\",reason=\"queue_wait\"}")
			.contains("executor_rejected_tasks_total{name=\"talk\",reason=\"circuit_open\"}")
			.contains("# TYPE executor_timeouts_tasks_total counter")
			.contains("# TYPE executor_failed_tasks_total counter")
			.contains("executor_failed_tasks_total{name=\"talk\"} 1.0")
			.contains("# TYPE executor_queue_wait_seconds histogram")
			.contains("executor_queue_wait_seconds_bucket{name=\"talk\",le=")
			.contains("# TYPE executor_execution_seconds histogram")
			.contains("executor_execution_seconds_count{name=\"talk\"}")
			.contains("executor_tuning_limited{name=\"talk\"} 0.0")
			.contains("# TYPE executor_tuning_failures_total counter")
			.contains("# TYPE executor_tuning_target_threads gauge")
			// Pools start at their min-threads, and no window closes to move the target.
			.contains("executor_tuning_target_threads{name=\"talk\"} " + (double) this.talk.getCorePoolSize())
			.contains("executor_budget_max_threads 20.0")
			.contains("# TYPE executor_budget_live_threads gauge")
			// idle started at 5 threads and ran nothing: 4 above its min-threads
			// lendable.
			.contains("# TYPE executor_lendable_threads gauge")
			.contains("executor_lendable_threads{name=\"idle\"} 4.0")
			.contains("# TYPE executor_budget_lendable_threads gauge")
			.contains("executor_completed_tasks_total{name=\"talk\"}");
		assertThat(scrape.split("# TYPE executor_completed_tasks_total ", -1)).hasSize(2);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

	}

}
