package io.github.poolpilot.measure;

import java.util.Iterator;
import java.util.Queue;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.measure.PoolSnapshot.Rejections;

/**
 * Reads a pool's {@link TaskTotals}: sums every thread's totals and the shared adders
 * into {@link Totals}, keeps the totals of threads that ended and drops their entries,
 * and, for a pool that counts its own tasks ({@link PoolCounts}), takes its submits and
 * completed tasks from what it reports. Reads run on the sampler, never on a task's path,
 * and hold this object's lock.
 * <p>
 * Reads take every end before any submit: a task's submit is published before its end, so
 * a read that sees an end sees its submit, and no task is ever read as ended without
 * having been submitted.
 * <p>
 * A pool whose tasks all pass a queue it can read and a hook on the thread that starts
 * each, as a {@code ThreadPoolExecutor} does, counts no submit at all
 * ({@link #countArrivalsByOutcome}): a task offered to it is refused, abandoned, still
 * queued, or started, and each of these is counted where it happens anyway (the start on
 * the worker's own totals). Its submits are then the sum of the four, read in the order
 * in which a task moves through them. Such a pool may count its ends too
 * ({@link #countEndsByPool}): a task that ran completed unless it failed or was refused
 * after it started, which are counted on the thread.
 *
 * @author poolpilot authors
 */
final class TotalsReader {

	private final Queue<WorkerTotals> workers;

	private final LongAdder submitted;

	private final LongAdder[] rejected;

	private final LongAdder timedOut;

	private final LongAdder abandoned;

	/**
	 * Totals of worker threads that ended, guarded by this.
	 */
	private final long[] endedWorkers = new long[WorkerTotals.FIELDS];

	private final PoolCounts byPool = new PoolCounts();

	/**
	 * Make a reader of the given totals.
	 * @param workers every thread's totals, and the shared ones
	 * @param submitted the submits of threads without totals of their own
	 * @param rejected the refused tasks, by {@link RejectionReason#ordinal()}
	 * @param timedOut the tasks interrupted for running too long
	 * @param abandoned the queued tasks handed back
	 */
	TotalsReader(Queue<WorkerTotals> workers, LongAdder submitted, LongAdder[] rejected, LongAdder timedOut,
			LongAdder abandoned) {
		this.workers = workers;
		this.submitted = submitted;
		this.rejected = rejected;
		this.timedOut = timedOut;
		this.abandoned = abandoned;
	}

	/**
	 * Take the pool's submits from its tasks' outcomes from now on: those refused,
	 * abandoned, started (counted by {@link TaskTotals#started()}, on the thread that
	 * starts the task) and still queued. A task the pool takes from its queue and has not
	 * yet started is then read as not yet submitted, until it starts: a read's submits
	 * may lag by the tasks moving at that moment, and are exact once the pool is idle.
	 * @param queued the tasks in the pool's queue now
	 */
	void countArrivalsByOutcome(IntSupplier queued) {
		this.byPool.arrivalsByOutcome(queued);
	}

	/**
	 * Take the pool's completed tasks from its own count of the tasks its threads ran,
	 * less those that failed or were refused after they started: a task's end is then
	 * counted only when it fails. Reads take that count before every thread's totals, as
	 * a thread counts a task's failure or refusal before the pool counts it as run, so a
	 * read may miss a task that completed at that moment, never count a failed one as
	 * completed; the most such a read gave is kept.
	 * @param ran the tasks the pool's threads ran, whatever their outcome
	 */
	void countEndsByPool(LongSupplier ran) {
		this.byPool.endsByPool(ran);
	}

	/**
	 * Return the tasks in the pool's queue if its submits are its tasks' outcomes.
	 * @return the queue's length, or {@code null} while submits are counted
	 */
	@Nullable IntSupplier queued() {
		return this.byPool.queued();
	}

	/**
	 * Sum every thread's totals but its submits and starts; those of ended threads are
	 * kept, their submits and starts with them, and their entries dropped, so that
	 * threads coming and going leave nothing behind. The submits and starts of the
	 * threads still running are read after, by {@link #live}. Called holding this
	 * object's lock.
	 */
	private long[] workerSums() {
		long[] sums = this.endedWorkers.clone();
		for (Iterator<WorkerTotals> iterator = this.workers.iterator(); iterator.hasNext();) {
			WorkerTotals totals = iterator.next();
			// Asked before its fields are read: an ended thread's fields are final, its
			// submits included.
			boolean ended = totals.ownerEnded();
			for (int field = 0; field < WorkerTotals.FIELDS; field++) {
				if ((field == WorkerTotals.SUBMITTED || field == WorkerTotals.STARTED) && !ended) {
					continue;
				}
				long value = totals.get(field);
				sums[field] += value;
				if (ended) {
					this.endedWorkers[field] += value;
				}
			}
			if (ended) {
				iterator.remove();
			}
		}
		return sums;
	}

