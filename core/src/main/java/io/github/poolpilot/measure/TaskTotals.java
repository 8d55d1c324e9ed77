package io.github.poolpilot.measure;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;

import org.jspecify.annotations.Nullable;

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
 * counts in the {@code LongAdder} rather than make totals of its own. Reading them, and a
 * pool that counts its own tasks, are {@link TotalsReader}'s.
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

	private final TotalsReader reader = new TotalsReader(this.workers, this.submitted, this.rejected, this.timedOut,
			this.abandoned);

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
		// A pool's own thread, the common case, counts in its own totals without asking
		// whether totals are shared: its totals are read with the shared ones all the
		// same.
		if (!(Thread.currentThread() instanceof WorkerThread worker) || !worker.countedStart(this)) {
			current().add(WorkerTotals.STARTED, 1);
		}
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
		totals.addBeforeTheEnd(WorkerTotals.NOT_RUN_AFTER_START, 1);
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
	 * Return how many threads' totals are kept, ended or not, until a read drops those of
	 * ended threads.
	 * @return the number of totals
	 */
	int threadTotals() {
		return this.workers.size();
	}

	/**
	 * Return the reader of these totals.
	 * @return the reader
	 */
	TotalsReader reader() {
		return this.reader;
	}

}
