package io.github.poolpilot.execution;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadPoolExecutor;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.guard.TaskGuard;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.pool.InvalidPoolSizeException;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.ManagedPool.SizeControl;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolExecutor;

/**
 * An application's own {@link ThreadPoolExecutor} under management from outside: its pool
 * is measured by counting and timing every task handed to it through {@link #execute},
 * its rejection policy is wrapped to count, and it is resized through its
 * {@link ManagedPool} like any managed pool. Its queue must be bounded.
 * <p>
 * The live executor's own {@code setCorePoolSize} and {@code setMaximumPoolSize} cannot
 * be intercepted on that instance, so it must not be handed out: hand out
 * {@link #asThreadPoolExecutor()} instead, a view of it whose setters go through the
 * pool's one checked door and whose tasks are measured.
 *
 * @author poolpilot authors
 */
public final class ExistingExecutor {

	private final ManagedPool pool;

	private final TaskPath path;

	private final ThreadPoolExecutor executor;

	private final ThreadPoolExecutor view;

	/**
	 * Bring a live executor under management, its sizes set on the executor itself.
	 * @param name the pool's name
	 * @param executor the live executor
	 * @param recorder the recorder that measures its tasks
	 * @param bounds the range its sizes must stay in
	 */
	public ExistingExecutor(String name, ThreadPoolExecutor executor, PoolRecorder recorder, PoolBounds bounds) {
		this(name, executor, new SizeControl() {

			@Override
			public void setCorePoolSize(int corePoolSize) {
				executor.setCorePoolSize(corePoolSize);
			}

			@Override
			public void setMaximumPoolSize(int maxPoolSize) {
				executor.setMaximumPoolSize(maxPoolSize);
			}

		}, recorder, bounds);
	}

	/**
	 * Bring a live executor under management, its sizes set through the given control,
	 * such as the setters of the object that made the executor and keeps its own copy of
	 * the sizes (Spring's {@code ThreadPoolTaskExecutor}), so that both stay in step.
	 * Only the pool calls the control, after its checks.
	 * @param name the pool's name
	 * @param executor the live executor
	 * @param sizeControl how its sizes are set, unchecked
	 * @param recorder the recorder that measures its tasks
	 * @param bounds the range its sizes must stay in
	 * @throws InvalidPoolSizeException if the executor's sizes are outside the bounds
	 */
	public ExistingExecutor(String name, ThreadPoolExecutor executor, SizeControl sizeControl, PoolRecorder recorder,
			PoolBounds bounds) {
		ManagedPool.checkSizes(name, executor.getCorePoolSize(), executor.getMaximumPoolSize(), bounds);
		this.path = new TaskPath(recorder, null);
		this.executor = executor;
		this.pool = new ManagedPool(name, new Sizes(executor), sizeControl, recorder, bounds);
		this.view = new ExistingExecutorView(this, executor);
		setRejectionPolicy(executor.getRejectedExecutionHandler());
	}

	/**
	 * Return the pool.
	 * @return the managed pool
	 */
	public ManagedPool getPool() {
		return this.pool;
	}

	/**
	 * Set what the pool checks around each task (its max-queue-wait, timeout, circuit
	 * breaker).
	 * @param guard the guard, or {@code null} for none
	 */
	public void setGuard(@Nullable TaskGuard guard) {
		this.path.setGuard(guard);
	}

	/**
	 * Return what the pool checks around each task.
	 * @return the guard, or {@code null} for none
	 */
	public @Nullable TaskGuard getGuard() {
		return this.path.guard();
	}

	/**
	 * Return the live executor as it may be handed out: a {@code ThreadPoolExecutor} that
	 * reads and acts on the live one, whose size setters go through the pool's checked
	 * door ({@link ManagedPool#resize}, the same checks and errors as a managed
	 * executor's) and whose tasks are measured like those given to {@link #execute}.
	 * @return the checked view of the live executor
	 */
	public ThreadPoolExecutor asThreadPoolExecutor() {
		return this.view;
	}

	/**
	 * Count, time and hand a task to the executor through the given entry (such as the
	 * Spring executor around it, which applies its own task decorator). Every such task
	 * is timed, whatever the sampling setting, since its wrapper is the only place its
	 * end is seen. The pool's guard may refuse it first.
	 * @param entry where the task is handed to the executor
	 * @param task the task as submitted
	 * @throws io.github.poolpilot.pool.PoolRejectedException when the guard refuses it,
	 * counted as rejected
	 */
	public void execute(Executor entry, Runnable task) {
		this.path.acceptTimed(task).submitTo(entry);
	}

	/**
	 * Count, time and hand a task to the live executor, as
	 * {@link #execute(Executor, Runnable)} does.
	 * @param task the task as submitted
	 */
	void execute(Runnable task) {
		execute(this.executor, task);
	}

