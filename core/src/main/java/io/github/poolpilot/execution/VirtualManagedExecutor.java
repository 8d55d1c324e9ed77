package io.github.poolpilot.execution;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.execution.ManagedExecutor.Builder;
import io.github.poolpilot.guard.TaskGuard;
import io.github.poolpilot.pool.InvalidPoolSizeException;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.ManagedPool.SizeControl;
import io.github.poolpilot.pool.PoolExecutor;
import io.github.poolpilot.pool.PoolRejectedException;

/**
 * A managed pool whose tasks each run on a virtual thread of their own (Java 21 or
 * later), at most {@link #getMaximumPoolSize() maximum pool size} of them at once: the
 * pool's size is a concurrency limit, a number of permits, with the same bounded
 * {@link ArrayBlockingQueue} in front of it. With virtual threads a thread costs little;
 * what needs managing is how many calls at once a downstream is given.
 * <p>
 * Everything else is any managed executor's: tasks are counted, timed and guarded on the
 * same path, refused with a {@link PoolRejectedException} through the same rejection
 * policy, resized through {@link ManagedPool#resize} within the pool's bounds and budget,
 * and read by the tuner, the budget, the endpoint and the metrics through
 * {@link PoolExecutor}, which answers in permits:
 * <ul>
 * <li>{@code getMaximumPoolSize()}: the limit;</li>
 * <li>{@code getPoolSize()} and {@code getActiveCount()}: the permits in use, that is the
 * tasks started and not yet ended (a virtual pool keeps no idle thread; after a shrink,
 * more may run than the new limit until they end, as threads do);</li>
 * <li>{@code getCorePoolSize()}: kept and checked (core ≤ max) so that resizing reads as
 * for any pool, but without effect: a task waits only when every permit is in use;</li>
 * <li>{@code getKeepAliveTime} and {@code allowsCoreThreadTimeOut()}: kept and checked as
 * a {@code ThreadPoolExecutor}'s (the same refusals, with the same messages), without
 * effect: no thread waits for a task.</li>
 * </ul>
 * It is a plain {@code ExecutorService}; {@link #asThreadPoolExecutor()} adapts it to a
 * {@code ThreadPoolExecutor} for the APIs that demand one.
 * <p>
 * A task that ends releases its permit and starts the next queued task on a new virtual
 * thread, so a queued task never waits for a permit that is free. Admission follows
 * {@code ThreadPoolExecutor}: a task starts at once when nothing is queued and a permit
 * is free, otherwise it is queued; when the queue is full it starts if a permit is free,
 * else it is refused. Shutdown follows it too: after {@code shutdown()} queued tasks
 * still run, {@code shutdownNow()} interrupts the running ones and hands the queued ones
 * back, and the pool terminates once nothing runs and nothing is queued. A task for which
 * no thread can be started (the thread factory returns {@code null} or fails) is never
 * dropped: it waits in the queue, as in {@code ThreadPoolExecutor}, and starts at the
 * next submit, end of a task or growth of the limit that can start a thread, or is handed
 * back by {@code shutdownNow()}.
 * <p>
 * The hooks {@link #beforeExecute} and {@link #afterExecute} receive each task as it was
 * submitted; {@link #getQueue()} holds the pool's wrappers of timed, decorated or guarded
 * tasks ({@link ManagedExecutor#submittedTask} opens one), and {@link #remove} takes a
 * task as submitted.
 *
 * @author poolpilot authors
 */
public class VirtualManagedExecutor extends AbstractExecutorService implements ManagedExecutorService, PoolExecutor {

	private static final Log logger = LogFactory.getLog(VirtualManagedExecutor.class);

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
	 * Nothing runs or ever will.
	 */
	private static final int TERMINATED = 3 << COUNT_BITS;

	private final AtomicInteger ctl = new AtomicInteger(RUNNING);

	private final CountDownLatch termination = new CountDownLatch(1);

	private final BlockingQueue<Runnable> queue;

	private final int queueCapacity;

	private final ThreadFactory threadFactory;

	private final TaskPath path;

	private final ManagedPool pool;

	private volatile CountingRejection rejection;

	/**
	 * The threads running or about to run a task, for {@code shutdownNow()}.
	 */
	private final RunningThreads threads;

