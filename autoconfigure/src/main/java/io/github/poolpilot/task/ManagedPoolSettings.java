package io.github.poolpilot.task;

import java.util.concurrent.ThreadFactory;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.execution.ManagedExecutor;
import io.github.poolpilot.execution.ManagedExecutorBuilder;
import io.github.poolpilot.execution.ManagedExecutorService;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.measure.PoolRecorderBuilder;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;

import org.springframework.core.task.TaskDecorator;
import org.springframework.util.Assert;

/**
 * The settings that both of poolpilot's Spring task executors keep for their managed
 * pool, beyond those Spring's executor keeps, and how a pool is built from them and joins
 * and leaves the registry.
 *
 * @author poolpilot authors
 */
final class ManagedPoolSettings {

	private @Nullable PoolBounds bounds;

	private PoolRecorderBuilder recorder = PoolRecorder.builder();

	private @Nullable PoolRegistry registry;

	private @Nullable TaskDecorator taskDecorator;

	@Nullable PoolBounds getBounds() {
		return this.bounds;
	}

	void setBounds(PoolBounds bounds) {
		this.bounds = bounds;
	}

	void setRecorder(PoolRecorderBuilder recorder) {
		this.recorder = recorder;
	}

	void setRegistry(PoolRegistry registry) {
		this.registry = registry;
	}

	void setTaskDecorator(TaskDecorator taskDecorator) {
		this.taskDecorator = taskDecorator;
	}

	/**
	 * Check a queue capacity before it is kept.
	 * @param queueCapacity the queue capacity
	 * @throws IllegalArgumentException if it is not at least 1
	 */
	static void checkQueueCapacity(int queueCapacity) {
		// Checked as it is set, when a bean made in a @Bean method has no name yet.
		Assert.isTrue(queueCapacity > 0, () -> "queueCapacity of a managed pool must be at least 1 but was "
				+ queueCapacity + " (allowed: 1 or more; a managed pool's queue is bounded, with no hand-off)");
	}

	/**
	 * Check a queue capacity set once the pool runs: its queue was made with room for a
	 * number of tasks and keeps it, so only that number is allowed.
	 * @param pool the running pool
	 * @param queueCapacity the queue capacity
	 * @throws IllegalArgumentException naming the pool if it differs from the live
	 * queue's
	 */
	static void checkQueueCapacity(ManagedPool pool, int queueCapacity) {
		int capacity = pool.getExecutor().getQueueCapacity();
		Assert.isTrue(queueCapacity == capacity,
				() -> "queue capacity " + queueCapacity + " of pool '" + pool.getName()
						+ "' cannot be set while the pool runs, its queue was made for " + capacity
						+ " tasks (allowed: " + capacity + "; set it before the pool starts)");
	}

	/**
	 * Return a builder for the pool, measured as set and with the task decorator, if any,
	 * applied to each task.
	 * @param name the pool's name
	 * @param bounds the pool's bounds
	 * @param queueCapacity the pool's queue capacity
	 * @param threadFactory the factory of the pool's threads
	 * @return the builder
	 */
	ManagedExecutorBuilder builder(String name, PoolBounds bounds, int queueCapacity, ThreadFactory threadFactory) {
		ManagedExecutorBuilder builder = ManagedExecutor.builder(name, bounds, queueCapacity)
			.threadFactory(threadFactory)
			.recorder(this.recorder.build());
		TaskDecorator decorator = this.taskDecorator;
		if (decorator != null) {
			builder.taskDecorator(decorator::decorate);
		}
		return builder;
	}

	/**
	 * The pool started: it joins the registry, if any. When the registry refuses it (a
	 * lazy executor whose min-threads the budget cannot fit), the executor is shut down
	 * at once, so that no thread runs and no task is taken outside the budget.
	 * @param executor the pool's executor
	 */
	void started(ManagedExecutorService executor) {
		try {
			PoolLifecycle.started(this.registry, executor.getPool());
		}
		catch (RuntimeException ex) {
			executor.shutdownNow();
			throw ex;
		}
	}

	/**
	 * The pool stopped: it leaves the registry, if any.
	 * @param pool the pool
	 */
	void stopped(ManagedPool pool) {
		PoolLifecycle.stopped(this.registry, pool);
	}

}
