package io.github.poolpilot.scheduling;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import com.jayway.jsonpath.JsonPath;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.testsupport.LocalHttp;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.core.task.TaskDecorator;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The contract of Spring Boot's {@code taskScheduler} under management, on a real
 * application with {@code @Scheduled} jobs, checked over HTTP: its runs measured, its
 * lateness in the endpoint and the meters, its size changed by POST through the budget,
 * and the application's task decorator around every run. How a run's due time is read
 * from its trigger is tested by {@link MeasuredTriggerTests}.
 *
 * @author poolpilot authors
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=threadpools",
				"management.endpoint.threadpools.access=unrestricted", "poolpilot.existing-executors.enabled=false",
				"poolpilot.scheduler.max-threads=4", "poolpilot.budget.max-threads=6",
				"poolpilot.measurement.window=200ms", "poolpilot.tuning.enabled=false",
				"management.metrics.export.simple.enabled=true" })
class ScheduledPoolHttpTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	@LocalServerPort
	private int port;

	@Autowired
	private PoolRegistry registry;

	@Autowired
	private Jobs jobs;

	@Autowired
	private ThreadPoolTaskScheduler taskScheduler;

	@Autowired
	private MeterRegistry meters;

	@AfterEach
	void sizeBackToOne() {
		this.registry.get("taskScheduler").resize(1, 1);
	}

	@Test
	void bootsSchedulerIsAManagedPoolWhoseRunsAreMeasured() {
		await().atMost(WAIT).untilAsserted(() -> {
			String pool = get("/actuator/threadpools/taskScheduler").getBody();
			assertThat(JsonPath.<Integer>read(pool, "$.lateness.runs")).isPositive();
		});
		String pool = get("/actuator/threadpools/taskScheduler").getBody();
		assertThat(JsonPath.<Integer>read(pool, "$.minThreads")).isEqualTo(1);
		assertThat(JsonPath.<Integer>read(pool, "$.maxThreads")).isEqualTo(4);
		assertThat(JsonPath.<Integer>read(pool, "$.corePoolSize")).isEqualTo(1);
		assertThat(JsonPath.<Integer>read(pool, "$.completedTasks")).isPositive();
		assertThat(JsonPath.<Number>read(pool, "$.lateness.meanMs").doubleValue()).isNotNegative();
		assertThat(JsonPath.<Number>read(pool, "$.lateness.p99Ms").doubleValue())
			.isGreaterThanOrEqualTo(JsonPath.<Number>read(pool, "$.lateness.meanMs").doubleValue() * 0.5);
		assertThat(JsonPath.<Integer>read(pool, "$.lateness.overrunRuns")).isNotNegative();
		assertThat(JsonPath.<Integer>read(pool, "$.lateness.skippedRuns")).isNotNegative();
		assertThat(JsonPath.<Number>read(pool, "$.littlesLaw.meanServiceTimeMs").doubleValue()).isNotNegative();
		assertThat(get("/actuator/threadpools").getBody()).contains("\"taskScheduler\":{");
	}

	@Test
	void everyRunOfACronJobAndAFixedRateJobIsMeasured() {
		await().atMost(WAIT).until(() -> this.jobs.cronRuns.get() >= 1);
		ManagedPool pool = this.registry.get("taskScheduler");
		await().atMost(WAIT)
			.until(() -> pool.getRecorder().taskCounts().completed() >= this.jobs.ticks.get() + this.jobs.cronRuns.get()
					- 2);
	}

	@Test
	void theLatenessIsInTheMeters() {
		await().atMost(WAIT)
			.untilAsserted(
					() -> assertThat(this.meters.get("executor.lateness").tag("name", "taskScheduler").timer().count())
						.isPositive());
		assertThat(this.meters.get("executor.lateness.p99").tag("name", "taskScheduler").gauge()).isNotNull();
		assertThat(this.meters.get("executor.lateness.mean").tag("name", "taskScheduler").gauge()).isNotNull();
		assertThat(this.meters.get("executor.runs.overrun").tag("name", "taskScheduler").functionCounter()).isNotNull();
		assertThat(this.meters.get("executor.runs.skipped").tag("name", "taskScheduler").functionCounter()).isNotNull();
	}

	@Test
	void aPostResizesTheSchedulerThroughTheBudget() {
		ResponseEntity<String> grown = post("/actuator/threadpools/taskScheduler", "{\"maxPoolSize\":3}");
		assertThat(grown.getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(JsonPath.<Integer>read(grown.getBody(), "$.maxPoolSize")).isEqualTo(3);
		assertThat(JsonPath.<Integer>read(grown.getBody(), "$.corePoolSize")).isEqualTo(3);
		assertThat(JsonPath.<String>read(grown.getBody(), "$.tuning.mode")).isEqualTo("manual");
		assertThat(this.taskScheduler.getScheduledThreadPoolExecutor().getCorePoolSize()).isEqualTo(3);
		assertThat(this.taskScheduler.getPoolSize()).isGreaterThanOrEqualTo(1);
		ResponseEntity<String> refused = post("/actuator/threadpools/taskScheduler", "{\"maxPoolSize\":5}");
		assertThat(refused.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
		assertThat(refused.getBody()).contains("maxPoolSize").contains("max-threads 4");
		assertThat(this.taskScheduler.getScheduledThreadPoolExecutor().getCorePoolSize()).isEqualTo(3);
	}

	@Test
	void aSizeSetOnTheSchedulerGoesThroughThePoolsChecks() {
		this.taskScheduler.setPoolSize(2);
		assertThat(this.registry.get("taskScheduler").maxPoolSize()).isEqualTo(2);
		assertThat(this.taskScheduler.getScheduledThreadPoolExecutor().getCorePoolSize()).isEqualTo(2);
	}

	@Test
	void theApplicationsTaskDecoratorWrapsEveryScheduledRun() {
		await().atMost(WAIT).until(() -> this.jobs.ticks.get() >= 3);
		assertThat(this.jobs.undecoratedTicks.get()).isZero();
	}

	private ResponseEntity<String> get(String path) {
		return LocalHttp.get(this.port, path);
	}

	private ResponseEntity<String> post(String path, String body) {
		return LocalHttp.post(this.port, path, body);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@EnableScheduling
	static class TestApplication {

		@Bean
		Jobs jobs() {
			return new Jobs();
		}

		@Bean
		TaskDecorator markingDecorator() {
			return (task) -> () -> {
				Jobs.DECORATED.set(true);
				try {
					task.run();
				}
				finally {
					Jobs.DECORATED.remove();
				}
			};
		}

	}

	static class Jobs {

		static final ThreadLocal<Boolean> DECORATED = new ThreadLocal<>();

		final AtomicInteger ticks = new AtomicInteger();

		final AtomicInteger undecoratedTicks = new AtomicInteger();

		final AtomicInteger cronRuns = new AtomicInteger();

		@Scheduled(fixedRate = 20)
		void tick() {
			this.ticks.incrementAndGet();
			if (DECORATED.get() == null) {
				this.undecoratedTicks.incrementAndGet();
			}
		}

		@Scheduled(cron = "* * * * * *")
		void everySecond() {
			this.cronRuns.incrementAndGet();
		}

	}

}
