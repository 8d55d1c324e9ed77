package io.github.poolpilot.task;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.guard.TaskGuard;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;

/**
 * How an application's existing executor is managed, decided from the settings it was
 * made with and the application's configuration: the bounds the tuner and manual changes
 * keep its sizes in, the sizes and queue it starts with, its share of the budget, its
 * guards, and what it changes of the executor's own settings.
 *
 * @param bounds the range its sizes must stay in
 * @param corePoolSize the core size it starts with, within the bounds
 * @param maxPoolSize the maximum size it starts with, within the bounds
 * @param queueCapacity the capacity of its queue, fixed at start
 * @param keepAlive how long an idle thread above the core size lives, or {@code null} to
 * keep the executor's own
 * @param awaitTermination how long its shutdown waits for queued and running tasks, or
 * {@code null} to keep the executor's own shutdown settings
 * @param weight its share of the budget relative to the other pools' weights
 * @param guards makes its guards (max-queue-wait, circuit breaker, timeout) once the pool
 * exists, in the order they check
 * @author poolpilot authors
 */
public record ExistingExecutorSettings(PoolBounds bounds, int corePoolSize, int maxPoolSize, int queueCapacity,
		@Nullable Duration keepAlive, @Nullable Duration awaitTermination, int weight,
		Function<ManagedPool, List<TaskGuard>> guards) {

	/**
	 * The settings an executor was made with, before poolpilot changed any.
	 *
	 * @param beanName its bean name, the pool's name
	 * @param corePoolSize its core size
	 * @param maxPoolSize its maximum size; {@code Integer.MAX_VALUE} when unbounded
	 * @param queueCapacity its queue's capacity; {@code Integer.MAX_VALUE} when unbounded
	 * @param keepAliveSeconds its keep-alive in seconds
	 */
	public record Own(String beanName, int corePoolSize, int maxPoolSize, int queueCapacity, int keepAliveSeconds) {

		/**
		 * Return whether its queue was unbounded.
		 * @return whether the queue's capacity was {@code Integer.MAX_VALUE}
		 */
		public boolean unboundedQueue() {
			return this.queueCapacity == Integer.MAX_VALUE;
		}

	}

	/**
	 * Decides how each existing executor is managed.
	 */
	@FunctionalInterface
	public interface Source {

		/**
		 * Return how an executor is managed.
		 * @param own the settings it was made with
		 * @return its settings under management
		 */
		ExistingExecutorSettings settings(Own own);

	}

}