	/**
	 * Return the submits of the threads whose totals {@link #workerSums} kept, and of the
	 * threads without totals of their own: read after every end.
	 */
	private long liveSubmits() {
		return this.submitted.sum() + live(WorkerTotals.SUBMITTED);
	}

	/**
	 * Return a field's sum over the threads whose totals {@link #workerSums} kept.
	 */
	private long live(int field) {
		long sum = 0;
		for (WorkerTotals totals : this.workers) {
			sum += totals.get(field);
		}
		return sum;
	}

	/**
	 * Return the tasks in the pool now, queued or running: submitted, and neither
	 * refused, abandoned nor ended.
	 * @return the tasks in the pool
	 */
	synchronized long inPool() {
		// Ends first, as in read(): a task racing the read is not counted as ended and
		// never submitted. Read every millisecond by the sampler, so only the three
		// fields it needs, and no thread is asked whether it ended: read() keeps the
		// totals of ended threads.
		long ended = this.endedWorkers[WorkerTotals.COMPLETED] + this.endedWorkers[WorkerTotals.FAILED];
		for (WorkerTotals totals : this.workers) {
			ended += totals.get(WorkerTotals.COMPLETED) + totals.get(WorkerTotals.FAILED);
		}
		long rejected = 0;
		for (LongAdder adder : this.rejected) {
			rejected += adder.sum();
		}
		long abandoned = this.abandoned.sum();
		return this.endedWorkers[WorkerTotals.SUBMITTED] + liveSubmits() - rejected - abandoned - ended;
	}

	/**
	 * Read every count and sum.
	 * @return the cumulative totals now
	 */
	synchronized Totals read() {
		// Refusals, abandoned tasks and ends are read before submits and starts, so that
		// a task racing the read is never counted as finished, refused or abandoned
		// without having been submitted; refusals before starts, so that a task refused
		// after it started, which takes its start back first, is never read twice; the
		// tasks a pool ran before the threads' failures (see PoolCounts).
		Rejections rejections = new Rejections(this.rejected[RejectionReason.QUEUE_FULL.ordinal()].sum(),
				this.rejected[RejectionReason.QUEUE_WAIT.ordinal()].sum(),
				this.rejected[RejectionReason.CIRCUIT_OPEN.ordinal()].sum(),
				this.rejected[RejectionReason.SHUTDOWN.ordinal()].sum());
		long rejected = rejections.queueFull() + rejections.queueWait() + rejections.circuitOpen()
				+ rejections.shutdown();
		long abandoned = this.abandoned.sum();
		long timedOut = this.timedOut.sum();
		long ran = this.byPool.ran();
		long[] workers = workerSums();
		if (ran >= 0) {
			workers[WorkerTotals.COMPLETED] = this.byPool.completed(ran, workers[WorkerTotals.FAILED],
					workers[WorkerTotals.NOT_RUN_AFTER_START]);
		}
		IntSupplier queued = this.byPool.queued();
		long submitted;
		if (queued != null) {
			long started = workers[WorkerTotals.STARTED] + live(WorkerTotals.STARTED);
			long outcomes = workers[WorkerTotals.COMPLETED] + workers[WorkerTotals.FAILED] + rejected + abandoned;
			submitted = this.byPool.submitted(queued, started, rejected, abandoned, outcomes);
		}
		else {
			submitted = workers[WorkerTotals.SUBMITTED] + liveSubmits();
		}
		return new Totals(submitted, workers[WorkerTotals.COMPLETED], workers[WorkerTotals.FAILED], rejected, abandoned,
				workers[WorkerTotals.TIMED], workers[WorkerTotals.QUEUE_WAIT_NANOS],
				workers[WorkerTotals.SERVICE_NANOS], workers[WorkerTotals.SAMPLED_SERVICE_NANOS],
				workers[WorkerTotals.SAMPLED_CPU_NANOS], rejections, timedOut);
	}

}
