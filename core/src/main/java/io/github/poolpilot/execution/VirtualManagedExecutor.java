package io.github.poolpilot.execution;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

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

	private final Permits permits;

	private final BlockingQueue<Runnable> queue;

	private final int queueCapacity;

	private final ThreadFactory threadFactory;

	private final TaskPath path;

	private final ManagedPool pool;

	private volatile CountingRejection rejection;

	private final VirtualWorkers workers;

	private volatile int corePoolSize;

	/**
	 * The keep-alive and whether core threads time out, kept and checked as
	 * {@code ThreadPoolExecutor}'s, without effect: no thread waits for a task. Guarded
	 * by {@code this}, so that each is checked against the other's current value.
	 */
	private long keepAliveNanos;

	private boolean coreThreadsTimeOut;

	private volatile @Nullable ThreadPoolExecutor view;

	/**
	 * Create a pool from the builder's settings.
	 * @param builder the settings
	 * @throws UnsupportedOperationException if the JVM is older than Java 21
	 * @throws InvalidPoolSizeException if the initial sizes violate the bounds
	 */
	protected VirtualManagedExecutor(ManagedExecutorBuilder builder) {
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
		this.permits = new Permits(builder.maxPoolSize());
		this.path = new TaskPath(builder.recorder(), builder.taskDecorator());
		this.workers = new VirtualWorkers(this, builder.name(), this.threadFactory, this.queue, this.permits, this.path,
				builder.bounds().maxThreads());
		this.pool = new ManagedPool(builder.name(), this, new SizeControl() {

			@Override
			public void setCorePoolSize(int corePoolSize) {
				VirtualManagedExecutor.this.corePoolSize = corePoolSize;
			}

			@Override
			public void setMaximumPoolSize(int maxPoolSize) {
				if (VirtualManagedExecutor.this.permits.setLimit(maxPoolSize)) {
					VirtualManagedExecutor.this.workers.startQueued();
				}
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
		Runnable task = this.path.accept(command);
		if (!this.workers.admit(task)) {
			reject(task);
		}
	}

	@Override
	protected <T> RunnableFuture<T> newTaskFor(Runnable runnable, T value) {
		return new RefusableFutureTask<>(runnable, value);
	}

	@Override
	protected <T> RunnableFuture<T> newTaskFor(Callable<T> callable) {
		return new RefusableFutureTask<>(callable);
	}

	private void reject(Runnable task) {
		this.rejection.rejectedExecution(task, asThreadPoolExecutor());
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
	 * Terminate once shut down, nothing runs and nothing is queued: after
	 * {@code shutdown()} the queue empties as its tasks run, after {@code shutdownNow()}
	 * once it was handed back.
	 */
	void tryTerminate() {
		if (this.permits.terminate(this.queue)) {
			try {
				terminated();
			}
			finally {
				this.permits.terminated();
			}
		}
	}

	/**
	 * Stop taking tasks; the queued and running ones still run.
	 */
	@Override
	public void shutdown() {
		this.permits.shutdown();
		tryTerminate();
	}

	/**
	 * Stop the pool at once: interrupt the running tasks and hand back the queued ones,
	 * counted as abandoned, as they were submitted.
	 * @return the tasks that never started
	 */
	@Override
	public List<Runnable> shutdownNow() {
		this.permits.stop();
		this.workers.interruptAll();
		List<Runnable> queued = new ArrayList<>(this.queue.size());
		this.queue.drainTo(queued);
		tryTerminate();
		return this.path.abandonedAll(queued);
	}

	@Override
	public boolean isShutdown() {
		return !this.permits.isRunning();
	}

	@Override
	public boolean isTerminated() {
		return this.permits.isTerminated();
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
		return this.permits.awaitTermination(timeout, unit);
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
		// The limit read under the lock the tuner resizes under.
		this.pool.change(() -> this.pool.resize(corePoolSize, this.permits.limit()));
	}

	/**
	 * Return the limit: how many tasks may run at once.
	 * @return the number of permits
	 */
	@Override
	public int getMaximumPoolSize() {
		return this.permits.limit();
	}

	/**
	 * Set the limit through the pool's checked door: how many tasks may run at once. When
	 * it grows, queued tasks start at once; when it shrinks, running tasks finish and no
	 * new one starts until fewer than the new limit run.
	 * @param maximumPoolSize the number of permits, at least the core size
	 */
	public void setMaximumPoolSize(int maximumPoolSize) {
		// The core size read under the lock the tuner resizes under.
		this.pool.change(() -> this.pool.resize(this.corePoolSize, maximumPoolSize));
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
		return this.permits.inUse();
	}

	/**
	 * Return the permits in use: tasks started and not yet ended.
	 * @return the permits in use
	 */
	@Override
	public int getActiveCount() {
		return this.permits.inUse();
	}

	/**
	 * Return the most permits that were ever in use at once.
	 * @return the largest pool size
	 */
	public int getLargestPoolSize() {
		return this.permits.largest();
	}

	/**
	 * Return the tasks ever started or queued: completed, running and queued.
	 * @return the task count
	 */
	public long getTaskCount() {
		return this.workers.completed() + getActiveCount() + this.queue.size();
	}

	/**
	 * Return the tasks that ended.
	 * @return the completed task count
	 */
	public long getCompletedTaskCount() {
		return this.workers.completed();
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
		return "VirtualManagedExecutor[" + this.pool.getName() + ", " + this.permits + ", queued tasks = "
				+ this.queue.size() + ", completed tasks = " + this.workers.completed() + "]";
	}

	/**
	 * Return the threads running or about to run a task, for tests.
	 */
	Set<Thread> threads() {
		return this.workers.threads();
	}

}
