package io.github.poolpilot.execution;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import io.github.poolpilot.pool.PoolBounds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * The conformance suite run against the {@code ThreadPoolExecutor} view of a
 * {@link VirtualManagedExecutor} ({@link VirtualManagedExecutor#asThreadPoolExecutor()}),
 * the hooks being the virtual executor's own. The tests overridden here pin its
 * deliberate differences: its size is a limit on the tasks running at once, and it keeps
 * no idle thread (its keep-alive and core thread time-out are checked and kept, without
 * effect).
 *
 * @author poolpilot authors
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class VirtualManagedExecutorConformanceTests extends ThreadPoolExecutorConformance {

	@Override
	ThreadPoolExecutor newExecutor(Settings settings) {
		Hooks hooks = this.hooks;
		ManagedExecutorBuilder builder = ManagedExecutor
			.builder("conformance", new PoolBounds(0, 16), settings.queueCapacity())
			.sizes(settings.corePoolSize(), settings.maxPoolSize())
			.keepAlive(settings.keepAlive())
			.threadFactory(quietVirtualThreads())
			.rejectionPolicy(settings.policy());
		return new VirtualManagedExecutor(builder) {

			@Override
			protected void beforeExecute(Thread thread, Runnable task) {
				hooks.beforeExecute(thread, task);
			}

			@Override
			protected void afterExecute(Runnable task, @Nullable Throwable thrown) {
				super.afterExecute(task, thrown);
				hooks.afterExecute(task, thrown);
			}

			@Override
			protected void terminated() {
				super.terminated();
				hooks.terminated();
			}

		}.asThreadPoolExecutor();
	}

	/**
	 * Difference: the core size has no effect; a task starts whenever a permit is free
	 * and waits in the queue only when every permit is in use.
	 */
	@Override
	@Test
	void aTaskStartsACoreThreadThenWaitsInTheQueueThenGrowsThePoolToItsMaximum() {
		ThreadPoolExecutor executor = executor(1, 2, 1);
		executor.execute(this::awaitRelease);
		await().atMost(WAIT).until(() -> executor.getActiveCount() == 1);
		executor.execute(this::awaitRelease);
		await().atMost(WAIT).until(() -> executor.getActiveCount() == 2);
		assertThat(executor.getQueue()).isEmpty();
		Task queued = new Task();
		executor.execute(queued);
		assertThat(executor.getQueue()).hasSize(1);
		assertThat(executor.getPoolSize()).isEqualTo(2);
		assertThat(executor.getLargestPoolSize()).isEqualTo(2);
		assertThat(executor.getTaskCount()).isEqualTo(3);
		assertThatExceptionOfType(RejectedExecutionException.class).isThrownBy(() -> executor.execute(new Task()));
		this.release.countDown();
		await().atMost(WAIT).until(() -> executor.getCompletedTaskCount() == 3);
		assertThat(queued.ran()).isTrue();
		assertThat(executor.getTaskCount()).isEqualTo(3);
	}

	/**
	 * Difference: no thread is started before a task; prestarting starts none.
	 */
	@Override
	@Test
	void prestartingStartsCoreThreadsBeforeAnyTask() {
		ThreadPoolExecutor executor = executor(2, 3, 10);
		assertThat(executor.prestartCoreThread()).isFalse();
		assertThat(executor.prestartAllCoreThreads()).isZero();
		assertThat(executor.getPoolSize()).isZero();
	}

	/**
	 * Difference: no thread is kept idle, so a keep-alive time has no effect: it is
	 * checked and read back as a {@code ThreadPoolExecutor}'s is, and the pool size (the
	 * permits in use) is 0 as soon as the tasks ended.
	 */
	@Override
	@Test
	void threadsAboveTheCoreSizeEndOnceIdleForTheKeepAliveTime() {
		ThreadPoolExecutor executor = newTracked(new Settings(1, 2, 1).keepAlive(Duration.ofMillis(100)));
		assertThat(executor.getKeepAliveTime(TimeUnit.MILLISECONDS)).isEqualTo(100);
		executor.setKeepAliveTime(5, TimeUnit.SECONDS);
		assertThat(executor.getKeepAliveTime(TimeUnit.MILLISECONDS)).isEqualTo(5000);
		fillTwoThreads(executor);
		this.release.countDown();
		await().atMost(WAIT).until(() -> executor.getCompletedTaskCount() == 3);
		await().atMost(WAIT).until(() -> executor.getPoolSize() == 0);
	}

	/**
	 * Difference: with no idle thread kept there is no core thread to time out:
	 * {@code allowCoreThreadTimeOut} is checked and read back as a
	 * {@code ThreadPoolExecutor}'s is, and has no effect: the pool size is 0 once the
	 * tasks ended, whether core threads time out or not.
	 */
	@Override
	@Test
	void coreThreadsTimeOutOnlyWhenAllowed() {
		ThreadPoolExecutor executor = newTracked(new Settings(1, 1, 1).keepAlive(Duration.ofSeconds(60)));
		assertThat(executor.allowsCoreThreadTimeOut()).isFalse();
		Task task = new Task();
		executor.execute(task);
		await().atMost(WAIT).until(task::ran);
		await().atMost(WAIT).until(() -> executor.getPoolSize() == 0);
		executor.allowCoreThreadTimeOut(true);
		assertThat(executor.allowsCoreThreadTimeOut()).isTrue();
		ThreadPoolExecutor noKeepAlive = newTracked(new Settings(1, 1, 1).keepAlive(Duration.ZERO));
		assertThatIllegalArgumentException().isThrownBy(() -> noKeepAlive.allowCoreThreadTimeOut(true));
		assertThat(noKeepAlive.allowsCoreThreadTimeOut()).isFalse();
	}

	/**
	 * Difference: the queue holds each timed, decorated or guarded task in the pool's
	 * wrapper, which {@link ManagedExecutor#submittedTask} opens; {@code remove} takes
	 * the task as submitted.
	 */
	@Override
	@Test
	void theQueueHoldsTheQueuedTasksAsSubmitted() {
		ThreadPoolExecutor executor = executor(1, 1, 5);
		Task queued = fillOneThreadAndQueueOne(executor);
		assertThat(executor.getQueue()).hasSize(1);
		assertThat(executor.getQueue().remainingCapacity()).isEqualTo(4);
		assertThat(executor.getQueue().contains(queued)).isFalse();
		Runnable held = executor.getQueue().peek();
		assertThat(held).isNotSameAs(queued).hasToString(queued.toString());
		assertThat(ManagedExecutor.submittedTask(held)).isSameAs(queued);
		assertThat(executor.remove(queued)).isTrue();
	}

	@Test
	void theThreadFactoryCannotBeChanged() {
		ThreadPoolExecutor executor = executor(1, 1, 5);
		ThreadFactory factory = executor.getThreadFactory();
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> executor.setThreadFactory(Thread::new));
		assertThat(executor.getThreadFactory()).isSameAs(factory);
	}

	/**
	 * Virtual threads that keep a task's uncaught exception out of the test's output.
	 */
	private static ThreadFactory quietVirtualThreads() {
		ThreadFactory virtual = VirtualThreads.factory("conformance-");
		return (task) -> {
			Thread thread = virtual.newThread(task);
			thread.setUncaughtExceptionHandler((t, ex) -> {
			});
			return thread;
		};
	}

}
