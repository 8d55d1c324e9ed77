package io.github.poolpilot.task;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import io.github.poolpilot.autoconfigure.PoolpilotAutoConfiguration;
import io.github.poolpilot.autoconfigure.PoolpilotMetricsAutoConfiguration;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.pool.PoolRejectedException;
import io.github.poolpilot.measure.RejectionReason;
import io.github.poolpilot.measure.PoolSnapshot.TaskCounts;
import io.github.poolpilot.execution.VirtualManagedExecutor;
import io.github.poolpilot.testsupport.Blocking;
import io.github.poolpilot.testsupport.VirtualThreadsSupport;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.task.TaskExecutorMetricsAutoConfiguration;
import org.springframework.boot.task.SimpleAsyncTaskExecutorCustomizer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.core.task.TaskDecorator;
import org.springframework.core.task.TaskRejectedException;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link VirtualApplicationTaskExecutorPostProcessor} and
 * {@link ManagedSimpleAsyncTaskExecutor}: with
 * {@code spring.threads.virtual.enabled=true} Spring Boot's
 * {@code applicationTaskExecutor} is a managed virtual pool built with Boot's own
 * settings.
 *
 * @author poolpilot authors
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class VirtualApplicationTaskExecutorTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(TaskExecutionAutoConfiguration.class, PoolpilotAutoConfiguration.class))
		.withPropertyValues("spring.threads.virtual.enabled=true", "poolpilot.measurement.window=1h");

	@Test
	void bootsVirtualThreadExecutorIsAManagedVirtualPoolOfTheSameType() {
		this.runner.run((context) -> {
			SimpleAsyncTaskExecutor executor = context.getBean("applicationTaskExecutor",
					SimpleAsyncTaskExecutor.class);
			assertThat(executor).isInstanceOf(ManagedSimpleAsyncTaskExecutor.class);
			assertThat(context.getBean(SimpleAsyncTaskExecutor.class)).isSameAs(executor);
			ManagedPool pool = context.getBean(PoolRegistry.class).get("applicationTaskExecutor");
			assertThat(pool.getExecutor()).isInstanceOf(VirtualManagedExecutor.class)
				.isSameAs(((ManagedSimpleAsyncTaskExecutor) executor).getManagedExecutor());
			assertThat(pool.getBounds()).isEqualTo(new PoolBounds(1, 200));
			assertThat(pool.getExecutor().getQueueCapacity()).isEqualTo(1000);
			assertThat(pool.getExecutor().getMaximumPoolSize()).isEqualTo(200);
			Thread thread = executor.submit(Thread::currentThread).get(10, TimeUnit.SECONDS);
			assertThat(VirtualThreadsSupport.isVirtual(thread)).isTrue();
			assertThat(thread.getName()).startsWith("task-");
			await().atMost(WAIT)
				.untilAsserted(
						() -> assertThat(pool.getRecorder().taskCounts()).isEqualTo(new TaskCounts(1, 1, 0, 0, 0)));
		});
	}

	@Test
	void itsExistingExecutorKeysSetItsBoundsQueueAndWeight() {
		this.runner
			.withPropertyValues("spring.task.execution.simple.concurrency-limit=40",
					"poolpilot.existing-executors.applicationTaskExecutor.min-threads=2",
					"poolpilot.existing-executors.applicationTaskExecutor.max-threads=16",
					"poolpilot.existing-executors.applicationTaskExecutor.queue-capacity=50",
					"poolpilot.existing-executors.applicationTaskExecutor.weight=3")
			.run((context) -> {
				context.getBean("applicationTaskExecutor");
				ManagedPool pool = context.getBean(PoolRegistry.class).get("applicationTaskExecutor");
				assertThat(pool.getBounds()).isEqualTo(new PoolBounds(2, 16));
				assertThat(pool.getExecutor().getMaximumPoolSize()).isEqualTo(16);
				assertThat(pool.getExecutor().getQueueCapacity()).isEqualTo(50);
				assertThat(pool.getWeight()).isEqualTo(3);
			});
		this.runner.withPropertyValues("spring.task.execution.simple.concurrency-limit=40").run((context) -> {
			context.getBean("applicationTaskExecutor");
			ManagedPool pool = context.getBean(PoolRegistry.class).get("applicationTaskExecutor");
			assertThat(pool.getBounds()).isEqualTo(new PoolBounds(1, 40));
			assertThat(pool.getWeight()).isEqualTo(1);
		});
		this.runner.withPropertyValues("poolpilot.existing-executors.applicationTaskExecutor.max-threads=0")
			.run((context) -> assertThat(catchThrowable(() -> context.getBean("applicationTaskExecutor"))).rootCause()
				.hasMessageContaining("poolpilot.existing-executors.applicationTaskExecutor.max-threads"));
	}

	@Test
	void bootsSettingsCustomizersAndTaskDecoratorAreKept() {
		this.runner.withUserConfiguration(DecoratorAndCustomizerConfiguration.class)
			.withPropertyValues("spring.task.execution.thread-name-prefix=work-",
					"spring.task.execution.simple.concurrency-limit=1")
			.run((context) -> {
				ManagedSimpleAsyncTaskExecutor executor = context.getBean(ManagedSimpleAsyncTaskExecutor.class);
				assertThat(DecoratorAndCustomizerConfiguration.customized).isTrue();
				ManagedPool pool = context.getBean(PoolRegistry.class).get("applicationTaskExecutor");
				assertThat(pool.getBounds()).isEqualTo(new PoolBounds(1, 1));
				CountDownLatch release = new CountDownLatch(1);
				executor.execute(() -> Blocking.await(release));
				// The caller is not blocked by the limit: its task waits in the queue,
				// and
				// the decorator captured the caller's context when it was submitted.
				DecoratorAndCustomizerConfiguration.CONTEXT.set("caller");
				Future<String> queued = executor.submit(() -> DecoratorAndCustomizerConfiguration.CONTEXT.get() + " on "
						+ Thread.currentThread().getName());
				DecoratorAndCustomizerConfiguration.CONTEXT.remove();
				assertThat(pool.getExecutor().getQueueSize()).isEqualTo(1);
				release.countDown();
				assertThat(queued.get(10, TimeUnit.SECONDS)).startsWith("caller on work-");
			});
	}

	@Test
	void theLimitHoldsAndAFullQueueRejectsWithThePoolsRejection() {
		this.runner
			.withPropertyValues("spring.task.execution.simple.concurrency-limit=2",
					"poolpilot.existing-executors.queue-capacity=2")
			.run((context) -> {
				SimpleAsyncTaskExecutor executor = context.getBean(SimpleAsyncTaskExecutor.class);
				ManagedPool pool = context.getBean(PoolRegistry.class).get("applicationTaskExecutor");
				CountDownLatch release = new CountDownLatch(1);
				try {
					for (int i = 0; i < 4; i++) {
						executor.execute(() -> Blocking.await(release));
					}
					await().atMost(WAIT).until(() -> pool.getExecutor().getActiveCount() == 2);
					assertThat(pool.getExecutor().getQueueSize()).isEqualTo(2);
					assertThatExceptionOfType(TaskRejectedException.class).isThrownBy(() -> executor.execute(() -> {
					})).havingCause().isInstanceOfSatisfying(PoolRejectedException.class, (ex) -> {
						assertThat(ex.getPool()).isEqualTo("applicationTaskExecutor");
						assertThat(ex.getReason()).isEqualTo(RejectionReason.QUEUE_FULL);
					});
				}
				finally {
					release.countDown();
				}
				await().atMost(WAIT)
					.untilAsserted(
							() -> assertThat(pool.getRecorder().taskCounts()).isEqualTo(new TaskCounts(5, 4, 0, 1, 0)));
			});
	}

	@Test
	void asyncMethodsRunOnItAndAreCounted() {
		this.runner.withUserConfiguration(AsyncConfiguration.class).run((context) -> {
			AsyncService service = context.getBean(AsyncService.class);
			Thread thread = service.whereAmI().get(10, TimeUnit.SECONDS);
			assertThat(VirtualThreadsSupport.isVirtual(thread)).isTrue();
			ManagedPool pool = context.getBean(PoolRegistry.class).get("applicationTaskExecutor");
			await().atMost(WAIT).untilAsserted(() -> assertThat(pool.getRecorder().taskCounts().completed()).isOne());
		});
	}

	@Test
	void onCloseTasksLeftAfterTheAwaitPeriodAreCancelledAndCountedAbandoned() {
		CountDownLatch never = new CountDownLatch(1);
		AtomicReference<VirtualManagedExecutor> managed = new AtomicReference<>();
		AtomicReference<Future<?>> queued = new AtomicReference<>();
		this.runner
			.withPropertyValues("spring.task.execution.simple.concurrency-limit=1",
					"spring.task.execution.shutdown.await-termination=true",
					"spring.task.execution.shutdown.await-termination-period=100ms")
			.run((context) -> {
				ManagedSimpleAsyncTaskExecutor executor = context.getBean(ManagedSimpleAsyncTaskExecutor.class);
				managed.set(executor.getManagedExecutor());
				executor.execute(() -> Blocking.await(never));
				queued.set(executor.submit(() -> Blocking.await(never)));
			});
		await().atMost(WAIT).until(managed.get()::isTerminated);
		assertThat(queued.get().isCancelled()).isTrue();
		assertThat(managed.get().getPool().getRecorder().taskCounts()).isEqualTo(new TaskCounts(2, 1, 0, 0, 1));
	}

	@Test
	void onCloseQueuedTasksFinishWithinTheAwaitPeriodAndThePoolLeavesTheRegistry() {
		CountDownLatch finished = new CountDownLatch(5);
		AtomicReference<PoolRegistry> registry = new AtomicReference<>();
		this.runner
			.withPropertyValues("spring.task.execution.simple.concurrency-limit=1",
					"spring.task.execution.shutdown.await-termination=true",
					"spring.task.execution.shutdown.await-termination-period=30s")
			.run((context) -> {
				registry.set(context.getBean(PoolRegistry.class));
				SimpleAsyncTaskExecutor executor = context.getBean(SimpleAsyncTaskExecutor.class);
				for (int i = 0; i < 5; i++) {
					executor.execute(() -> {
						Blocking.sleep(Duration.ofMillis(20));
						finished.countDown();
					});
				}
			});
		assertThat(finished.getCount()).isZero();
		assertThat(registry.get().get("applicationTaskExecutor")).isNull();
	}

	@Test
	void anExcludedOrUnmanagedExecutorIsLeftAsBootMadeIt() {
		this.runner.withPropertyValues("poolpilot.exclude=applicationTaskExecutor").run((context) -> {
			assertThat(context.getBean("applicationTaskExecutor")).isExactlyInstanceOf(SimpleAsyncTaskExecutor.class);
			assertThat(context.getBean(PoolRegistry.class).get("applicationTaskExecutor")).isNull();
		});
		this.runner.withPropertyValues("poolpilot.existing-executors.enabled=false")
			.run((context) -> assertThat(context.getBean("applicationTaskExecutor"))
				.isExactlyInstanceOf(SimpleAsyncTaskExecutor.class));
	}

	/**
	 * A concurrency limit of 0 is Spring's switch that refuses every task: there is
	 * nothing to manage, and Boot's executor keeps refusing as it would.
	 */
	@Test
	void aConcurrencyLimitOfZeroLeavesBootsExecutorUnmanaged() {
		this.runner.withPropertyValues("spring.task.execution.simple.concurrency-limit=0").run((context) -> {
			SimpleAsyncTaskExecutor executor = context.getBean("applicationTaskExecutor",
					SimpleAsyncTaskExecutor.class);
			assertThat(executor).isExactlyInstanceOf(SimpleAsyncTaskExecutor.class);
			assertThat(executor.getConcurrencyLimit()).isZero();
			assertThat(context.getBean(PoolRegistry.class).get("applicationTaskExecutor")).isNull();
			assertThatExceptionOfType(TaskRejectedException.class).isThrownBy(() -> executor.execute(() -> {
			}));
		});
	}

	@Test
	void anApplicationsOwnExecutorNamedApplicationTaskExecutorIsNotReplaced() {
		this.runner.withUserConfiguration(OwnExecutorConfiguration.class).run((context) -> {
			assertThat(context.getBean("applicationTaskExecutor")).isSameAs(OwnExecutorConfiguration.EXECUTOR);
			assertThat(context.getBean(PoolRegistry.class).get("applicationTaskExecutor")).isNull();
		});
	}

	@Test
	void withoutVirtualThreadsBootsPlatformExecutorIsManagedAsBefore() {
		this.runner.withPropertyValues("spring.threads.virtual.enabled=false").run((context) -> {
			assertThat(context.getBean("applicationTaskExecutor")).isInstanceOf(ThreadPoolTaskExecutor.class);
			assertThat(context.getBean(PoolRegistry.class).get("applicationTaskExecutor").getExecutor())
				.isNotInstanceOf(VirtualManagedExecutor.class);
		});
	}

	@Test
	void itHasSpringBootsExecutorMetersOnceAndPoolpilotsToo() {
		this.runner
			.withConfiguration(
					AutoConfigurations.of(MetricsAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
							TaskExecutorMetricsAutoConfiguration.class, PoolpilotMetricsAutoConfiguration.class))
			.withPropertyValues("spring.task.execution.simple.concurrency-limit=8")
			.run((context) -> {
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				context.getBean(SimpleAsyncTaskExecutor.class).submit(() -> {
				}).get(10, TimeUnit.SECONDS);
				assertThat(meters.find("executor.pool.max").tag("name", "applicationTaskExecutor").gauges()).hasSize(1);
				assertThat(meters.get("executor.pool.max").tag("name", "applicationTaskExecutor").gauge().value())
					.isEqualTo(8);
				assertThat(meters.get("executor.tuning.target").tag("name", "applicationTaskExecutor").gauge().value())
					.isEqualTo(8);
				await().atMost(WAIT)
					.untilAsserted(() -> assertThat(meters.get("executor.completed")
						.tag("name", "applicationTaskExecutor")
						.functionCounter()
						.count()).isOne());
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class DecoratorAndCustomizerConfiguration {

		static final ThreadLocal<String> CONTEXT = new ThreadLocal<>();

		static volatile boolean customized;

		@Bean
		TaskDecorator contextDecorator() {
			return (task) -> {
				String captured = CONTEXT.get();
				return () -> {
					CONTEXT.set(captured);
					try {
						task.run();
					}
					finally {
						CONTEXT.remove();
					}
				};
			};
		}

		@Bean
		SimpleAsyncTaskExecutorCustomizer marker() {
			return (executor) -> customized = true;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAsync
	static class AsyncConfiguration {

		@Bean
		AsyncService asyncService() {
			return new AsyncService();
		}

	}

	static class AsyncService {

		@Async
		public CompletableFuture<Thread> whereAmI() {
			return CompletableFuture.completedFuture(Thread.currentThread());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnExecutorConfiguration {

		static final Executor EXECUTOR = new SimpleAsyncTaskExecutor("own-");

		@Bean
		Executor applicationTaskExecutor() {
			return EXECUTOR;
		}

	}

}
