package io.github.poolpilot.execution;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.github.poolpilot.pool.InvalidPoolSizeException;
import io.github.poolpilot.pool.ManagedPool;

/**
 * An application's own live {@link ThreadPoolExecutor}, under management from outside, as
 * it may be handed out (Spring's {@code ThreadPoolTaskExecutor.getThreadPoolExecutor()}):
 * every method reads or acts on the live executor, except that its size setters go
 * through the pool's one checked door and that its tasks take the measured path of
 * {@link ExistingExecutor}. The {@code ThreadPoolExecutor} it extends holds no state of
 * its own and never starts a thread; {@code submit}, {@code invokeAll} and
 * {@code invokeAny} reach the live executor through {@link #execute}. Its {@code remove},
 * {@code purge} and {@code shutdownNow} take and hand back tasks as submitted, counted as
 * abandoned, and a rejection policy is handed this view. The live queue, and the live
 * executor's {@code beforeExecute}/{@code afterExecute}, hold each task in the pool's
 * wrapper ({@link ManagedExecutor#submittedTask} opens it).
 *
 * @author poolpilot authors
 */
final class ExistingExecutorView extends ThreadPoolExecutor {

	private final ExistingExecutor existing;

	private final ThreadPoolExecutor live;

	ExistingExecutorView(ExistingExecutor existing, ThreadPoolExecutor live) {
		super(0, 1, 0, TimeUnit.NANOSECONDS, new SynchronousQueue<>(), live.getThreadFactory());
		this.existing = existing;
		this.live = live;
	}

	@Override
	public void execute(Runnable command) {
		Objects.requireNonNull(command, "command must not be null");
		this.existing.execute(command);
	}

	/**
	 * Return a future the pool can fail with its rejection if it refuses the task after
	 * it was queued, as a managed executor's.
	 */
	@Override
	protected <T> RunnableFuture<T> newTaskFor(Runnable runnable, T value) {
		return new RefusableFutureTask<>(runnable, value);
	}

	/**
	 * Return a future the pool can fail with its rejection if it refuses the task after
	 * it was queued, as a managed executor's.
	 */
	@Override
	protected <T> RunnableFuture<T> newTaskFor(Callable<T> callable) {
		return new RefusableFutureTask<>(callable);
	}

	/**
	 * Set the core size through the pool's checked door, keeping the maximum size.
	 * @param corePoolSize the new core size
	 * @throws InvalidPoolSizeException if it is outside the pool's bounds or above the
	 * maximum size
	 */
	@Override
	public void setCorePoolSize(int corePoolSize) {
		ManagedPool pool = this.existing.getPool();
		// The maximum size read under the lock the tuner resizes under.
		pool.change(() -> pool.resize(corePoolSize, pool.maxPoolSize()));
	}

	/**
	 * Set the maximum size through the pool's checked door, keeping the core size.
	 * @param maximumPoolSize the new maximum size
	 * @throws InvalidPoolSizeException if it is outside the pool's bounds, below the core
	 * size or over the budget
	 */
	@Override
	public void setMaximumPoolSize(int maximumPoolSize) {
		ManagedPool pool = this.existing.getPool();
		// The core size read under the lock the tuner resizes under.
		pool.change(() -> pool.resize(pool.corePoolSize(), maximumPoolSize));
	}

	@Override
	public int getCorePoolSize() {
		return this.live.getCorePoolSize();
	}

	@Override
	public int getMaximumPoolSize() {
		return this.live.getMaximumPoolSize();
	}

	/**
	 * Return the policy applied to refused tasks once they are counted.
	 * @return the executor's own rejection policy
	 */
	@Override
	public RejectedExecutionHandler getRejectedExecutionHandler() {
		RejectedExecutionHandler handler = this.live.getRejectedExecutionHandler();
		return (handler instanceof CountingRejection counting) ? counting.policy() : handler;
	}

	/**
	 * Set the policy applied to refused tasks once they are counted.
	 * @param handler the rejection policy
	 */
	@Override
	public void setRejectedExecutionHandler(RejectedExecutionHandler handler) {
		Objects.requireNonNull(handler, "handler must not be null");
		this.existing.setRejectionPolicy(handler);
	}

	@Override
	public void shutdown() {
		this.live.shutdown();
	}

	/**
	 * Stop the live executor at once; the queued tasks are counted as abandoned and
	 * handed back as they were submitted.
	 * @return the tasks that never started
	 */
	@Override
	public List<Runnable> shutdownNow() {
		return this.existing.shutdownNow();
	}

	@Override
	public boolean isShutdown() {
		return this.live.isShutdown();
	}

	@Override
	public boolean isTerminating() {
		return this.live.isTerminating();
	}

	@Override
	public boolean isTerminated() {
		return this.live.isTerminated();
	}

	@Override
	public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
		return this.live.awaitTermination(timeout, unit);
	}

	@Override
	public void setThreadFactory(ThreadFactory threadFactory) {
		this.live.setThreadFactory(threadFactory);
	}

	@Override
	public ThreadFactory getThreadFactory() {
		return this.live.getThreadFactory();
	}

	@Override
	public boolean prestartCoreThread() {
		return this.live.prestartCoreThread();
	}

	@Override
	public int prestartAllCoreThreads() {
		return this.live.prestartAllCoreThreads();
	}

	@Override
	public boolean allowsCoreThreadTimeOut() {
		return this.live.allowsCoreThreadTimeOut();
	}

	/**
	 * Set whether the live executor's core threads time out.
	 * @param value whether core threads time out
	 * @throws IllegalArgumentException naming the pool if they are to time out with a
	 * keep-alive of 0
	 */
	@Override
	public void allowCoreThreadTimeOut(boolean value) {
		KeepAlive.checkCoreThreadTimeOut(this.existing.getPool().getName(), value,
				this.live.getKeepAliveTime(TimeUnit.NANOSECONDS));
		this.live.allowCoreThreadTimeOut(value);
	}

	/**
	 * Set the live executor's keep-alive.
	 * @param time the keep-alive
	 * @param unit its unit
	 * @throws IllegalArgumentException naming the pool if it is negative, or 0 while core
	 * threads time out
	 */
	@Override
	public void setKeepAliveTime(long time, TimeUnit unit) {
		KeepAlive.check(this.existing.getPool().getName(), unit.toNanos(time), this.live.allowsCoreThreadTimeOut());
		this.live.setKeepAliveTime(time, unit);
	}

	@Override
	public long getKeepAliveTime(TimeUnit unit) {
		return this.live.getKeepAliveTime(unit);
	}

	@Override
	public BlockingQueue<Runnable> getQueue() {
		return this.live.getQueue();
	}

	/**
	 * Remove a queued task, given as it was submitted, counted as abandoned.
	 * @param task the task
	 * @return whether it was queued and is now removed
	 */
	@Override
	public boolean remove(Runnable task) {
		return this.existing.remove(task);
	}

	/**
	 * Remove the queued tasks whose futures were cancelled, counted as abandoned.
	 */
	@Override
	public void purge() {
		this.existing.purge();
	}

	@Override
	public int getPoolSize() {
		return this.live.getPoolSize();
	}

	@Override
	public int getActiveCount() {
		return this.live.getActiveCount();
	}

	@Override
	public int getLargestPoolSize() {
		return this.live.getLargestPoolSize();
	}

	@Override
	public long getTaskCount() {
		return this.live.getTaskCount();
	}

	@Override
	public long getCompletedTaskCount() {
		return this.live.getCompletedTaskCount();
	}

	@Override
	public String toString() {
		return this.live.toString();
	}

}
