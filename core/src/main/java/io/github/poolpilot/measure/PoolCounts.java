package io.github.poolpilot.measure;

import java.lang.invoke.VarHandle;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

/**
 * What a pool that counts its own tasks tells {@link TotalsReader} in place of a count
 * per submit or per end: a {@code ThreadPoolExecutor}, whose every task is refused,
 * queued or started on one of its threads, and which counts the tasks its threads ran.
 * <p>
 * Its submits are the tasks refused, abandoned, started and still queued; its completed
 * tasks those it ran less those that failed or were refused after they started. A read
 * sums counts that tasks move between while it reads, in an order that may miss a task
 * moving at that moment and never counts one twice (see {@link TotalsReader#read()}), so
 * the most a read gave is what it reports: never above what happened, exact once the pool
 * is idle.
 *
 * @author poolpilot authors
 */
final class PoolCounts {

	/**
	 * The tasks in the pool's queue, or {@code null} while submits are counted.
	 */
	private volatile @Nullable IntSupplier queued;

	/**
	 * The tasks the pool's threads took and are done with, whatever became of them, or
	 * {@code null} while each end is counted.
	 */
	private volatile @Nullable LongSupplier ran;

	/**
	 * The most submits a read gave, guarded by the reader's lock.
	 */
	private long submitted;

	/**
	 * The most completed tasks a read gave, guarded by the reader's lock.
	 */
	private long completed;

	void arrivalsByOutcome(IntSupplier queued) {
		this.queued = queued;
	}

	void endsByPool(LongSupplier ran) {
		this.ran = ran;
	}

	@Nullable IntSupplier queued() {
		return this.queued;
	}

	/**
	 * Return how many tasks the pool's threads ran, or -1 while each end is counted: read
	 * before every thread's totals, as a thread counts a task's failure or refusal before
	 * the pool counts it as run. That order must hold on the processor too: the pool's
	 * count is a plain field, read under a lock its threads do not take when they write
	 * it, so an acquire fence keeps the reads of the threads' totals after it; the
	 * threads keep their side in order with a release fence
	 * ({@link WorkerTotals#addBeforeTheEnd}). Without both, on a processor that reorders
	 * (ARM, POWER), a read could see a failed task as run but not yet as failed, and the
	 * most completed tasks a read gave would stay one too many.
	 */
	long ran() {
		LongSupplier ran = this.ran;
		if (ran == null) {
			return -1;
		}
		long tasks = ran.getAsLong();
		VarHandle.acquireFence();
		return tasks;
	}

	/**
	 * Return the completed tasks, the most any read gave.
	 * @param ran the tasks the pool ran, read first
	 * @param failed the failed tasks, read after
	 * @param notRunAfterStart the tasks that did not run after they started (refused
	 * then, or abandoned before), read after
	 */
	long completed(long ran, long failed, long notRunAfterStart) {
		this.completed = Math.max(this.completed, ran - failed - notRunAfterStart);
		return this.completed;
	}

	/**
	 * Return the submits, the most any read gave: the tasks started, refused, abandoned
	 * and queued, the queue read last (a task leaves it before it starts or is counted as
	 * refused or abandoned). The ends, refusals and abandoned tasks bound them from below
	 * too, so that a pool whose subclass skips {@code beforeExecute} still adds up once
	 * idle.
	 * @param queued the pool's queue
	 * @param started the tasks started, read after every end and refusal
	 * @param rejected the tasks refused
	 * @param abandoned the tasks abandoned
	 * @param outcomes the tasks ended, refused or abandoned
	 */
	long submitted(IntSupplier queued, long started, long rejected, long abandoned, long outcomes) {
		long inQueue = Math.max(0, queued.getAsInt());
		this.submitted = Math.max(this.submitted, Math.max(started + rejected + abandoned + inQueue, outcomes));
		return this.submitted;
	}

}
