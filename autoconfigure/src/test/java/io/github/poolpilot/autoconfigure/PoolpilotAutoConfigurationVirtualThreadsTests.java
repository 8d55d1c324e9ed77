package io.github.poolpilot.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.springboot.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.poolpilot.actuate.ThreadPoolsEndpoint;
import io.github.poolpilot.actuate.ThreadPoolsDescriptor.PoolDescriptor;
import io.github.poolpilot.pool.InvalidPoolSizeException;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.task.ManagedTaskExecutor;
import io.github.poolpilot.tuning.Decision;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.Judging;
import io.github.poolpilot.tuning.Tuner;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.pool.PoolRejectedException;
import io.github.poolpilot.measure.RejectionReason;
import io.github.poolpilot.guard.QueueWaitLimit;
import io.github.poolpilot.guard.TaskGuard;
import io.github.poolpilot.guard.TaskTimeouts;
import io.github.poolpilot.execution.ManagedExecutorService;
import io.github.poolpilot.execution.VirtualManagedExecutor;
import io.github.poolpilot.resilience.CircuitBreakerGuard;
import io.github.poolpilot.testsupport.Blocking;
import io.github.poolpilot.testsupport.VirtualThreadsSupport;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.task.TaskExecutorMetricsAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.task.TaskRejectedException;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for pools declared with {@code virtual-threads: true}: the same managed pool,
 * with its size read and written as a limit on the tasks running at once.
 *
 * @author poolpilot authors
 */
