package io.github.poolpilot.measure;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Iterator;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.measure.PoolSnapshot.Rejections;
import io.github.poolpilot.measure.PoolSnapshot.TaskCounts;

/**
 * A pool's exact counts and time sums, added to on every submit and every task end
 * without a lock or an allocation: each platform thread's submits, ends and the timed
 * tasks' sums go to its own {@link WorkerTotals} (or, for threads that each run one task,
 * to a few shared ones), found in a field of the thread when the pool made it
 * ({@link WorkerThread}), else in a {@code ThreadLocal}; rejections, timeouts, abandoned
 * tasks and the submits of virtual threads or of a pool whose threads share their totals
 * go to {@link LongAdder}s.
 * <p>
 * A submit is counted in the submitting thread's own totals, with a plain add and a
 * release store, rather than in a {@code LongAdder}, whose increment is a locked
 * compare-and-swap on every submit; a virtual thread, which may live for one request,
 * counts in the {@code LongAdder} rather than make totals of its own. Reads take every
 * end before any submit: a task's submit is published before its end, so a read that sees
 * an end sees its submit, and no task is ever read as ended without having been
 * submitted.
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
final class TaskTotals {

	private static final MethodHandle IS_VIRTUAL = isVirtualHandle();

	/**
	 * Submits of threads that keep no totals of their own for them: virtual threads, and
	 * every thread while totals are shared.
	 */
	private final LongAdder submitted = new LongAdder();

	private final LongAdder[] rejected = { new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder() };

	private final LongAdder timedOut = new LongAdder();

	private final LongAdder abandoned = new LongAdder();

	private final ThreadLocal<WorkerTotals> workerTotals = ThreadLocal.withInitial(this::newWorkerTotals);

	private final Queue<WorkerTotals> workers = new ConcurrentLinkedQueue<>();

	/**
	 * Totals shared by the threads of a pool whose threads each run one task, striped so
	 * that tasks running at once rarely add to the same; {@code null} while each thread
	 * keeps its own.
	 */
	private volatile WorkerTotals @Nullable [] sharedTotals;

	/**
	 * Totals of worker threads that ended, guarded by this.
	 */
	private final long[] endedWorkers = new long[WorkerTotals.FIELDS];

	private final PoolCounts byPool = new PoolCounts();

	/**
	 * Count a submit.
	 * @return the submitting thread's own totals it was counted in, or {@code null} when
	 * it was counted in totals shared with other threads
	 */
	@Nullable WorkerTotals submitted() {
		WorkerTotals own = submitterTotals();
		if (own != null) {
			own.add(WorkerTotals.SUBMITTED, 1);
		}
		else {
			this.submitted.increment();
		}
		return own;
	}

	/**
	 * Return the totals of its own that the current thread counts its submits in, or
	 * {@code null} when it counts them in the shared {@code LongAdder}: a virtual thread,
	 * which may live for a single request, or any thread once totals are shared.
	 */
	private @Nullable WorkerTotals submitterTotals() {
		if (this.sharedTotals != null) {
			return null;
		}
		Thread thread = Thread.currentThread();
		if (thread instanceof WorkerThread worker) {
			WorkerTotals own = worker.totalsFor(this);
			if (own != null) {
				return own;
			}
		}
		if (isVirtual(thread)) {
			return null;
		}
		return this.workerTotals.get();
	}

	private static boolean isVirtual(Thread thread) {
		try {
			return (boolean) IS_VIRTUAL.invokeExact(thread);
		}
		catch (Throwable ex) {
			throw new IllegalStateException("Thread.isVirtual() failed", ex);
		}
	}

	/**
	 * Return {@code Thread.isVirtual()} on Java 21 and later, and a handle that answers
	 * {@code false} before, as the library stays Java 17 bytecode.
	 */
	private static MethodHandle isVirtualHandle() {
		try {
			return MethodHandles.publicLookup()
				.findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
		}
		catch (ReflectiveOperationException ex) {
			return MethodHandles.dropArguments(MethodHandles.constant(boolean.class, false), 0, Thread.class);
		}
	}

	void rejected(RejectionReason reason) {
		this.rejected[reason.ordinal()].increment();
	}

	/**
	 * Count a task that starts on the current thread: a pool whose submits are its tasks'
	 * outcomes counts it as arrived from now on.
	 */
	void started() {
		current().add(WorkerTotals.STARTED, 1);
	}

	/**
	 * Count a task refused on the thread that started it: no longer started, and
	 * rejected. The start is taken back first, and reads take refusals before starts, so
	 * that no read counts the task twice.
	 * @param reason why
	 */
	void refusedAfterStart(RejectionReason reason) {
		notRunAfterStart();
		rejected(reason);
	}

	/**
	 * Count a task the current thread started but will not run, being refused or already
	 * abandoned: no longer started, and not to be read as completed by a pool that counts
	 * its tasks' ends itself.
	 */
	void notRunAfterStart() {
		WorkerTotals totals = current();
		totals.add(WorkerTotals.STARTED, -1);
		totals.add(WorkerTotals.NOT_RUN_AFTER_START, 1);
	}

	/**
	 * Take the pool's submits from its tasks' outcomes from now on: those refused,
	 * abandoned, started (counted by {@link #started()}, on the thread that starts the
	 * task) and still queued. A task the pool takes from its queue and has not yet
	 * started is then read as not yet submitted, until it starts: a read's submits may
	 * lag by the tasks moving at that moment, and are exact once the pool is idle.
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

	void timedOut() {
		this.timedOut.increment();
	}

	void abandoned(int tasks) {
		this.abandoned.add(tasks);
	}

	/**
	 * Share a few striped totals among all threads from now on.
	 * @param processors the processors, which size the stripes
	 */
	void shareAmongShortLivedThreads(int processors) {
		int stripes = Integer.highestOneBit(Math.max(2, processors * 2) * 2 - 1);
		WorkerTotals[] shared = new WorkerTotals[stripes];
		for (int i = 0; i < stripes; i++) {
			shared[i] = WorkerTotals.shared();
			this.workers.add(shared[i]);
		}
		this.sharedTotals = shared;
	}

	/**
	 * Return the totals the current thread adds to.
	 * @return the current thread's totals
	 */
	@SuppressWarnings("deprecation") // Thread.getId(): threadId() is Java 19+
	WorkerTotals current() {
		WorkerTotals[] shared = this.sharedTotals;
		Thread thread = Thread.currentThread();
		if (shared == null) {
			if (thread instanceof WorkerThread worker) {
				WorkerTotals own = worker.totalsFor(this);
				if (own != null) {
					return own;
				}
			}
			return this.workerTotals.get();
		}
		// Thread ids count up, so one task after another takes the next stripe.
		return shared[(int) thread.getId() & (shared.length - 1)];
	}

	/**
	 * Return a new pool thread that adds to its own totals without a {@code ThreadLocal}
	 * lookup.
	 * @param task what the thread runs
	 * @param name its name
	 * @return the new thread, not started
	 */
	Thread newThread(Runnable task, String name) {
		return new WorkerThread(this, task, name);
	}

	/**
	 * Make totals for the current thread and keep them with the other workers'.
	 * @return the new totals
	 */
	WorkerTotals newWorkerTotals() {
		WorkerTotals totals = new WorkerTotals();
		this.workers.add(totals);
		return totals;
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
	 * Return how many threads' totals are kept, ended or not, until a read drops those of
	 * ended threads.
	 * @return the number of totals
	 */
	int threadTotals() {
		return this.workers.size();
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

	/**
	 * The cumulative counts and sums at one moment; a window's are the difference of two,
	 * but for its rejections by reason and its timeouts, which stay cumulative.
	 *
	 * @param submitted tasks offered
	 * @param completed tasks that ended normally
	 * @param failed tasks that failed
	 * @param rejected tasks refused
	 * @param abandoned queued tasks handed back
	 * @param timed tasks timed, of those that ended
	 * @param queueWaitNanos the timed tasks' queue waits
	 * @param serviceNanos the timed tasks' service times
	 * @param sampledServiceNanos the service times of the tasks whose CPU time was read
	 * @param sampledCpuNanos their CPU times
	 * @param rejections the rejected tasks by reason
	 * @param timedOut tasks interrupted for running too long
	 */
	record Totals(long submitted, long completed, long failed, long rejected, long abandoned, long timed,
			long queueWaitNanos, long serviceNanos, long sampledServiceNanos, long sampledCpuNanos,
			Rejections rejections, long timedOut) {

		static final Totals ZERO = new Totals(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, new Rejections(0, 0, 0, 0), 0);

		Totals minus(Totals start) {
			return new Totals(this.submitted - start.submitted, this.completed - start.completed,
					this.failed - start.failed, this.rejected - start.rejected, this.abandoned - start.abandoned,
					this.timed - start.timed, this.queueWaitNanos - start.queueWaitNanos,
					this.serviceNanos - start.serviceNanos, this.sampledServiceNanos - start.sampledServiceNanos,
					this.sampledCpuNanos - start.sampledCpuNanos, this.rejections, this.timedOut);
		}

		long ended() {
			return this.completed + this.failed;
		}

		TaskCounts counts() {
			return new TaskCounts(this.submitted, this.completed, this.failed, this.rejected, this.abandoned,
					this.rejections, this.timedOut);
		}

	}

}
