package io.github.poolpilot.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.github.poolpilot.actuate.ThreadPoolsDescriptor.PoolDescriptor;
import io.github.poolpilot.actuate.ThreadPoolsEndpoint;
import io.github.poolpilot.measure.RejectionReason;
import io.github.poolpilot.pool.InvalidPoolSizeException;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.pool.PoolRejectedException;
import io.github.poolpilot.testsupport.Blocking;
import io.github.poolpilot.tuning.Tuner;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.task.TaskRejectedException;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * An application's own executor keeps what its author wrote, and can be configured by
 * bean name with a declared pool's keys ({@link ExistingExecutorsBinding}).
 *
 * @author poolpilot authors
 */
@ExtendWith(OutputCaptureExtension.class)
class ExistingExecutorsBindingTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(PoolpilotAutoConfiguration.class))
		.withUserConfiguration(ReportExecutorConfiguration.class);

	@Test
	void aFiniteMaximumIsKeptAndTheCoreSizeIsTheFloor() {
		this.runner.run((context) -> {
			ThreadPoolTaskExecutor report = context.getBean("reportExecutor", ThreadPoolTaskExecutor.class);
			ManagedPool pool = context.getBean(PoolRegistry.class).get("reportExecutor");
			assertThat(pool.getBounds()).isEqualTo(new PoolBounds(3, 5));
			assertThat(report.getCorePoolSize()).isEqualTo(3);
			assertThat(report.getMaxPoolSize()).isEqualTo(5);
			assertThat(report.getQueueCapacity()).isEqualTo(1000);
			assertThat(pool.getExecutor().getQueueCapacity()).isEqualTo(1000);
			// The tuner never shrinks it below what its author asked to keep.
			assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> pool.resize(1, 1))
				.withMessage("corePoolSize 1 of pool 'reportExecutor' is below its min-threads 3 (allowed: 3 to 5)");
		});
	}

	@ParameterizedTest(name = "core {0}, queue {1}: max-threads {2}")
	@CsvSource({ "4, 2147483647, 4", "4, 50, 4", "0, 2147483647, 1", "0, 50, 1" })
	void anUnboundedMaximumIsBroughtDownToTheCoreSizeWhateverItsQueue(int core, int queueCapacity, int maxThreads) {
		this.runner.withBean("bulkExecutor", ThreadPoolTaskExecutor.class, () -> {
			ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
			executor.setCorePoolSize(core);
			executor.setQueueCapacity(queueCapacity);
			return executor;
		}).run((context) -> {
			ManagedPool pool = context.getBean(PoolRegistry.class).get("bulkExecutor");
			assertThat(pool.getBounds()).isEqualTo(new PoolBounds(core, maxThreads));
			assertThat(pool.getExecutor().getMaximumPoolSize()).isEqualTo(maxThreads);
		});
	}

	@Test
	void aManualChangeToTheExecutorsOwnMaximumIsAccepted() {
		this.runner.run((context) -> {
			PoolRegistry registry = context.getBean(PoolRegistry.class);
			ThreadPoolsEndpoint endpoint = new ThreadPoolsEndpoint(registry, context.getBean(Tuner.class), context);
			registry.get("reportExecutor").resize(3, 3);
			PoolDescriptor resized = endpoint.updateThreadPool(SecurityContext.NONE, "reportExecutor", null, 5, null);
			assertThat(resized).isNotNull();
			assertThat(resized.maxPoolSize()).isEqualTo(5);
		});
	}

	@Test
	void anExistingExecutorIsConfiguredByBeanNameWithADeclaredPoolsKeys() {
		this.runner
			.withPropertyValues("poolpilot.existing-executors.reportExecutor.min-threads=2",
					"poolpilot.existing-executors.reportExecutor.max-threads=8",
					"poolpilot.existing-executors.reportExecutor.weight=3",
					"poolpilot.existing-executors.reportExecutor.queue-capacity=7",
					"poolpilot.existing-executors.reportExecutor.keep-alive=5s",
					"poolpilot.existing-executors.reportExecutor.max-queue-wait=100ms")
			.run((context) -> {
				ThreadPoolTaskExecutor report = context.getBean("reportExecutor", ThreadPoolTaskExecutor.class);
				ManagedPool pool = context.getBean(PoolRegistry.class).get("reportExecutor");
				assertThat(pool.getBounds()).isEqualTo(new PoolBounds(2, 8));
				assertThat(pool.getWeight()).isEqualTo(3);
				assertThat(pool.getExecutor().getQueueCapacity()).isEqualTo(7);
				assertThat(report.getQueueCapacity()).isEqualTo(7);
				assertThat(report.getThreadPoolExecutor().getKeepAliveTime(TimeUnit.SECONDS)).isEqualTo(5);
				// Its own sizes are within the new bounds, so they stay.
				assertThat(report.getCorePoolSize()).isEqualTo(3);
				assertThat(report.getMaxPoolSize()).isEqualTo(5);
				pool.resize(2, 8);
				assertThat(report.getMaxPoolSize()).isEqualTo(8);
			});
	}

	@Test
	void aTaskSubmittedToAnExistingExecutorThatWaitedTooLongFailsItsFuture() throws Exception {
		this.runner
			.withPropertyValues("poolpilot.existing-executors.reportExecutor.min-threads=1",
					"poolpilot.existing-executors.reportExecutor.max-threads=1",
					"poolpilot.existing-executors.reportExecutor.max-queue-wait=50ms")
			.run((context) -> {
				ThreadPoolTaskExecutor report = context.getBean("reportExecutor", ThreadPoolTaskExecutor.class);
				CountDownLatch release = new CountDownLatch(1);
				report.execute(() -> Blocking.await(release));
				await().atMost(Duration.ofSeconds(10)).until(() -> report.getActiveCount() == 1);
				List<String> ran = new CopyOnWriteArrayList<>();
				Future<String> callable = report.submit(() -> {
					ran.add("callable");
					return "done";
				});
				Future<?> runnable = report.submit(() -> ran.add("runnable"));
				// Queued for at least four times the max-queue-wait before a thread is
				// free.
				Blocking.sleep(Duration.ofMillis(200));
				release.countDown();
				for (Future<?> future : List.of(callable, runnable)) {
					assertThatExceptionOfType(ExecutionException.class)
						.isThrownBy(() -> future.get(10, TimeUnit.SECONDS))
						.havingCause()
						.isInstanceOfSatisfying(PoolRejectedException.class,
								(rejection) -> assertThat(rejection.getReason()).isEqualTo(RejectionReason.QUEUE_WAIT));
				}
				assertThat(ran).isEmpty();
			});
	}

	@Test
	void anExistingExecutorsKeepAliveBetweenWholeSecondsIsRoundedUpAsADeclaredPoolsIs() {
		this.runner.withUserConfiguration(CoreThreadsTimeOutConfiguration.class)
			.withPropertyValues("poolpilot.existing-executors.reportExecutor.keep-alive=50ms",
					"poolpilot.existing-executors.timingOutExecutor.keep-alive=1500ms")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				ThreadPoolTaskExecutor report = context.getBean("reportExecutor", ThreadPoolTaskExecutor.class);
				assertThat(report.getKeepAliveSeconds()).isEqualTo(1);
				assertThat(report.getThreadPoolExecutor().getKeepAliveTime(TimeUnit.NANOSECONDS))
					.isEqualTo(TimeUnit.SECONDS.toNanos(1));
				ThreadPoolTaskExecutor timingOut = context.getBean("timingOutExecutor", ThreadPoolTaskExecutor.class);
				assertThat(timingOut.getThreadPoolExecutor().allowsCoreThreadTimeOut()).isTrue();
				assertThat(timingOut.getKeepAliveSeconds()).isEqualTo(2);
				assertThat(timingOut.getThreadPoolExecutor().getKeepAliveTime(TimeUnit.NANOSECONDS))
					.isEqualTo(TimeUnit.SECONDS.toNanos(2));
			});
	}

	@Test
	void anExistingExecutorGetsTheGuardsItsKeysName() {
		this.runner.withPropertyValues("poolpilot.existing-executors.report-executor.max-queue-wait=1s")
			.run((context) -> {
				ThreadPoolTaskExecutor report = context.getBean("reportExecutor", ThreadPoolTaskExecutor.class);
				ManagedPool pool = context.getBean(PoolRegistry.class).get("reportExecutor");
				for (int i = 0; i < 3; i++) {
					report.submit(() -> Blocking.sleep(Duration.ofMillis(200)));
				}
				await().atMost(Duration.ofSeconds(10)).until(() -> pool.getRecorder().taskCounts().completed() == 3);
				// A window of 200 ms tasks: five threads drain about 25 tasks a second.
				pool.takeSnapshot();
				CountDownLatch release = new CountDownLatch(1);
				try {
					for (int i = 0; i < 3; i++) {
						report.execute(() -> Blocking.await(release));
						int busy = i + 1;
						await().atMost(Duration.ofSeconds(10)).until(() -> report.getActiveCount() == busy);
					}
					// Refused by its expected wait long before its queue of 1000 is full.
					assertThatExceptionOfType(TaskRejectedException.class).isThrownBy(() -> {
						for (int i = 0; i < 100; i++) {
							report.execute(() -> {
							});
						}
					})
						.havingCause()
						.isInstanceOfSatisfying(PoolRejectedException.class,
								(ex) -> assertThat(ex.getReason()).isEqualTo(RejectionReason.QUEUE_WAIT));
					assertThat(pool.getExecutor().getQueueSize()).isLessThan(100);
				}
				finally {
					release.countDown();
				}
			});
	}

	@Test
	void aMaximumBelowTheExecutorsCoreSizeFailsStartUpSayingWhereTheFloorComesFrom() {
		this.runner.withPropertyValues("poolpilot.existing-executors.reportExecutor.max-threads=2")
			.run((context) -> assertThat(startUpFailure(context))
				.hasMessage("Invalid value 2 for 'poolpilot.existing-executors.reportExecutor.max-threads': must be "
						+ "at least 1 and at least min-threads (3; unless set, min-threads is the executor's core "
						+ "size, 3)"));
	}

	@Test
	void virtualThreadsAreRefusedForAnExistingExecutor() {
		this.runner.withPropertyValues("poolpilot.existing-executors.reportExecutor.virtual-threads=true")
			.run((context) -> assertThat(startUpFailure(context)).hasMessageStartingWith("Invalid value true for "
					+ "'poolpilot.existing-executors.reportExecutor.virtual-threads': is for the pools poolpilot "
					+ "creates"));
	}

	@Test
	void initialThreadsAreRefusedForAnExistingExecutor() {
		this.runner.withPropertyValues("poolpilot.existing-executors.reportExecutor.initial-threads=3")
			.run((context) -> assertThat(startUpFailure(context)).hasMessage("Invalid value 3 for "
					+ "'poolpilot.existing-executors.reportExecutor.initial-threads': is for the pools poolpilot "
					+ "creates: an existing executor starts at the sizes its author gave it"));
	}

	@Test
	void clusterKeysAreRefusedForAnExistingExecutorNamingTheKeySet() {
		this.runner.withPropertyValues("poolpilot.existing-executors.reportExecutor.cluster.local-share=3")
			.run((context) -> assertThat(startUpFailure(context)).hasMessage("Invalid value 3 for "
					+ "'poolpilot.existing-executors.reportExecutor.cluster.local-share': is for the pools poolpilot "
					+ "creates: declare the executor under poolpilot.pools to share its limit with the other instances"));
	}

	@Test
	void aQueueCapacityBelowZeroIsRefusedForAnExistingExecutor() {
		this.runner.withPropertyValues("poolpilot.existing-executors.reportExecutor.queue-capacity=-1")
			.run((context) -> assertThat(startUpFailure(context)).hasMessage("Invalid value -1 for "
					+ "'poolpilot.existing-executors.reportExecutor.queue-capacity': must not be negative (0 hands "
					+ "each task straight to a thread)"));
	}

	@Test
	void theKeysOfEveryExistingExecutorWinOverABeanOfTheSameName() {
		this.runner
			.withPropertyValues("poolpilot.existing-executors.queue-capacity=50",
					"poolpilot.existing-executors.enabled.min-threads=2")
			.run((context) -> assertThat(startUpFailure(context))
				.hasMessageStartingWith("Invalid value 2 for 'poolpilot.existing-executors.enabled.min-threads': "
						+ "'poolpilot.existing-executors.enabled' is a setting of every existing executor, so an "
						+ "executor named 'enabled' cannot be configured under it"));
		this.runner.withPropertyValues("poolpilot.existing-executors.queue-capacity=50").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(PoolRegistry.class).get("reportExecutor").getExecutor().getQueueCapacity())
				.isEqualTo(50);
		});
	}

	@Test
	void aRefreshAppliesAnExistingExecutorsNewBoundsAndWeight() {
		this.runner.run((context) -> {
			ManagedPool pool = context.getBean(PoolRegistry.class).get("reportExecutor");
			TestPropertyValues
				.of("poolpilot.existing-executors.reportExecutor.max-threads=4",
						"poolpilot.existing-executors.reportExecutor.weight=2")
				.applyTo(context);
			context.publishEvent(new EnvironmentChangeEvent(context, Set.of()));
			assertThat(pool.getBounds()).isEqualTo(new PoolBounds(3, 4));
			assertThat(pool.getWeight()).isEqualTo(2);
			assertThat(pool.getExecutor().getMaximumPoolSize()).isEqualTo(4);
		});
	}

	@Test
	void settingsThatNameNoManagedExecutorAreWarnedAbout(CapturedOutput output) {
		this.runner.withPropertyValues("poolpilot.existing-executors.reportExecuter.min-threads=2").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).contains("'poolpilot.existing-executors.reportexecuter' configures no executor")
				.contains("The managed pools are [reportExecutor].");
		});
	}

	@Test
	void settingsOfALazyExecutorAreNotWarnedAboutButThoseOfAnExcludedOneAre(CapturedOutput output) {
		this.runner.withUserConfiguration(LazyAuditExecutorConfiguration.class)
			.withPropertyValues("poolpilot.existing-executors.auditExecutor.min-threads=1",
					"poolpilot.existing-executors.reportExecutor.min-threads=2", "poolpilot.exclude=reportExecutor")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).contains("'poolpilot.existing-executors.reportexecutor' configures no executor")
					.doesNotContain("'poolpilot.existing-executors.auditexecutor' configures no executor");
			});
	}

	@Test
	void excludedNamesThatAreNoBeanAreWarnedAbout(CapturedOutput output) {
		this.runner.withPropertyValues("poolpilot.exclude=reportExecuter,reportExecutor").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(PoolRegistry.class).get("reportExecutor")).isNull();
			assertThat(output).contains("'poolpilot.exclude' names 'reportExecuter', which is no bean")
				.doesNotContain("names 'reportExecutor'");
		});
	}

	private static Throwable startUpFailure(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		Throwable failure = NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
		assertThat(failure).isInstanceOf(InvalidPoolpilotPropertyException.class);
		return failure;
	}

	@Configuration(proxyBeanMethods = false)
	static class ReportExecutorConfiguration {

		@Bean
		ThreadPoolTaskExecutor reportExecutor() {
			ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
			executor.setCorePoolSize(3);
			executor.setMaxPoolSize(5);
			executor.setThreadNamePrefix("report-");
			return executor;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CoreThreadsTimeOutConfiguration {

		@Bean
		ThreadPoolTaskExecutor timingOutExecutor() {
			ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
			executor.setCorePoolSize(1);
			executor.setMaxPoolSize(2);
			executor.setKeepAliveSeconds(5);
			executor.setAllowCoreThreadTimeOut(true);
			return executor;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class LazyAuditExecutorConfiguration {

		@Bean
		@Lazy
		ThreadPoolTaskExecutor auditExecutor() {
			return new ThreadPoolTaskExecutor();
		}

	}

}