	/**
	 * Set the executor's rejection policy, applied once a refused task is counted.
	 * @param policy the rejection policy
	 */
	void setRejectionPolicy(RejectedExecutionHandler policy) {
		this.executor.setRejectedExecutionHandler(new CountingRejection(this.pool, this.path, policy, this.view));
	}

	/**
	 * Take a queued task, given as it was submitted, out of the live executor's queue,
	 * counted as abandoned.
	 * @param task the task
	 * @return whether it was queued and is now removed
	 */
	boolean remove(Runnable task) {
		for (Runnable queued : this.executor.getQueue()) {
			if ((queued == task || TimedTask.unwrap(queued) == task) && this.executor.remove(queued)) {
				this.path.abandoned(queued);
				return true;
			}
		}
		return false;
	}

	/**
	 * Take the queued tasks whose futures were cancelled out of the live executor's
	 * queue, counted as abandoned.
	 */
	void purge() {
		for (Runnable queued : this.executor.getQueue()) {
			if (queued instanceof TimedTask timed && TimedTask.unwrap(timed) instanceof Future<?> future
					&& future.isCancelled() && this.executor.remove(queued)) {
				timed.abandon();
			}
		}
		this.executor.purge();
	}

	/**
	 * Stop the live executor at once. The queued tasks this pool timed are counted as
	 * abandoned and handed back as they were submitted.
	 * @return the tasks that never started
	 */
	List<Runnable> shutdownNow() {
		List<Runnable> queued = this.executor.shutdownNow();
		List<Runnable> submitted = new ArrayList<>(queued.size());
		for (Runnable task : queued) {
			if (task instanceof TimedTask timed) {
				timed.abandon();
			}
			submitted.add(TimedTask.unwrap(task));
		}
		return submitted;
	}

	/**
	 * Release what the pool's guard holds (a timeout's watchdog), once the executor has
	 * terminated or will run no more tasks.
	 */
	public void close() {
		this.path.terminated();
	}

	/**
	 * Count, time and hand a task to the executor through the given entry, as
	 * {@link #execute} does, returning its future. When the pool's guard refuses it once
	 * it was queued (it waited longer than the pool's max-queue-wait), the future fails
	 * with the pool's rejection and the task never runs.
	 * @param <T> the result type
	 * @param entry where the task is handed to the executor
	 * @param task the task
	 * @return the future of its result
	 */
	public <T> Future<T> submit(Executor entry, Callable<T> task) {
		RefusableFutureTask<T> future = new RefusableFutureTask<>(task);
		execute(entry, future);
		return future;
	}

	/**
	 * Count, time and hand a task to the executor through the given entry, as
	 * {@link #submit(Executor, Callable)} does.
	 * @param entry where the task is handed to the executor
	 * @param task the task
	 * @return the future, completed with {@code null} once the task ran
	 */
	public Future<?> submit(Executor entry, Runnable task) {
		RefusableFutureTask<Object> future = new RefusableFutureTask<>(task, null);
		execute(entry, future);
		return future;
	}

	/**
	 * Count, time and hand a task whose result completes the returned future to the
	 * executor through the given entry, as {@link #execute} does. A task that threw is
	 * counted as failed, and fails the future as {@code supplyAsync}'s: with a
	 * {@link java.util.concurrent.CompletionException} whose cause is what it threw.
	 * @param <T> the result type
	 * @param entry where the task is handed to the executor
	 * @param task the task
	 * @return the future of its result
	 */
	public <T> CompletableFuture<T> submitCompletable(Executor entry, Callable<T> task) {
		CompletableTask<T> completable = new CompletableTask<>(task);
		execute(entry, completable);
		return completable.future();
	}

	/**
	 * A {@code ThreadPoolExecutor}'s sizes and queue as the pool reads them.
	 */
	private static final class Sizes implements PoolExecutor {

		private final ThreadPoolExecutor executor;

		private final int queueCapacity;

		Sizes(ThreadPoolExecutor executor) {
			this.executor = executor;
			this.queueCapacity = executor.getQueue().size() + executor.getQueue().remainingCapacity();
		}

		@Override
		public int getCorePoolSize() {
			return this.executor.getCorePoolSize();
		}

		@Override
		public int getMaximumPoolSize() {
			return this.executor.getMaximumPoolSize();
		}

		@Override
		public int getPoolSize() {
			return this.executor.getPoolSize();
		}

		@Override
		public int getActiveCount() {
			return this.executor.getActiveCount();
		}

		@Override
		public int getQueueSize() {
			return this.executor.getQueue().size();
		}

		@Override
		public int getQueueCapacity() {
			return this.queueCapacity;
		}

		@Override
		public boolean isShutdown() {
			return this.executor.isShutdown();
		}

	}

}