@EnabledForJreRange(min = JRE.JAVA_21)
@ExtendWith(OutputCaptureExtension.class)
class PoolpilotAutoConfigurationVirtualThreadsTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class, PoolpilotAutoConfiguration.class,
				PoolpilotResilienceAutoConfiguration.class))
		.withPropertyValues("poolpilot.existing-executors.enabled=false", "poolpilot.pools.talk.virtual-threads=true",
				// The tuner would resize idle pools while the tests read their sizes.
				"poolpilot.measurement.window=1h");

	@Test
	void aPoolWithVirtualThreadsIsAManagedTaskExecutorOverAVirtualPool() {
		this.runner
			.withPropertyValues("poolpilot.pools.talk.min-threads=2", "poolpilot.pools.talk.max-threads=6",
					"poolpilot.pools.talk.queue-capacity=10")
			.run((context) -> {
				ThreadPoolTaskExecutor talk = context.getBean("talk", ThreadPoolTaskExecutor.class);
				assertThat(talk).isInstanceOf(ManagedTaskExecutor.class);
				assertThat(((ManagedTaskExecutor) talk).getManagedExecutor())
					.isInstanceOf(VirtualManagedExecutor.class);
				ManagedPool pool = context.getBean(PoolRegistry.class).get("talk");
				assertThat(pool.getExecutor()).isSameAs(((ManagedTaskExecutor) talk).getManagedExecutor());
				// A pool starts at its min-threads and grows with demand.
				assertThat(talk.getThreadPoolExecutor().getMaximumPoolSize()).isEqualTo(2);
				assertThat(pool.getBounds()).isEqualTo(new PoolBounds(2, 6));
				assertThat(pool.getExecutor().getQueueCapacity()).isEqualTo(10);
				assertThat(talk.getMaxPoolSize()).isEqualTo(2);
				Thread thread = talk.submit(Thread::currentThread).get(10, TimeUnit.SECONDS);
				assertThat(VirtualThreadsSupport.isVirtual(thread)).isTrue();
				assertThat(thread.getName()).startsWith("talk-");
			});
	}

	@Test
	void theEndpointReadsAndWritesTheSizeAsTheLimit() {
		this.runner.withPropertyValues("poolpilot.pools.talk.max-threads=6", "poolpilot.pools.talk.queue-capacity=10")
			.run((context) -> {
				ThreadPoolsEndpoint endpoint = new ThreadPoolsEndpoint(context.getBean(PoolRegistry.class),
						context.getBean(Tuner.class), context);
				PoolDescriptor resized = endpoint.updateThreadPool(SecurityContext.NONE, "talk", null, 3, null);
				assertThat(resized.maxPoolSize()).isEqualTo(3);
				assertThat(resized.tuning().mode()).isEqualTo("manual");
				ThreadPoolTaskExecutor talk = context.getBean("talk", ThreadPoolTaskExecutor.class);
				CountDownLatch release = new CountDownLatch(1);
				try {
					for (int i = 0; i < 5; i++) {
						talk.execute(() -> Blocking.await(release));
					}
					await().atMost(WAIT).until(() -> talk.getActiveCount() == 3);
					PoolDescriptor busy = endpoint.threadPool("talk");
					assertThat(busy.poolSize()).isEqualTo(3);
					assertThat(busy.activeCount()).isEqualTo(3);
					assertThat(busy.queueSize()).isEqualTo(2);
					assertThat(context.getBean(PoolRegistry.class).budget().liveThreads()).isEqualTo(3);
					endpoint.updateThreadPool(SecurityContext.NONE, "talk", null, 5, null);
					await().atMost(WAIT).until(() -> talk.getActiveCount() == 5);
					assertThat(talk.getQueueSize()).isZero();
				}
				finally {
					release.countDown();
				}
				assertThatExceptionOfType(InvalidPoolSizeException.class)
					.isThrownBy(() -> endpoint.updateThreadPool(SecurityContext.NONE, "talk", null, 7, null))
					.withMessageContaining("above its max-threads 6");
			});
	}

	@Test
	void permitsCountAgainstTheBudgetLikeThreads() {
		this.runner
			.withPropertyValues("poolpilot.budget.max-threads=10", "poolpilot.pools.talk.min-threads=1",
					"poolpilot.pools.talk.max-threads=8", "poolpilot.pools.stop.virtual-threads=true",
					"poolpilot.pools.stop.min-threads=1", "poolpilot.pools.stop.max-threads=8")
			.run((context) -> {
				PoolRegistry registry = context.getBean(PoolRegistry.class);
				ManagedPool stop = registry.get("stop");
				stop.resize(5, 5);
				ThreadPoolTaskExecutor stopExecutor = context.getBean("stop", ThreadPoolTaskExecutor.class);
				CountDownLatch release = new CountDownLatch(1);
				try {
					for (int i = 0; i < 5; i++) {
						stopExecutor.execute(() -> Blocking.await(release));
					}
					await().atMost(WAIT).until(() -> stopExecutor.getActiveCount() == 5);
					// stop's five permits are in use: they are not lent, so talk cannot
					// have six.
					assertThatExceptionOfType(InvalidPoolSizeException.class)
						.isThrownBy(() -> registry.get("talk").resize(6, 6))
						.withMessageContaining("over the budget of 10 threads");
					assertThat(stop.getExecutor().getMaximumPoolSize()).isEqualTo(5);
				}
				finally {
					release.countDown();
				}
				// Idle again, stop lends its permits down to its min-threads.
				await().atMost(WAIT).until(() -> stopExecutor.getActiveCount() == 0);
				registry.get("talk").resize(6, 6);
				assertThat(registry.get("talk").getExecutor().getMaximumPoolSize()).isEqualTo(6);
				assertThat(stop.getExecutor().getMaximumPoolSize()).isLessThanOrEqualTo(4);
				assertThat(registry.budget().allocatedThreads()).isLessThanOrEqualTo(10);
			});
	}

	@Test
	void theTunerMovesTheLimitWithinMinAndMaxThreads() {
		this.runner
			.withPropertyValues("poolpilot.measurement.window=1s", "poolpilot.pools.talk.min-threads=2",
					"poolpilot.pools.talk.max-threads=32", "poolpilot.pools.talk.queue-capacity=2000")
			.run((context) -> {
				PoolRegistry registry = context.getBean(PoolRegistry.class);
				ManagedPool pool = registry.get("talk");
				pool.resize(2, 2);
				ThreadPoolTaskExecutor talk = context.getBean("talk", ThreadPoolTaskExecutor.class);
				AtomicBoolean loading = new AtomicBoolean(true);
				ExecutorService producer = Executors.newSingleThreadExecutor();
				try {
					// 20 ms calls at 300/s need about 6 at once, 11 with the margin. The
					// producer catches up after a late wake-up, so a busy machine does
					// not lower the offered rate below what 4 threads serve.
					producer.execute(() -> {
						long began = System.nanoTime();
						long offered = 0;
						while (loading.get()) {
							long due = (System.nanoTime() - began) * 300 / 1_000_000_000L;
							for (; offered < due; offered++) {
								try {
									talk.execute(() -> Blocking.sleep(Duration.ofMillis(20)));
								}
								catch (TaskRejectedException ex) {
									// counted by the pool
								}
							}
							LockSupport.parkNanos(3_000_000);
						}
					});
					await().atMost(Duration.ofSeconds(30))
						.untilAsserted(() -> assertThat(pool.getExecutor().getMaximumPoolSize()).isGreaterThan(4));
					// The tuner ticks on: its last decision is the growth, its judging
					// or the next step. The tuner records a decision just after the
					// resize it makes, so the growth can be seen a moment before it.
					await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
						Decision last = context.getBean(Tuner.class).state("talk").getLastDecision();
						assertThat(last).isNotNull()
							.satisfiesAnyOf((decision) -> assertThat(decision.action()).isEqualTo(Action.GROW),
									(decision) -> assertThat(decision.cause()).isInstanceOf(Judging.class),
									(decision) -> assertThat(decision.kept()).isNotNull());
					});
					loading.set(false);
					int grown = pool.getExecutor().getMaximumPoolSize();
					assertThat(grown).isBetween(5, 32);
					await().atMost(Duration.ofSeconds(30))
						.untilAsserted(() -> assertThat(pool.getExecutor().getMaximumPoolSize()).isLessThan(grown));
					assertThat(pool.getExecutor().getMaximumPoolSize()).isGreaterThanOrEqualTo(2);
				}
				finally {
					loading.set(false);
					producer.shutdownNow();
				}
			});
	}

	@Test
	void aFullPoolRejectsWithThePoolsRejectionBehindSpringsTaskRejectedException() {
		this.runner.withPropertyValues("poolpilot.pools.talk.max-threads=1", "poolpilot.pools.talk.queue-capacity=1")
			.run((context) -> {
				ThreadPoolTaskExecutor talk = context.getBean("talk", ThreadPoolTaskExecutor.class);
				CountDownLatch release = new CountDownLatch(1);
				try {
					talk.execute(() -> Blocking.await(release));
					talk.execute(() -> Blocking.await(release));
					assertThatExceptionOfType(TaskRejectedException.class)
						.isThrownBy(() -> talk.execute(() -> Blocking.await(release)))
						.havingCause()
						.isInstanceOfSatisfying(PoolRejectedException.class, (ex) -> {
							assertThat(ex.getPool()).isEqualTo("talk");
							assertThat(ex.getReason()).isEqualTo(RejectionReason.QUEUE_FULL);
							assertThat(ex.getRetryAfter()).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
						});
				}
				finally {
					release.countDown();
				}
			});
	}

	@Test
	void maxQueueWaitTimeoutAndCircuitBreakerGuardAVirtualPoolToo() {
		this.runner.withConfiguration(AutoConfigurations.of(CircuitBreakerAutoConfiguration.class))
			.withPropertyValues("poolpilot.pools.talk.max-queue-wait=100ms",
					"poolpilot.pools.talk.resilience.circuit-breaker=downstream",
					"poolpilot.pools.talk.resilience.timeout=100ms")
			.run((context) -> {
				ManagedPool pool = context.getBean(PoolRegistry.class).get("talk");
				List<TaskGuard> guards = ((TaskGuard.Guards) context.getBean("talk", ManagedTaskExecutor.class)
					.getManagedExecutor()
					.getGuard()).getGuards();
				assertThat(guards).hasExactlyElementsOfTypes(QueueWaitLimit.class, CircuitBreakerGuard.class,
						TaskTimeouts.class);
				ThreadPoolTaskExecutor talk = context.getBean("talk", ThreadPoolTaskExecutor.class);
				// The timeout interrupts a task blocked on its virtual thread.
				talk.execute(() -> Blocking.await(new CountDownLatch(1)));
				await().atMost(WAIT).until(() -> pool.getRecorder().taskCounts().timedOut() == 1);
				context.getBean(CircuitBreakerRegistry.class).circuitBreaker("downstream").transitionToOpenState();
				assertThatExceptionOfType(TaskRejectedException.class).isThrownBy(() -> talk.execute(() -> {
				}))
					.havingCause()
					.isInstanceOfSatisfying(PoolRejectedException.class,
							(ex) -> assertThat(ex.getReason()).isEqualTo(RejectionReason.CIRCUIT_OPEN));
				assertThat(pool.getRecorder().taskCounts().rejections().circuitOpen()).isEqualTo(1);
			});
	}

	@Test
	void queuedTasksFinishWhenTheContextClosesWithinTheAwaitPeriod() {
		AwaitTerminationChecks.queuedTasksFinishWithinTheAwaitPeriod(this.runner);
	}

	@ParameterizedTest
	@ValueSource(strings = { "100ms", "0" })
	void tasksLeftAfterTheAwaitPeriodAreCancelledAndCountedAbandoned(String awaitTermination, CapturedOutput output) {
		ManagedExecutorService executor = AwaitTerminationChecks.tasksLeftAfterTheAwaitPeriodAreAbandoned(this.runner,
				awaitTermination, output);
		assertThat(executor).isInstanceOf(VirtualManagedExecutor.class);
		assertThat(executor.getPool().getRecorder().taskCounts().completed()).isEqualTo(1);
	}

	@Test
	void springBootsExecutorMetersAndPoolpilotsReadPermits() {
		this.runner
			.withConfiguration(
					AutoConfigurations.of(MetricsAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
							TaskExecutorMetricsAutoConfiguration.class, PoolpilotMetricsAutoConfiguration.class))
			.withPropertyValues("poolpilot.pools.talk.min-threads=2", "poolpilot.pools.talk.max-threads=2",
					"poolpilot.pools.talk.queue-capacity=1")
			.run((context) -> {
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				ThreadPoolTaskExecutor talk = context.getBean("talk", ThreadPoolTaskExecutor.class);
				CountDownLatch release = new CountDownLatch(1);
				try {
					for (int i = 0; i < 3; i++) {
						talk.execute(() -> Blocking.await(release));
					}
					await().atMost(WAIT).until(() -> talk.getActiveCount() == 2);
					assertThatExceptionOfType(TaskRejectedException.class).isThrownBy(() -> talk.execute(() -> {
					}));
					assertThat(gauge(meters, "executor.pool.max")).isEqualTo(2);
					assertThat(gauge(meters, "executor.pool.size")).isEqualTo(2);
					assertThat(gauge(meters, "executor.active")).isEqualTo(2);
					assertThat(gauge(meters, "executor.queued")).isEqualTo(1);
					assertThat(gauge(meters, "executor.tuning.target")).isEqualTo(2);
					assertThat(meters.get("executor.rejected")
						.tag("name", "talk")
						.tag("reason", "queue_full")
						.functionCounter()
						.count()).isEqualTo(1);
				}
				finally {
					release.countDown();
				}
				await().atMost(WAIT)
					.untilAsserted(() -> assertThat(
							meters.get("executor.completed").tag("name", "talk").functionCounter().count())
						.isEqualTo(3));
			});
	}

	private static double gauge(MeterRegistry meters, String name) {
		return meters.get(name).tag("name", "talk").gauge().value();
	}

}
