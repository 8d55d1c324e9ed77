package io.github.poolpilot.pool;

import org.jspecify.annotations.Nullable;

/**
 * What a managed pool's executor is, as the pool reads it: its sizes, its queue and
 * whether it is shutting down. A {@code ThreadPoolExecutor} has these getters; a pool
 * that runs each task on a virtual thread of its own, or a web server's request pool,
 * answers them in its own terms. Its sizes are changed only through
 * {@link ManagedPool#resize}.
 *
 * @author poolpilot authors
 */
public interface PoolExecutor {

	/**
	 * Return the core size: the threads kept even when idle.
	 * @return the core size
	 */
	int getCorePoolSize();

	/**
	 * Return the maximum size: the most threads, or tasks running at once, it allows.
	 * @return the maximum size
	 */
	int getMaximumPoolSize();

	/**
	 * Return its live threads (for a pool of virtual threads, the tasks running).
	 * @return the live threads
	 */
	int getPoolSize();

	/**
	 * Return the threads running a task.
	 * @return the active threads
	 */
	int getActiveCount();

	/**
	 * Return the tasks waiting in its queue.
	 * @return the queue's length
	 */
	int getQueueSize();

	/**
	 * Return the fixed capacity of its queue.
	 * @return the queue's capacity
	 */
	int getQueueCapacity();

	/**
	 * Return whether its queue is a message broker's: the messages ready at the broker
	 * for its consumers, which have no capacity the pool knows ({@link #getQueueCapacity}
	 * is 0).
	 * @return whether the queue is a broker's
	 */
	default boolean isQueueAtBroker() {
		return false;
	}

	/**
	 * Return whether it no longer takes tasks.
	 * @return whether it is shut down
	 */
	boolean isShutdown();

	/**
	 * Return whether it settles after a resize that restarted its workers, and for how
	 * long. An executor resized at once never settles.
	 * @return how it settles, or {@code null} when it does not
	 */
	default @Nullable Settling settling() {
		return null;
	}

	/**
	 * Return, for an executor whose every resize restarts its workers, how many restarts
	 * ran and what the last one cost.
	 * @return its restarts, or {@code null} for an executor resized at once
	 */
	default @Nullable Restarts restarts() {
		return null;
	}

}