	/**
	 * The workers started for a queued task that have not taken one from the queue yet.
	 */
	private final AtomicInteger startingWorkers = new AtomicInteger();

	private final LongAdder completedTasks = new LongAdder();

	private volatile int corePoolSize;

	private volatile int maximumPoolSize;

	private volatile int largestPoolSize;

	/**
	 * The keep-alive and whether core threads time out, kept and checked as
	 * {@code ThreadPoolExecutor}'s, without effect: no thread waits for a task. Guarded
	 * by {@code this}, so that each is checked against the other's current value.
	 */
	private long keepAliveNanos;

	private boolean coreThreadsTimeOut;

	private volatile @Nullable ThreadPoolExecutor view;

	/**
	 * Whether the log was told once that the thread factory returned {@code null}.
	 */
	private volatile boolean toldOfNullThread;

	/**
	 * Create a pool from the builder's settings.
	 * @param builder the settings
	 * @throws UnsupportedOperationException if the JVM is older than Java 21
	 * @throws InvalidPoolSizeException if the initial sizes violate the bounds
	 */
	protected VirtualManagedExecutor(Builder builder) {
		if (!isSupported()) {
			throw new UnsupportedOperationException(
					"Pool '" + builder.name() + "' cannot run on virtual threads: " + unsupportedMessage());
		}
		ManagedPool.checkSizes(builder.name(), builder.corePoolSize(), builder.maxPoolSize(), builder.bounds());
		KeepAlive.check(builder.name(), builder.keepAlive().toNanos(), builder.allowsCoreThreadTimeOut());
		this.keepAliveNanos = builder.keepAlive().toNanos();
		this.coreThreadsTimeOut = builder.allowsCoreThreadTimeOut();
		this.queueCapacity = builder.queueCapacity();
		this.queue = new ArrayBlockingQueue<>(this.queueCapacity);
		this.threadFactory = builder.threadFactory(true);
		this.corePoolSize = builder.corePoolSize();
		this.maximumPoolSize = builder.maxPoolSize();
		this.path = new TaskPath(builder.recorder(), builder.taskDecorator());
		this.threads = new RunningThreads(builder.bounds().maxThreads());
		this.pool = new ManagedPool(builder.name(), this, new SizeControl() {

			@Override
			public void setCorePoolSize(int corePoolSize) {
				VirtualManagedExecutor.this.corePoolSize = corePoolSize;
			}

			@Override
			public void setMaximumPoolSize(int maxPoolSize) {
				setLimit(maxPoolSize);
			}

		}, builder.recorder(), builder.bounds());
		this.rejection = new CountingRejection(this.pool, this.path, builder.rejectionPolicy());
		// A thread per task: per-thread totals would cost an allocation per task.
		builder.recorder().shareTotalsAmongShortLivedThreads();
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
	public ManagedPool getPool() {
		return this.pool;
	}

	@Override
	public void setGuard(@Nullable TaskGuard guard) {
		this.path.setGuard(guard);
	}

	@Override
	public @Nullable TaskGuard getGuard() {
		return this.path.guard();
	}

	@Override
	public void execute(Runnable command) {
		Objects.requireNonNull(command, "command must not be null");
		dispatch(this.path.accept(command));
	}

	@Override
	protected <T> RunnableFuture<T> newTaskFor(Runnable runnable, T value) {
		return new RefusableFutureTask<>(runnable, value);
	}

	@Override
	protected <T> RunnableFuture<T> newTaskFor(Callable<T> callable) {
		return new RefusableFutureTask<>(callable);
	}

	private void dispatch(Runnable task) {
		if (this.queue.isEmpty() && tryAcquire(false)) {
			if (start(task)) {
				return;
			}
			// No thread could be started: queue the task, as ThreadPoolExecutor does. It
			// starts when a thread can be started for it.
		}
		if (!isRunning(this.ctl.get())) {
			reject(task);
			return;
		}
		if (this.queue.offer(task)) {
			// Shut down meanwhile: take the task back, unless a permit was given to it.
			if (!isRunning(this.ctl.get()) && this.queue.remove(task)) {
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

	private void reject(Runnable task) {
		this.rejection.rejectedExecution(task, asThreadPoolExecutor());
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
	 * wait for each other. Each thread takes its task from the queue itself, once it
	 * runs: a task whose thread could not be started (the thread factory returned
	 * {@code null} or failed) stays queued, as in {@code ThreadPoolExecutor}, and starts
	 * at the next of these calls that can start a thread; {@code shutdownNow()} hands it
	 * back.
	 */
	private void startQueued() {
		while (this.queue.size() > this.startingWorkers.get() && tryAcquire(true)) {
			this.startingWorkers.incrementAndGet();
			if (!start(null)) {
				this.startingWorkers.decrementAndGet();
				return;
			}
		}
	}

	/**
	 * Start a thread with the permit taken for it, to run the given task, or the head of
	 * the queue when none is given. On failure the permit is given back.
	 * @return whether a thread was started
	 */
	private boolean start(@Nullable Runnable task) {
		Thread thread = null;
		Worker worker = new Worker(task);
		try {
			thread = this.threadFactory.newThread(worker);
			if (thread != null) {
				worker.slot = this.threads.add(thread);
				thread.start();
				return true;
			}
			if (!this.toldOfNullThread) {
				this.toldOfNullThread = true;
				logger.warn("Pool '" + this.pool.getName()
						+ "' could not start a thread: its thread factory returned null; the task waits in the queue");
			}
		}
		catch (RuntimeException | OutOfMemoryError ex) {
			logger.warn("Pool '" + this.pool.getName() + "' could not start a thread", ex);
		}
		if (thread != null && worker.slot != Worker.NO_SLOT) {
			this.threads.remove(worker.slot, thread);
		}
		release();
		tryTerminate();
		return false;
	}

	/**
	 * Called on a task's thread before it runs, as {@code ThreadPoolExecutor}'s hook.
	 * @param thread the thread
	 * @param task the task as submitted: {@code execute}'s {@code Runnable}, or the
	 * future {@code submit} returned
	 */
	protected void beforeExecute(Thread thread, Runnable task) {
	}

	/**
	 * Called on a task's thread after it ran, as {@code ThreadPoolExecutor}'s hook. The
	 * pool has counted the task already.
	 * @param task the task as submitted: {@code execute}'s {@code Runnable}, or the
	 * future {@code submit} returned
	 * @param thrown what it threw, if anything
	 */
	protected void afterExecute(Runnable task, @Nullable Throwable thrown) {
	}

	/**
	 * Called once the pool terminated, as {@code ThreadPoolExecutor}'s hook; subclasses
	 * must call it.
	 */
	protected void terminated() {
		this.path.terminated();
	}

	/**
	 * Runs one task on its own thread with the hooks around it, then gives its permit to
	 * the next queued task.
	 */
	private final class Worker implements Runnable {

		static final int NO_SLOT = Integer.MIN_VALUE;

		private final @Nullable Runnable task;

		/**
		 * Where {@link #threads} keeps this worker's thread; set before it starts.
		 */
		int slot = NO_SLOT;

		/**
		 * A worker for the given task, or for the head of the queue when none is given.
		 */
		Worker(@Nullable Runnable task) {
			this.task = task;
		}

		@Override
		public void run() {
			Thread thread = Thread.currentThread();
			Runnable task = (this.task != null) ? this.task : takeQueued();
			try {
				if (task != null) {
					runTask(thread, task);
				}
			}
			finally {
				VirtualManagedExecutor.this.threads.remove(this.slot, thread);
				if (task != null) {
					VirtualManagedExecutor.this.completedTasks.increment();
				}
				release();
				startQueued();
				tryTerminate();
			}
		}

		/**
		 * Take the head of the queue for a worker started without a task. It stops
		 * counting as starting before it polls: for a moment a queued task may then look
		 * unclaimed and get a worker that finds nothing (and gives its permit back),
		 * never the other way round, where a queued task and a free permit would wait for
		 * each other.
		 */
		private @Nullable Runnable takeQueued() {
			VirtualManagedExecutor.this.startingWorkers.decrementAndGet();
			return VirtualManagedExecutor.this.queue.poll();
		}

		private void runTask(Thread thread, Runnable task) {
			// A task started as the pool stops runs interrupted, as in
			// ThreadPoolExecutor.
			if (runState(VirtualManagedExecutor.this.ctl.get()) >= STOP && !thread.isInterrupted()) {
				thread.interrupt();
			}
			Runnable submitted = TimedTask.unwrap(task);
			beforeExecute(thread, submitted);
			try {
				task.run();
			}
			catch (RuntimeException | Error ex) {
				VirtualManagedExecutor.this.path.finished(task, ex);
				afterExecute(submitted, ex);
				throw ex;
			}
			VirtualManagedExecutor.this.path.finished(task, null);
			afterExecute(submitted, null);
		}

	}

	/**
	 * Terminate once shut down, nothing runs and nothing is queued: after
	 * {@code shutdown()} the queue empties as its tasks run, after {@code shutdownNow()}
	 * once it was handed back.
	 */
	private void tryTerminate() {
		for (;;) {
			int c = this.ctl.get();
			int state = runState(c);
			if (state == RUNNING || state == TERMINATED || permits(c) > 0 || !this.queue.isEmpty()) {
				return;
			}
			if (this.ctl.compareAndSet(c, TERMINATED)) {
				try {
					terminated();
				}
				finally {
					this.termination.countDown();
				}
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

	/**
	 * Stop the pool at once: interrupt the running tasks and hand back the queued ones,
	 * counted as abandoned, as they were submitted.
	 * @return the tasks that never started
	 */
	@Override
	public List<Runnable> shutdownNow() {
		advanceRunState(STOP);
		this.threads.interruptAll();
		List<Runnable> queued = new ArrayList<>(this.queue.size());
		this.queue.drainTo(queued);
		tryTerminate();
		return this.path.abandonedAll(queued);
	}

	@Override
	public boolean isShutdown() {
		return !isRunning(this.ctl.get());
	}

	@Override
	public boolean isTerminated() {
		return runState(this.ctl.get()) == TERMINATED;
	}

	/**
	 * Return whether the pool is shut down and not yet terminated.
	 * @return whether it is terminating
	 */
	public boolean isTerminating() {
		return isShutdown() && !isTerminated();
	}

	@Override
	public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
		return this.termination.await(timeout, unit);
	}

	/**
	 * Remove a queued task, given as it was submitted, so that it never runs. It is
	 * counted as abandoned, so that the pool's counts still add up; after
	 * {@code shutdown()} the pool terminates once nothing is left.
	 * @param task the task
	 * @return whether it was queued and is now removed
	 */
	public boolean remove(Runnable task) {
		for (Runnable queued : this.queue) {
			if ((queued == task || TimedTask.unwrap(queued) == task) && this.queue.remove(queued)) {
				this.path.abandoned(queued);
				tryTerminate();
				return true;
			}
		}
		return false;
	}

	/**
	 * Remove the queued tasks whose futures were cancelled, counting them as abandoned.
	 */
	public void purge() {
		for (Runnable queued : this.queue) {
			if (TimedTask.unwrap(queued) instanceof Future<?> future && future.isCancelled()
					&& this.queue.remove(queued)) {
				this.path.abandoned(queued);
			}
		}
		tryTerminate();
	}

	@Override
	public int getCorePoolSize() {
		return this.corePoolSize;
	}

	/**
	 * Set the core size through the pool's checked door. It has no effect on how many
	 * tasks run at once; it is checked against the maximum so that a virtual pool resizes
	 * as any pool does.
	 * @param corePoolSize the core size, at most the maximum size
	 */
	public void setCorePoolSize(int corePoolSize) {
		this.pool.resize(corePoolSize, this.maximumPoolSize);
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
	 * Set the limit through the pool's checked door: how many tasks may run at once. When
	 * it grows, queued tasks start at once; when it shrinks, running tasks finish and no
	 * new one starts until fewer than the new limit run.
	 * @param maximumPoolSize the number of permits, at least the core size
	 */
	public void setMaximumPoolSize(int maximumPoolSize) {
		this.pool.resize(this.corePoolSize, maximumPoolSize);
	}

	private void setLimit(int maximumPoolSize) {
		int previous = this.maximumPoolSize;
		this.maximumPoolSize = maximumPoolSize;
		if (maximumPoolSize > previous) {
			startQueued();
		}
	}

	/**
	 * Return the keep-alive, kept as a {@code ThreadPoolExecutor}'s is and without
	 * effect: a task's thread ends with it.
	 * @param unit the unit of the answer
	 * @return the keep-alive
	 */
	public synchronized long getKeepAliveTime(TimeUnit unit) {
		return unit.convert(this.keepAliveNanos, TimeUnit.NANOSECONDS);
	}

	/**
	 * Set the keep-alive, checked as a {@code ThreadPoolExecutor}'s is and without
	 * effect: a task's thread ends with it.
	 * @param time the keep-alive
	 * @param unit its unit
	 * @throws IllegalArgumentException naming the pool if it is negative, or 0 while core
	 * threads time out
	 */
	public synchronized void setKeepAliveTime(long time, TimeUnit unit) {
		long nanos = unit.toNanos(time);
		KeepAlive.check(this.pool.getName(), nanos, this.coreThreadsTimeOut);
		this.keepAliveNanos = nanos;
	}

	/**
	 * Return whether core threads time out, kept as a {@code ThreadPoolExecutor}'s is and
	 * without effect.
	 * @return whether core threads time out
	 */
	public synchronized boolean allowsCoreThreadTimeOut() {
		return this.coreThreadsTimeOut;
	}

	/**
	 * Set whether core threads time out, checked as a {@code ThreadPoolExecutor}'s is and
	 * without effect: no thread waits for a task.
	 * @param value whether core threads time out
	 * @throws IllegalArgumentException naming the pool if they are to time out with a
	 * keep-alive of 0
	 */
	public synchronized void allowCoreThreadTimeOut(boolean value) {
		KeepAlive.checkCoreThreadTimeOut(this.pool.getName(), value, this.keepAliveNanos);
		this.coreThreadsTimeOut = value;
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

	/**
	 * Return the most permits that were ever in use at once.
	 * @return the largest pool size
	 */
	public int getLargestPoolSize() {
		return this.largestPoolSize;
	}

	/**
	 * Return the tasks ever started or queued: completed, running and queued.
	 * @return the task count
	 */
	public long getTaskCount() {
		return this.completedTasks.sum() + getActiveCount() + this.queue.size();
	}

	/**
	 * Return the tasks that ended.
	 * @return the completed task count
	 */
	public long getCompletedTaskCount() {
		return this.completedTasks.sum();
	}

	/**
	 * Return the queue of tasks waiting for a permit, as they were wrapped.
	 * @return the queue
	 */
	public BlockingQueue<Runnable> getQueue() {
		return this.queue;
	}

	@Override
	public int getQueueSize() {
		return this.queue.size();
	}

	@Override
	public int getQueueCapacity() {
		return this.queueCapacity;
	}

	/**
	 * Return the factory that makes a thread for each task.
	 * @return the thread factory
	 */
	public ThreadFactory getThreadFactory() {
		return this.threadFactory;
	}

	/**
	 * Return the policy applied to refused tasks once they are counted.
	 * @return the user's rejection policy, by default one that throws a
	 * {@link PoolRejectedException}
	 */
	public RejectedExecutionHandler getRejectedExecutionHandler() {
		return this.rejection.policy();
	}

	/**
	 * Set the policy applied to refused tasks once they are counted. It is handed
	 * {@link #asThreadPoolExecutor()} as the executor.
	 * @param handler the rejection policy
	 */
	public void setRejectedExecutionHandler(RejectedExecutionHandler handler) {
		Objects.requireNonNull(handler, "handler must not be null");
		this.rejection = new CountingRejection(this.pool, this.path, handler);
	}

	@Override
	public ThreadPoolExecutor asThreadPoolExecutor() {
		ThreadPoolExecutor view = this.view;
		if (view == null) {
			synchronized (this) {
				view = this.view;
				if (view == null) {
					view = new ThreadPoolExecutorView(this);
					this.view = view;
				}
			}
		}
		return view;
	}

	@Override
	public String toString() {
		int c = this.ctl.get();
		String state = (runState(c) == RUNNING) ? "Running" : (isTerminated() ? "Terminated" : "Shutting down");
		return "VirtualManagedExecutor[" + this.pool.getName() + ", " + state + ", limit = " + this.maximumPoolSize
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
		return this.threads.toSet();
	}

}
