package io.github.poolpilot.scheduling;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.autoconfigure.PoolpilotAutoConfiguration;
import io.github.poolpilot.measure.PoolSnapshot.TaskCounts;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.testsupport.Blocking;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for the {@code ThreadPoolTaskScheduler} beans poolpilot manages: Boot's and an
 * application's own, their keys, and their shutdown.
 *
 * @author poolpilot authors
 */
class ExistingSchedulersAutoConfigurationTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(TaskSchedulingAutoConfiguration.class, PoolpilotAutoConfiguration.class))
		.withPropertyValues("poolpilot.existing-executors.enabled=false");

	@Test
	void withoutAScheduledJobThereIsNoSchedulerToManage() {
		this.runner.run((context) -> assertThat(context.getBean(PoolRegistry.class).get("taskScheduler")).isNull());
	}

	@Test
	void bootsSchedulerStartsAtItsOwnSizeWithinTheSchedulerKeys() {
		this.runner.withUserConfiguration(SlowJob.class)
			.withPropertyValues("spring.task.scheduling.pool.size=2", "poolpilot.scheduler.max-threads=6",
					"poolpilot.scheduler.weight=3")
			.run((context) -> {
				ManagedPool pool = context.getBean(PoolRegistry.class).get("taskScheduler");
				assertThat(pool.getBounds()).isEqualTo(new PoolBounds(2, 6));
				assertThat(pool.maxPoolSize()).isEqualTo(2);
				assertThat(pool.getWeight()).isEqualTo(3);
			});
	}

	@Test
	void aSchedulerLargerThanMaxThreadsStartsAtMaxThreads() {
		this.runner.withUserConfiguration(SlowJob.class)
			.withPropertyValues("spring.task.scheduling.pool.size=20", "poolpilot.scheduler.max-threads=5",
					"poolpilot.scheduler.min-threads=2")
			.run((context) -> {
				ManagedPool pool = context.getBean(PoolRegistry.class).get("taskScheduler");
				assertThat(pool.getBounds()).isEqualTo(new PoolBounds(2, 5));
				assertThat(context.getBean(ThreadPoolTaskScheduler.class)
					.getScheduledThreadPoolExecutor()
					.getCorePoolSize()).isEqualTo(5);
			});
	}

	@Test
	void anApplicationsOwnSchedulerIsThePoolOfItsBeanName() {
		this.runner.withUserConfiguration(OwnScheduler.class).run((context) -> {
			ManagedPool pool = context.getBean(PoolRegistry.class).get("reportScheduler");
			assertThat(pool).isNotNull();
			assertThat(pool.getBounds()).isEqualTo(new PoolBounds(3, 8));
			ThreadPoolTaskScheduler scheduler = context.getBean(ThreadPoolTaskScheduler.class);
			scheduler.execute(() -> {
			});
			await().atMost(WAIT).until(() -> pool.getRecorder().taskCounts().completed() == 1);
		});
	}

	/**
	 * A fixed-rate task whose start time has passed runs at once and a period apart from
	 * then on, as Spring documents it: its first run is on time, not an overrun because
	 * its start time is an hour old.
	 */
	@Test
	void aFixedRateTaskWhoseStartTimeHasPassedIsDueWhenItRunsFirst() {
		this.runner.withUserConfiguration(OwnScheduler.class).run((context) -> {
			ManagedPool pool = context.getBean(PoolRegistry.class).get("reportScheduler");
			ThreadPoolTaskScheduler scheduler = context.getBean(ThreadPoolTaskScheduler.class);
			ScheduledFuture<?> task = scheduler.scheduleAtFixedRate(() -> {
			}, scheduler.getClock().instant().minus(Duration.ofHours(1)), Duration.ofMinutes(10));
			await().atMost(WAIT)
				.until(() -> pool.getRecorder().taskCounts().completed() == 1
						&& scheduler.getScheduledThreadPoolExecutor().getActiveCount() == 0);
			task.cancel(false);
			assertThat(pool.getRecorder().scheduledRuns().overruns()).isZero();
		});
	}

	@Test
	void schedulersAreLeftAloneWhenSwitchedOffOrExcluded() {
		this.runner.withUserConfiguration(SlowJob.class)
			.withPropertyValues("poolpilot.scheduler.enabled=false")
			.run((context) -> assertThat(context.getBean(PoolRegistry.class).get("taskScheduler")).isNull());
		this.runner.withUserConfiguration(SlowJob.class)
			.withPropertyValues("poolpilot.exclude=taskScheduler")
			.run((context) -> assertThat(context.getBean(PoolRegistry.class).get("taskScheduler")).isNull());
	}

	@Test
	void aBadSchedulerKeyFailsStartUpNamingIt() {
		this.runner.withUserConfiguration(SlowJob.class)
			.withPropertyValues("poolpilot.scheduler.max-threads=4", "poolpilot.scheduler.min-threads=5")
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("poolpilot.scheduler.min-threads")
				.hasMessageContaining("between 1 and max-threads (4)"));
	}

	@Test
	void aRunInProgressAtShutdownEndsAndIsCountedNothingIsLost() {
		AtomicReference<ManagedPool> scheduler = new AtomicReference<>();
		SlowJob.reset();
		this.runner.withUserConfiguration(SlowJob.class)
			.withPropertyValues("spring.task.scheduling.shutdown.await-termination=true",
					"spring.task.scheduling.shutdown.await-termination-period=20s")
			.run((context) -> {
				PoolRegistry registry = context.getBean(PoolRegistry.class);
				scheduler.set(registry.get("taskScheduler"));
				Blocking.await(SlowJob.started);
			});
		TaskCounts counts = scheduler.get().getRecorder().taskCounts();
		assertThat(SlowJob.finished.get()).isEqualTo(SlowJob.runs.get()).isPositive();
		assertThat(counts.submitted()).isEqualTo(SlowJob.runs.get());
		assertThat(counts.completed() + counts.failed()).isEqualTo(counts.submitted());
	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	static class SlowJob {

		static volatile CountDownLatch started = new CountDownLatch(1);

		static final AtomicInteger runs = new AtomicInteger();

		static final AtomicInteger finished = new AtomicInteger();

		static void reset() {
			started = new CountDownLatch(1);
			runs.set(0);
			finished.set(0);
		}

		@Scheduled(fixedDelay = 10)
		void slow() {
			runs.incrementAndGet();
			started.countDown();
			Blocking.sleep(Duration.ofMillis(300));
			finished.incrementAndGet();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnScheduler {

		@Bean
		ThreadPoolTaskScheduler reportScheduler() {
			ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
			scheduler.setPoolSize(3);
			return scheduler;
		}

	}

}
