package io.github.poolpilot.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A managed pool whose tasks each run on a virtual thread of their own (Java 21 or
 * later), at most {@link #getMaximumPoolSize() maximum pool size} of them at once: the
 * pool's size is a concurrency limit, a number of permits, with the same bounded
 * {@link java.util.concurrent.ArrayBlockingQueue} in front of it. With virtual threads a
 * thread costs little; what needs managing is how many calls at once a downstream is
 * given.
 * <p>
 * Everything else is a {@link ManagedExecutor}'s: tasks are counted, timed and guarded on
 * the same path, refused with a {@link PoolRejectedException} through the same rejection
 * policy, resized through {@link ManagedPool#resize} within the pool's bounds, and read
 * by the tuner, the budget, the endpoint and the metrics through the same
 * {@code ThreadPoolExecutor} getters, which answer in permits:
 * <ul>
 * <li>{@code getMaximumPoolSize()}: the limit;</li>
 * <li>{@code getPoolSize()} and {@code getActiveCount()}: the permits in use, that is the
 * tasks started and not yet ended (a virtual pool keeps no idle thread; after a shrink,
 * more may run than the new limit until they end, as threads do);</li>
 * <li>{@code getCorePoolSize()}: kept and checked (core ≤ max) so that resizing reads as
 * for any pool, but without effect: a task waits only when every permit is in use.</li>
 * </ul>
 * {@code ThreadPoolExecutor}'s own workers are never started. Its state only follows this
 * pool's: once this pool has terminated (no permit in use, and no queued task left after
 * {@code shutdown()}), {@code ThreadPoolExecutor}'s {@code shutdown()} is called, which
 * terminates it at once, runs {@link #terminated()} and releases
 * {@link #awaitTermination}.
 * <p>
 * A task that ends releases its permit and starts the next queued task on a new virtual
 * thread, so a queued task never waits for a permit that is free. Admission follows
 * {@code ThreadPoolExecutor}: a task starts at once when nothing is queued and a permit
 * is free, otherwise it is queued; when the queue is full it starts if a permit is free,
 * else it is refused.
 *
 * @author poolpilot authors
 */
public class VirtualManagedExecutor extends ManagedExecutor {

	private static final Logger logger = Logger.getLogger(VirtualManagedExecutor.class.getName());

	// The run state in the high bits and the permits in use in the low bits of one int,
	// so that taking a permit and leaving the running state are one atomic decision, as
	// in ThreadPoolExecutor's ctl.

	private static final int COUNT_BITS = Integer.SIZE - 3;

	private static final int COUNT_MASK = (1 << COUNT_BITS) - 1;

	private static final int RUNNING = 0;

	/**
	 * No new task; queued tasks still run.
	 */
	private static final int SHUTDOWN = 1 << COUNT_BITS;

	/**
	 * No task starts any more; queued ones were handed back.
	 */
	private static final int STOP = 2 << COUNT_BITS;

	/**
	 * Nothing runs or ever will: {@code ThreadPoolExecutor}'s shutdown was called.
	 */
	private static final int TERMINATED = 3 << COUNT_BITS;

	private final AtomicInteger ctl = new AtomicInteger(RUNNING);

	private final BlockingQueue<Runnable> queue;

	/**
	 * The threads running or about to run a task, for {@code shutdownNow()}.
	 */
	private final Set<Thread> threads = ConcurrentHashMap.newKeySet();

	private final LongAdder completedTasks = new LongAdder();

	private volatile int corePoolSize;

	private volatile int maximumPoolSize;

	private volatile int largestPoolSize;

	/**
	 * Create a pool from the builder's settings.
	 * @param builder the settings
	 * @throws UnsupportedOperationException if the JVM is older than Java 21
	 */
	protected VirtualManagedExecutor(Builder builder) {
		super(supported(builder));
		this.queue = super.getQueue();
		this.corePoolSize = builder.corePoolSize();
		this.maximumPoolSize = builder.maxPoolSize();
		// A thread per task: per-thread totals would cost an allocation per task.
		getPool().getRecorder().shareTotalsAmongShortLivedThreads();
	}

	private static Builder supported(Builder builder) {
		if (!isSupported()) {
			throw new UnsupportedOperationException("Pool '" + builder.name() + "' cannot run on virtual threads: "
					+ VirtualThreads.unsupportedMessage());
		}
		return builder;
	}

	/**
	 * Return whether this JVM can run a virtual pool.
	 * @return whether the running Java is 21 or later
	 */
	public static boolean isSupported() {
		return VirtualThreads.isSupported();
	}

	/**
	 * Return why this JVM cannot run a virtual pool, naming the running Java version.
	 * @return the message
	 */
	public static String unsupportedMessage() {
		return VirtualThreads.unsupportedMessage();
	}

	@Override
	void dispatch(Runnable task) {
		if (this.queue.isEmpty() && tryAcquire(false)) {
			if (start(task)) {
				return;
			}
			// No thread could be started: queue the task, as ThreadPoolExecutor does.
		}
		if (!isRunning(this.ctl.get())) {
			reject(task);
			return;
		}
		if (this.queue.offer(task)) {
			// Shut down meanwhile: take the task back, unless a permit was given to it.
			// ThreadPoolExecutor's remove() also lets it terminate once the queue
			// empties.
			if (!isRunning(this.ctl.get()) && takeBack(task)) {
				tryTerminate();
				reject(task);
				return;
			}
			startQueued();
			return;
		}
		if (tryAcquire(false) && start(task)) {
			return;
		}
		reject(task);
	}

	/**
	 * Take a permit: for a new task only while running, for a queued one also while
	 * shutting down.
	 */
	private boolean tryAcquire(boolean queued) {
		for (;;) {
			int c = this.ctl.get();
			int state = runState(c);
			if (state > SHUTDOWN || (state == SHUTDOWN && !queued) || permits(c) >= this.maximumPoolSize) {
				return false;
			}
			if (this.ctl.compareAndSet(c, c + 1)) {
				int inUse = permits(c) + 1;
				if (inUse > this.largestPoolSize) {
					// A racy maximum is good enough for a statistic.
					this.largestPoolSize = inUse;
				}
				return true;
			}
		}
	}

	private void release() {
		this.ctl.decrementAndGet();
	}

	/**
	 * Start queued tasks while permits are free. Called after a task was queued, after
	 * one ended and after the limit grew, so that a queued task and a free permit never
	 * wait for each other.
	 */
	private void startQueued() {
		while (!this.queue.isEmpty() && tryAcquire(true)) {
			Runnable task = this.queue.poll();
			if (task == null) {
				// Another thread took it: give the permit back and look again.
				release();
				continue;
			}
			if (!start(task)) {
				abandonUnstartable(task);
				return;
			}
		}
	}

	/**
	 * Start a task on a new thread, with the permit taken for it. On failure the permit
	 * is given back.
	 * @return whether a thread was started
	 */
	private boolean start(Runnable task) {
		Thread thread = null;
		try {
			thread = getThreadFactory().newThread(new Worker(task));
			if (thread != null) {
				this.threads.add(thread);
				thread.start();
				return true;
			}
		}
		catch (RuntimeException | OutOfMemoryError ex) {
			logger.log(Level.WARNING, "Pool '" + getPool().getName() + "' could not start a thread", ex);
		}
		if (thread != null) {
			this.threads.remove(thread);
		}
		release();
		tryTerminate();
		return false;
	}

	/**
	 * A queued task whose thread could not be started (the JVM is out of memory): it is
	 * cancelled and counted as abandoned, as at {@code shutdownNow()}, and logged, never
	 * dropped silently.
	 */
	private void abandonUnstartable(Runnable task) {
		logger.severe("Pool '" + getPool().getName() + "' abandoned a queued task: no thread could be started for it");
		if (task instanceof TimedTask timed) {
			timed.cancel(false);
		}
		else {
			getPool().getRecorder().tasksAbandoned(1);
			TaskGuard guard = getPool().getGuard();
			if (guard != null) {
				guard.notRun();
			}
			if (task instanceof Future<?> future) {
				future.cancel(false);
			}
		}
	}

	/**
	 * Runs one task on its own thread with {@code ThreadPoolExecutor}'s hooks around it,
	 * then gives its permit to the next queued task.
	 */
	private final class Worker implements Runnable {

		private final Runnable task;

		Worker(Runnable task) {
			this.task = task;
		}

		@Override
		public void run() {
			Thread thread = Thread.currentThread();
			try {
				// A task started as the pool stops runs interrupted, as in
				// ThreadPoolExecutor.
				if (runState(VirtualManagedExecutor.this.ctl.get()) >= STOP && !thread.isInterrupted()) {
					thread.interrupt();
				}
				beforeExecute(thread, this.task);
				try {
					this.task.run();
					afterExecute(this.task, null);
				}
				catch (RuntimeException | Error ex) {
					afterExecute(this.task, ex);
					throw ex;
				}
			}
			finally {
				VirtualManagedExecutor.this.threads.remove(thread);
				VirtualManagedExecutor.this.completedTasks.increment();
				release();
				startQueued();
				tryTerminate();
			}
		}

	}

	/**
	 * Terminate once shut down, nothing runs and nothing is queued: after
	 * {@code shutdown()} the queue empties as its tasks run, after {@code shutdownNow()}
	 * once it was handed back, and a task queued by a late submitter is taken back by
	 * that submitter. {@code ThreadPoolExecutor} only terminates with an empty queue too.
	 */
	private void tryTerminate() {
		for (;;) {
			int c = this.ctl.get();
			int state = runState(c);
			if (state == RUNNING || state == TERMINATED || permits(c) > 0 || !this.queue.isEmpty()) {
				return;
			}
			if (this.ctl.compareAndSet(c, TERMINATED)) {
				// ThreadPoolExecutor has no worker: it terminates now, or once a task
				// queued by a late submitter is taken back.
				super.shutdown();
				return;
			}
		}
	}

	private void advanceRunState(int target) {
		for (;;) {
			int c = this.ctl.get();
			if (runState(c) >= target || this.ctl.compareAndSet(c, target | permits(c))) {
				return;
			}
		}
	}

	/**
	 * Stop taking tasks; the queued and running ones still run.
	 */
	@Override
	public void shutdown() {
		advanceRunState(SHUTDOWN);
		tryTerminate();
	}

	@Override
	List<Runnable> stopNow() {
		advanceRunState(STOP);
		this.threads.forEach(Thread::interrupt);
		List<Runnable> queued = new ArrayList<>(this.queue.size());
		this.queue.drainTo(queued);
		tryTerminate();
		return queued;
	}

	@Override
	public boolean isShutdown() {
		return !isRunning(this.ctl.get());
	}

	@Override
	public boolean isTerminating() {
		return isShutdown() && !isTerminated();
	}

	@Override
	public int getCorePoolSize() {
		return this.corePoolSize;
	}

	/**
	 * Set the core size. It has no effect on how many tasks run at once; it is checked
	 * against the maximum so that a virtual pool resizes as any pool does.
	 * @param corePoolSize the core size, at most the maximum size
	 */
	@Override
	public void setCorePoolSize(int corePoolSize) {
		if (corePoolSize < 0 || corePoolSize > this.maximumPoolSize) {
			throw new IllegalArgumentException("corePoolSize must be between 0 and maximumPoolSize ("
					+ this.maximumPoolSize + ") but was " + corePoolSize);
		}
		this.corePoolSize = corePoolSize;
	}

	/**
	 * Return the limit: how many tasks may run at once.
	 * @return the number of permits
	 */
	@Override
	public int getMaximumPoolSize() {
		return this.maximumPoolSize;
	}

	/**
	 * Set the limit: how many tasks may run at once. When it grows, queued tasks start at
	 * once; when it shrinks, running tasks finish and no new one starts until fewer than
	 * the new limit run.
	 * @param maximumPoolSize the number of permits, at least 1 and at least the core size
	 */
	@Override
	public void setMaximumPoolSize(int maximumPoolSize) {
		if (maximumPoolSize < 1 || maximumPoolSize < this.corePoolSize) {
			throw new IllegalArgumentException("maximumPoolSize must be at least 1 and at least corePoolSize ("
					+ this.corePoolSize + ") but was " + maximumPoolSize);
		}
		int previous = this.maximumPoolSize;
		this.maximumPoolSize = maximumPoolSize;
		if (maximumPoolSize > previous) {
			startQueued();
		}
	}

	/**
	 * Return the permits in use: tasks started and not yet ended.
	 * @return the permits in use
	 */
	@Override
	public int getPoolSize() {
		return permits(this.ctl.get());
	}

	/**
	 * Return the permits in use: tasks started and not yet ended.
	 * @return the permits in use
	 */
	@Override
	public int getActiveCount() {
		return permits(this.ctl.get());
	}

	@Override
	public int getLargestPoolSize() {
		return this.largestPoolSize;
	}

	@Override
	public long getTaskCount() {
		return this.completedTasks.sum() + getActiveCount() + this.queue.size();
	}

	@Override
	public long getCompletedTaskCount() {
		return this.completedTasks.sum();
	}

	/**
	 * Start nothing: a virtual pool keeps no idle thread.
	 * @return {@code false}
	 */
	@Override
	public boolean prestartCoreThread() {
		return false;
	}

	/**
	 * Start nothing: a virtual pool keeps no idle thread.
	 * @return 0
	 */
	@Override
	public int prestartAllCoreThreads() {
		return 0;
	}

	@Override
	public String toString() {
		int c = this.ctl.get();
		String state = (runState(c) == RUNNING) ? "Running" : (isTerminated() ? "Terminated" : "Shutting down");
		return "VirtualManagedExecutor[" + getPool().getName() + ", " + state + ", limit = " + this.maximumPoolSize
				+ ", permits in use = " + permits(c) + ", queued tasks = " + this.queue.size() + ", completed tasks = "
				+ this.completedTasks.sum() + "]";
	}

	private static int runState(int c) {
		return c & ~COUNT_MASK;
	}

	private static int permits(int c) {
		return c & COUNT_MASK;
	}

	private static boolean isRunning(int c) {
		return c < SHUTDOWN;
	}

	/**
	 * Return the threads running or about to run a task, for tests.
	 */
	Set<Thread> threads() {
		return this.threads;
	}

}
