package io.github.poolpilot.execution;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.pool.PoolBounds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The conformance suite run against the {@code ThreadPoolExecutor} an application's own
 * executor is handed out as once under management
 * ({@link ExistingExecutor#asThreadPoolExecutor()}), the hooks being the live executor's.
 * The tests overridden here pin its deliberate differences.
 *
 * @author poolpilot authors
 */
class ExistingExecutorConformanceTests extends ThreadPoolExecutorConformance {

	@Override
	ThreadPoolExecutor newExecutor(Settings settings) {
		Hooks hooks = this.hooks;
		ThreadPoolExecutor live = new ThreadPoolExecutor(settings.corePoolSize(), settings.maxPoolSize(),
				settings.keepAlive().toNanos(), TimeUnit.NANOSECONDS,
				new ArrayBlockingQueue<>(settings.queueCapacity()), quietPlatformThreads(), settings.policyOrAbort()) {

			@Override
			protected void beforeExecute(Thread thread, Runnable task) {
				hooks.beforeExecute(thread, task);
			}

			@Override
			protected void afterExecute(Runnable task, @Nullable Throwable thrown) {
				hooks.afterExecute(task, thrown);
			}

			@Override
			protected void terminated() {
				hooks.terminated();
			}

		};
		return new ExistingExecutor("conformance", live, PoolRecorder.builder().build(), new PoolBounds(0, 16))
			.asThreadPoolExecutor();
	}

	/**
	 * Difference: the live queue holds every task in the pool's wrapper, which
	 * {@link ManagedExecutor#submittedTask} opens; {@code remove} takes the task as
	 * submitted.
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

	/**
	 * Difference: the live executor's {@code beforeExecute} and {@code afterExecute}
	 * receive the pool's wrapper of each task, which
	 * {@link ManagedExecutor#submittedTask} opens.
	 */
	@Override
	@Test
	void theHooksSeeEachTaskAsSubmittedOnTheThreadThatRunsIt() throws Exception {
		ThreadPoolExecutor executor = executor(1, 1, 5);
		Task task = new Task();
		executor.execute(task);
		await().atMost(WAIT).until(() -> this.hooks.after.size() == 1);
		assertThat(this.hooks.before.get(0)).isNotSameAs(task).hasToString(task.toString());
		assertThat(ManagedExecutor.submittedTask(this.hooks.before.get(0))).isSameAs(task);
		assertThat(this.hooks.beforeThreads).containsExactly(task.thread());
		assertThat(this.hooks.after).containsExactly(this.hooks.before.get(0));
		Future<?> future = executor.submit(new Task());
		future.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
		await().atMost(WAIT).until(() -> this.hooks.after.size() == 2);
		assertThat(ManagedExecutor.submittedTask(this.hooks.before.get(1))).isSameAs(future);
	}

}
