package io.github.poolpilot.execution;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.guard.TaskGuard;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRejectedException;

/**
 * An executor behind a managed pool, on platform threads ({@link ManagedExecutor}) or a
 * virtual thread per task ({@link VirtualManagedExecutor}): every task it takes is
 * counted and timed by the pool's recorder, admitted by the pool's guard, and refused
 * with a {@link PoolRejectedException} rather than left to wait without bound.
 *
 * @author poolpilot authors
 */
public interface ManagedExecutorService extends ExecutorService {

	/**
	 * Return the pool this executor runs: its name, bounds, measurements and the door to
	 * resize it.
	 * @return the managed pool
	 */
	ManagedPool getPool();

	/**
	 * Set what the pool checks around each task besides its threads and its queue, such
	 * as its max-queue-wait, its timeout or its circuit breaker. Set it before the pool
	 * takes tasks: a guard sees each task it admitted end.
	 * @param guard the guard, or {@code null} for none
	 */
	void setGuard(@Nullable TaskGuard guard);

	/**
	 * Return what the pool checks around each task besides its threads and its queue.
	 * @return the guard, or {@code null} when it has none
	 */
	@Nullable TaskGuard getGuard();

	/**
	 * Submit a task whose result completes the returned future, as Spring's
	 * {@code @Async} methods returning a {@code CompletableFuture} are. Unlike
	 * {@code CompletableFuture.supplyAsync(task, executor)}, the pool counts a task that
	 * threw as failed and can fail the future with its rejection if it refuses the task
	 * after it was queued. Like it, the future fails with a
	 * {@link java.util.concurrent.CompletionException} whose cause is what the task threw
	 * (or the rejection).
	 * @param <T> the result type
	 * @param task the task
	 * @return the future of its result
	 * @throws PoolRejectedException if the pool refuses the task now
	 */
	default <T> CompletableFuture<T> submitCompletable(Callable<T> task) {
		Objects.requireNonNull(task, "task must not be null");
		CompletableTask<T> completable = new CompletableTask<>(task);
		execute(completable);
		return completable.future();
	}

	/**
	 * Stop the pool at once: interrupt the running tasks and hand back the queued ones as
	 * they were submitted, counted as abandoned.
	 * @return the tasks that never started
	 */
	@Override
	List<Runnable> shutdownNow();

	/**
	 * Return this executor as a {@link ThreadPoolExecutor}, for the APIs that need one
	 * (Spring's {@code ThreadPoolTaskExecutor.getThreadPoolExecutor()}, Micrometer's
	 * executor meters): the executor itself, or a view of it that reads and changes the
	 * same pool.
	 * @return a {@code ThreadPoolExecutor} for this executor
	 */
	ThreadPoolExecutor asThreadPoolExecutor();

}
