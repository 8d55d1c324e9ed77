package io.github.poolpilot.execution;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@link VirtualManagedExecutor} seen as a {@link ThreadPoolExecutor}, for the APIs
 * that take nothing else: Spring's
 * {@code ThreadPoolTaskExecutor.getThreadPoolExecutor()}, Micrometer's executor meters, a
 * rejection policy's executor argument. Every method reads or acts on the virtual pool;
 * the {@code ThreadPoolExecutor} it extends holds no state of its own and never starts a
 * thread. Keep-alive and core thread time-out mean nothing to a pool that keeps no idle
 * thread: they are checked and kept as a {@code ThreadPoolExecutor}'s are, and have no
 * effect.
 *
 * @author poolpilot authors
 */
final class ThreadPoolExecutorView extends ThreadPoolExecutor {

	private final VirtualManagedExecutor pool;

	ThreadPoolExecutorView(VirtualManagedExecutor pool) {
		super(0, 1, 0, TimeUnit.NANOSECONDS, new SynchronousQueue<>(), pool.getThreadFactory());
		this.pool = pool;
	}

	@Override
	public void execute(Runnable command) {
		this.pool.execute(command);
	}

	@Override
	public Future<?> submit(Runnable task) {
		return this.pool.submit(task);
	}

	@Override
	public <T> Future<T> submit(Runnable task, T result) {
		return this.pool.submit(task, result);
	}

	@Override
	public <T> Future<T> submit(Callable<T> task) {
		return this.pool.submit(task);
	}

	@Override
	public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks) throws InterruptedException {
		return this.pool.invokeAll(tasks);
	}

	@Override
	public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
			throws InterruptedException {
		return this.pool.invokeAll(tasks, timeout, unit);
	}

	@Override
	public <T> T invokeAny(Collection<? extends Callable<T>> tasks) throws InterruptedException, ExecutionException {
		return this.pool.invokeAny(tasks);
	}

	@Override
	public <T> T invokeAny(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
			throws InterruptedException, ExecutionException, TimeoutException {
		return this.pool.invokeAny(tasks, timeout, unit);
	}

	@Override
	public void shutdown() {
		this.pool.shutdown();
	}

	@Override
	public List<Runnable> shutdownNow() {
		return this.pool.shutdownNow();
	}

	@Override
	public boolean isShutdown() {
		return this.pool.isShutdown();
	}

	@Override
	public boolean isTerminating() {
		return this.pool.isTerminating();
	}

	@Override
	public boolean isTerminated() {
		return this.pool.isTerminated();
	}

	@Override
	public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
		return this.pool.awaitTermination(timeout, unit);
	}

	@Override
	public void setThreadFactory(ThreadFactory threadFactory) {
		throw new UnsupportedOperationException("The thread factory of a virtual pool is set when it is built");
	}

	@Override
	public ThreadFactory getThreadFactory() {
		return this.pool.getThreadFactory();
	}

	@Override
	public void setRejectedExecutionHandler(RejectedExecutionHandler handler) {
		this.pool.setRejectedExecutionHandler(handler);
	}

	@Override
	public RejectedExecutionHandler getRejectedExecutionHandler() {
		return this.pool.getRejectedExecutionHandler();
	}

	@Override
	public void setCorePoolSize(int corePoolSize) {
		this.pool.setCorePoolSize(corePoolSize);
	}

	@Override
	public int getCorePoolSize() {
		return this.pool.getCorePoolSize();
	}

	@Override
	public boolean prestartCoreThread() {
		return false;
	}

	@Override
	public int prestartAllCoreThreads() {
		return 0;
	}

	@Override
	public boolean allowsCoreThreadTimeOut() {
		return this.pool.allowsCoreThreadTimeOut();
	}

	@Override
	public void allowCoreThreadTimeOut(boolean value) {
		this.pool.allowCoreThreadTimeOut(value);
	}

	@Override
	public void setMaximumPoolSize(int maximumPoolSize) {
		this.pool.setMaximumPoolSize(maximumPoolSize);
	}

	@Override
	public int getMaximumPoolSize() {
		return this.pool.getMaximumPoolSize();
	}

	@Override
	public void setKeepAliveTime(long time, TimeUnit unit) {
		this.pool.setKeepAliveTime(time, unit);
	}

	@Override
	public long getKeepAliveTime(TimeUnit unit) {
		return this.pool.getKeepAliveTime(unit);
	}

	@Override
	public BlockingQueue<Runnable> getQueue() {
		return this.pool.getQueue();
	}

	@Override
	public boolean remove(Runnable task) {
		return this.pool.remove(task);
	}

	@Override
	public void purge() {
		this.pool.purge();
	}

	@Override
	public int getPoolSize() {
		return this.pool.getPoolSize();
	}

	@Override
	public int getActiveCount() {
		return this.pool.getActiveCount();
	}

	@Override
	public int getLargestPoolSize() {
		return this.pool.getLargestPoolSize();
	}

	@Override
	public long getTaskCount() {
		return this.pool.getTaskCount();
	}

	@Override
	public long getCompletedTaskCount() {
		return this.pool.getCompletedTaskCount();
	}

	@Override
	public String toString() {
		return this.pool.toString();
	}

}
