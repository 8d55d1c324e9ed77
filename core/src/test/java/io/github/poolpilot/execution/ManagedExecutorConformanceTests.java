package io.github.poolpilot.execution;

import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.pool.InvalidPoolSizeException;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRejectedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The conformance suite run against the {@link ManagedExecutor}, timing every task (the
 * default), so that every task takes the wrapped path. The tests overridden here pin its
 * deliberate differences.
 *
 * @author poolpilot authors
 */
class ManagedExecutorConformanceTests extends ThreadPoolExecutorConformance {

	@Override
	ThreadPoolExecutor newExecutor(Settings settings) {
		Hooks hooks = this.hooks;
		ManagedExecutorBuilder builder = ManagedExecutor
			.builder("conformance", new PoolBounds(0, 16), settings.queueCapacity())
			.sizes(settings.corePoolSize(), settings.maxPoolSize())
			.keepAlive(settings.keepAlive())
			.threadFactory(quietPlatformThreads())
			.rejectionPolicy(settings.policy());
		return new ManagedExecutor(builder) {

			@Override
			protected void beforeExecute(Thread thread, Runnable task) {
				// As docs/guarantees.md tells a subclass to: the pool counts the start.
				super.beforeExecute(thread, task);
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

		};
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
		assertThat(ManagedExecutor.submittedTask(queued)).isSameAs(queued);
		assertThat(executor.remove(queued)).isTrue();
	}

	/**
	 * Difference: {@code beforeExecute} and {@code afterExecute} receive the pool's
	 * wrapper of a timed, decorated or guarded task, which
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
		assertThat(this.hooks.thrown).containsExactly((Throwable) null);
		Future<?> future = executor.submit(new Task());
		future.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
		await().atMost(WAIT).until(() -> this.hooks.after.size() == 2);
		assertThat(ManagedExecutor.submittedTask(this.hooks.before.get(1))).isSameAs(future);
		assertThat(ManagedExecutor.submittedTask(this.hooks.after.get(1))).isSameAs(future);
	}

	/**
	 * Difference: sizes are checked against the pool's bounds as well (0 to 16 here),
	 * refused with an {@link InvalidPoolSizeException} naming the field and what is
	 * allowed, and a refused size changes nothing.
	 */
	@Override
	@Test
	void sizesAreReadAndChangedWithTheCoreSizeAtMostTheMaximum() {
		super.sizesAreReadAndChangedWithTheCoreSizeAtMostTheMaximum();
		ThreadPoolExecutor executor = executor(2, 4, 10);
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> executor.setMaximumPoolSize(17))
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("maxPoolSize"))
			.withMessageContaining("above its max-threads 16")
			.withMessageContaining("allowed");
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> executor.setCorePoolSize(5))
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("corePoolSize"))
			.withMessageContaining("allowed");
		assertThat(executor.getCorePoolSize()).isEqualTo(2);
		assertThat(executor.getMaximumPoolSize()).isEqualTo(4);
	}

	@Test
	void theDefaultPolicyThrowsThePoolsRejection() {
		ThreadPoolExecutor executor = executor(1, 1, 1);
		fillOneThreadAndTheQueue(executor);
		assertThatExceptionOfType(PoolRejectedException.class).isThrownBy(() -> executor.execute(new Task()));
	}

}
