package io.github.poolpilot.task;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.poolpilot.autoconfigure.PoolpilotAutoConfiguration;
import io.github.poolpilot.execution.ManagedExecutor;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.measure.PoolSnapshot.TaskCounts;
import io.github.poolpilot.testsupport.Blocking;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.TaskDecorator;
import org.springframework.core.task.TaskRejectedException;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link ExistingExecutorsPostProcessor}: an application's own executors become
 * managed and keep every setting.
 *
 * @author poolpilot authors
 */
@ExtendWith(OutputCaptureExtension.class)
class ExistingExecutorsPostProcessorTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(TaskExecutionAutoConfiguration.class, PoolpilotAutoConfiguration.class));

	@Test
	void anApplicationsExecutorIsManagedAndKeepsItsSizesKeepAliveAndThreadNames() {
		this.runner.withUserConfiguration(CustomExecutorConfiguration.class).run((context) -> {
			ThreadPoolTaskExecutor mine = context.getBean("mine", ThreadPoolTaskExecutor.class);
			ManagedPool pool = context.getBean(PoolRegistry.class).get("mine");
			assertThat(pool).isNotNull();
			// The pool reads and resizes the bean's own live executor, never below the
			// core size the bean was made with.
			assertThat(pool.getBounds()).isEqualTo(new PoolBounds(2, 3));
			pool.resize(3, 3);
			assertThat(mine.getThreadPoolExecutor().getCorePoolSize()).isEqualTo(3);
			pool.resize(2, 3);
			assertThat(mine.getCorePoolSize()).isEqualTo(2);
			assertThat(mine.getMaxPoolSize()).isEqualTo(3);
			assertThat(mine.getKeepAliveSeconds()).isEqualTo(17);
			assertThat(mine.getThreadPoolExecutor().getKeepAliveTime(TimeUnit.SECONDS)).isEqualTo(17);
			assertThat(pool.getExecutor().getQueueCapacity()).isEqualTo(2);
			assertThat(mine.submit(() -> Thread.currentThread().getName()).get(10, TimeUnit.SECONDS))
				.startsWith("mine-");
		});
	}

	@Test
	void anApplicationsExecutorNamedLikeAPoolThatJoinedFirstFailsStartUpNamingWhatToDo() {
		this.runner.withUserConfiguration(ServerPoolFirstConfiguration.class)
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("A pool named 'http' is registered already")
				.hasMessageContaining("poolpilot.exclude=http"));
	}

	@Test
	void anApplicationsExecutorKeepsItsTaskDecorator() {
		this.runner.withUserConfiguration(CustomExecutorConfiguration.class).run((context) -> {
			ThreadPoolTaskExecutor mine = context.getBean("mine", ThreadPoolTaskExecutor.class);
			assertThat(mine.submit(CustomExecutorConfiguration.MARKER::get).get(10, TimeUnit.SECONDS))
				.isEqualTo("mine");
		});
	}

	@Test
	void anApplicationsExecutorKeepsItsRejectionPolicyAndTheRejectionIsCounted() {
		this.runner.withUserConfiguration(CustomExecutorConfiguration.class).run((context) -> {
			ThreadPoolTaskExecutor mine = context.getBean("mine", ThreadPoolTaskExecutor.class);
			CountDownLatch release = new CountDownLatch(1);
			try {
				for (int i = 0; i < 5; i++) {
					mine.execute(() -> Blocking.await(release));
				}
				AtomicReference<Thread> ranOn = new AtomicReference<>();
				mine.execute(() -> ranOn.set(Thread.currentThread()));
				assertThat(ranOn.get()).as("CallerRunsPolicy runs the task in the caller")
					.isSameAs(Thread.currentThread());
				// The executor handed out answers its own policy, as a managed one does;
				// the counts below show the rejection was counted before it ran.
				assertThat(mine.getThreadPoolExecutor().getRejectedExecutionHandler())
					.isInstanceOf(ThreadPoolExecutor.CallerRunsPolicy.class);
			}
			finally {
				release.countDown();
			}
			ManagedPool pool = context.getBean(PoolRegistry.class).get("mine");
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(
						() -> assertThat(pool.getRecorder().taskCounts()).isEqualTo(new TaskCounts(6, 5, 0, 1, 0)));
		});
	}

	@Test
	void anApplicationsExecutorKeepsItsShutdownSettings() {
		CountDownLatch finished = new CountDownLatch(4);
		this.runner.withUserConfiguration(CustomExecutorConfiguration.class).run((context) -> {
			ThreadPoolTaskExecutor mine = context.getBean("mine", ThreadPoolTaskExecutor.class);
			for (int i = 0; i < 4; i++) {
				mine.execute(() -> {
					Blocking.sleep(Duration.ofMillis(20));
					finished.countDown();
				});
			}
		});
		assertThat(finished.getCount()).as("queued tasks finish before the context is closed").isZero();
	}

	@Test
	void queuedTasksOfAnExistingExecutorShutDownAtOnceAreCancelledAndCountedAbandoned() {
		CountDownLatch never = new CountDownLatch(1);
		AtomicReference<Future<?>> queued = new AtomicReference<>();
		AtomicReference<ManagedPool> pool = new AtomicReference<>();
		AtomicReference<ThreadPoolExecutor> live = new AtomicReference<>();
		this.runner.withUserConfiguration(ImpatientExecutorConfiguration.class).run((context) -> {
			ThreadPoolTaskExecutor impatient = context.getBean("impatient", ThreadPoolTaskExecutor.class);
			impatient.execute(() -> Blocking.await(never));
			queued.set(impatient.submit(() -> "never runs"));
			pool.set(context.getBean(PoolRegistry.class).get("impatient"));
			live.set(impatient.getThreadPoolExecutor());
		});
		assertThat(queued.get().isCancelled()).isTrue();
		await().atMost(Duration.ofSeconds(10)).until(live.get()::isTerminated);
		TaskCounts counts = pool.get().getRecorder().taskCounts();
		assertThat(counts.abandoned()).isEqualTo(1);
		assertThat(counts.submitted())
			.isEqualTo(counts.completed() + counts.failed() + counts.rejected() + counts.abandoned());
	}

	@Test
	void everyKindOfSubmissionIsMeasuredWithItsOutcome() {
		this.runner.withUserConfiguration(CustomExecutorConfiguration.class).run((context) -> {
			ThreadPoolTaskExecutor mine = context.getBean("mine", ThreadPoolTaskExecutor.class);
			List<Future<?>> futures = new ArrayList<>();
			mine.execute(() -> {
			});
			futures.add(mine.submit(() -> {
			}));
			futures.add(mine.submit(() -> "callable"));
			futures.add(mine.submitCompletable(() -> {
			}));
			CompletableFuture<String> failing = mine.submitCompletable(() -> {
				throw new IllegalStateException("boom");
			});
			for (Future<?> future : futures) {
				future.get(10, TimeUnit.SECONDS);
			}
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> failing.get(10, TimeUnit.SECONDS))
				.withCauseInstanceOf(IllegalStateException.class);
			ManagedPool pool = context.getBean(PoolRegistry.class).get("mine");
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(
						() -> assertThat(pool.getRecorder().taskCounts()).isEqualTo(new TaskCounts(5, 4, 1, 0, 0)));
		});
	}

	@Test
	void bootsApplicationTaskExecutorIsManagedWithABoundedQueueAndNoWarningUntilItIsFull(CapturedOutput output) {
		String warning = "ThreadPoolTaskExecutor 'applicationTaskExecutor' refused a task: its queue, unbounded in "
				+ "its own settings, was bounded by poolpilot at 1 tasks with at most 1 threads";
		this.runner
			.withPropertyValues("poolpilot.existing-executors.queue-capacity=1",
					"spring.task.execution.pool.max-size=1", "spring.task.execution.pool.core-size=1",
					"poolpilot.measurement.window=200ms")
			.run((context) -> {
				assertThat(output.getAll()).doesNotContain("applicationTaskExecutor' had an unbounded queue")
					.doesNotContain(warning);
				ThreadPoolTaskExecutor executor = context.getBean("applicationTaskExecutor",
						ThreadPoolTaskExecutor.class);
				CountDownLatch release = new CountDownLatch(1);
				try {
					executor.execute(() -> awaitQuietly(release));
					executor.execute(() -> awaitQuietly(release));
					assertThatExceptionOfType(TaskRejectedException.class)
						.isThrownBy(() -> executor.execute(() -> awaitQuietly(release)));
					assertThatExceptionOfType(TaskRejectedException.class)
						.isThrownBy(() -> executor.execute(() -> awaitQuietly(release)));
					await().atMost(Duration.ofSeconds(10))
						.untilAsserted(() -> assertThat(output.getAll()).contains(warning));
				}
				finally {
					release.countDown();
				}
				// Two refusals, several windows: one warning.
				await().during(Duration.ofMillis(300))
					.atMost(Duration.ofSeconds(5))
					.untilAsserted(() -> assertThat(output.getAll().split(warning, -1)).hasSize(2));
			});
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Test
	void bootsApplicationTaskExecutorIsManagedWithABoundedQueue() {
		runWithBootsExecutor();
	}

	private void runWithBootsExecutor() {
		this.runner.run((context) -> {
			ThreadPoolTaskExecutor executor = context.getBean("applicationTaskExecutor", ThreadPoolTaskExecutor.class);
			ManagedPool pool = context.getBean(PoolRegistry.class).get("applicationTaskExecutor");
			assertThat(pool).isNotNull();
			assertThat(executor.getQueueCapacity()).isEqualTo(1000);
			assertThat(pool.getExecutor().getQueueCapacity()).isEqualTo(1000);
			assertThat(executor.getCorePoolSize()).isEqualTo(8);
			assertThat(executor.getMaxPoolSize()).isEqualTo(8);
			assertThat(executor.submit(() -> Thread.currentThread().getName()).get(10, TimeUnit.SECONDS))
				.startsWith("task-");
		});
	}

	@Test
	void bootsTaskDecoratorsReachTheApplicationTaskExecutor() {
		this.runner.withUserConfiguration(DecoratorsConfiguration.class).run((context) -> {
			ThreadPoolTaskExecutor executor = context.getBean("applicationTaskExecutor", ThreadPoolTaskExecutor.class);
			assertThat(executor.submit(() -> DecoratorsConfiguration.FIRST.get() + DecoratorsConfiguration.SECOND.get())
				.get(10, TimeUnit.SECONDS)).isEqualTo("12");
		});
	}

	@Test
	void excludedExecutorsAreLeftAlone() {
		this.runner.withPropertyValues("poolpilot.exclude=applicationTaskExecutor").run((context) -> {
			assertThat(context.getBean(PoolRegistry.class).get("applicationTaskExecutor")).isNull();
			assertThat(context.getBean("applicationTaskExecutor", ThreadPoolTaskExecutor.class).getQueueCapacity())
				.isEqualTo(Integer.MAX_VALUE);
		});
	}

	@Test
	void existingExecutorsCanAllBeLeftAlone() {
		this.runner.withPropertyValues("poolpilot.existing-executors.enabled=false")
			.run((context) -> assertThat(context.getBean(PoolRegistry.class).pools()).isEmpty());
	}

	@Configuration(proxyBeanMethods = false)
	static class CustomExecutorConfiguration {

		static final ThreadLocal<String> MARKER = new ThreadLocal<>();

		@Bean
		ThreadPoolTaskExecutor mine() {
			ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
			executor.setCorePoolSize(2);
			executor.setMaxPoolSize(3);
			executor.setQueueCapacity(2);
			executor.setKeepAliveSeconds(17);
			executor.setThreadNamePrefix("mine-");
			executor.setRejectedExecutionHandler(new ThreadPoolExecutor.CallerRunsPolicy());
			executor.setWaitForTasksToCompleteOnShutdown(true);
			executor.setAwaitTerminationSeconds(30);
			executor.setTaskDecorator((task) -> () -> {
				MARKER.set("mine");
				try {
					task.run();
				}
				finally {
					MARKER.remove();
				}
			});
			return executor;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ImpatientExecutorConfiguration {

		@Bean
		ThreadPoolTaskExecutor impatient() {
			ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
			executor.setCorePoolSize(1);
			executor.setMaxPoolSize(1);
			executor.setQueueCapacity(10);
			return executor;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class DecoratorsConfiguration {

		static final ThreadLocal<String> FIRST = new ThreadLocal<>();

		static final ThreadLocal<String> SECOND = new ThreadLocal<>();

		@Bean
		TaskDecorator first() {
			return marking(FIRST, "1");
		}

		@Bean
		TaskDecorator second() {
			return marking(SECOND, "2");
		}

		private static TaskDecorator marking(ThreadLocal<String> marker, String value) {
			return (task) -> () -> {
				marker.set(value);
				try {
					task.run();
				}
				finally {
					marker.remove();
				}
			};
		}

	}

	/**
	 * A pool named {@code http} joins before the application's executor of that name, as
	 * the web server's pool does when the server starts first.
	 */
	@Configuration(proxyBeanMethods = false)
	static class ServerPoolFirstConfiguration {

		@Bean(destroyMethod = "shutdownNow")
		ManagedExecutor serverPool(PoolRegistry registry) {
			ManagedExecutor executor = ManagedExecutor.builder("http", new PoolBounds(1, 1), 1).build();
			registry.register(executor.getPool());
			return executor;
		}

		@Bean
		ThreadPoolTaskExecutor http(ManagedExecutor serverPool) {
			return new ThreadPoolTaskExecutor();
		}

	}

}
