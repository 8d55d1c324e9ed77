package io.github.poolpilot.measure;

import org.jspecify.annotations.Nullable;

/**
 * A pool's platform thread that carries its own {@link WorkerTotals} for the pool's
 * recorder in a field, so that a task's end reaches them with a type check and a field
 * read rather than a {@code ThreadLocal} map lookup. It counts exactly what a thread
 * using the map would: its totals are made on its first task's end, on the thread itself,
 * and kept with every other worker's; a task of another recorder run on it (a rejection
 * policy that runs the task in the caller) goes through the map as on any thread.
 *
 * @author poolpilot authors
 */
final class WorkerThread extends Thread {

	private final TaskTotals owner;

	/**
	 * Written and read by this thread alone.
	 */
	private @Nullable WorkerTotals totals;

	WorkerThread(TaskTotals owner, Runnable task, String name) {
		super(task, name);
		this.owner = owner;
	}

	/**
	 * Count a task's start in this thread's totals, if they are the given pool's and were
	 * made already; called on this thread.
	 * @param pool the totals being added to
	 * @return whether it was counted
	 */
	boolean countedStart(TaskTotals pool) {
		WorkerTotals totals = this.totals;
		if (totals == null || pool != this.owner) {
			return false;
		}
		totals.addOwn(WorkerTotals.STARTED);
		return true;
	}

	/**
	 * Return this thread's totals for the given pool's totals, made on first use; called
	 * on this thread.
	 * @param pool the totals being added to
	 * @return this thread's totals, or {@code null} if it belongs to another pool
	 */
	@Nullable WorkerTotals totalsFor(TaskTotals pool) {
		if (pool != this.owner) {
			return null;
		}
		WorkerTotals totals = this.totals;
		if (totals == null) {
			totals = pool.newWorkerTotals();
			this.totals = totals;
		}
		return totals;
	}

}
