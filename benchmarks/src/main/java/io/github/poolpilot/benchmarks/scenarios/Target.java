package io.github.poolpilot.benchmarks.scenarios;

/**
 * One pool of a strategy, as the load generator and the monitor see it.
 *
 * @author poolpilot authors
 */
interface Target {

	/**
	 * Hand a task to the pool.
	 * @param task the task
	 * @return whether the pool took it; {@code false} when it was turned away
	 */
	boolean submit(TaskRun task);

	/**
	 * Return how many tasks the pool may run at once now: its maximum size, or its
	 * limiter's limit.
	 * @return the pool's size
	 */
	int size();

	/**
	 * Return the pool's live threads.
	 * @return the live threads
	 */
	int liveThreads();

	/**
	 * Return the tasks waiting in the pool's queue.
	 * @return the queued tasks
	 */
	int queued();

}
