package io.github.poolpilot.execution;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.github.poolpilot.guard.RefusableTask;
import io.github.poolpilot.pool.PoolRejectedException;

/**
 * A task whose result completes a {@link CompletableFuture}, as
 * {@link ManagedExecutor#submitCompletable} hands back. Unlike the task
 * {@code CompletableFuture.supplyAsync} makes, it is a {@link Future}, so the pool counts
 * a task whose future failed as failed, and the pool can fail it with its rejection when
 * it refuses the task after it was queued.
 * <p>
 * Its future fails as {@code supplyAsync}'s does, which Spring's executors use and code
 * written for them expects: with a {@link CompletionException} whose cause is what the
 * task threw (or the pool's rejection), so that the stages ({@code handle},
 * {@code exceptionally}, {@code whenComplete}) see that, {@code join()} throws it, and
 * {@code get()} throws an {@code ExecutionException} with the cause.
 *
 * @param <T> the result type
 * @author poolpilot authors
 */
final class CompletableTask<T> implements RefusableTask, Future<T> {

	private final Callable<T> callable;

	private final CompletableFuture<T> future = new CompletableFuture<>();

	CompletableTask(Callable<T> callable) {
		this.callable = callable;
	}

	CompletableFuture<T> future() {
		return this.future;
	}

	@Override
	public void run() {
		if (this.future.isDone()) {
			return;
		}
		try {
			this.future.complete(this.callable.call());
		}
		catch (Throwable ex) {
			this.future.completeExceptionally(wrapped(ex));
		}
	}

	@Override
	public void refuse(PoolRejectedException rejection) {
		this.future.completeExceptionally(wrapped(rejection));
	}

	private static Throwable wrapped(Throwable ex) {
		return (ex instanceof CompletionException) ? ex : new CompletionException(ex);
	}

	@Override
	public boolean cancel(boolean mayInterruptIfRunning) {
		return this.future.cancel(mayInterruptIfRunning);
	}

	@Override
	public boolean isCancelled() {
		return this.future.isCancelled();
	}

	@Override
	public boolean isDone() {
		return this.future.isDone();
	}

	@Override
	public T get() throws InterruptedException, ExecutionException {
		return this.future.get();
	}

	@Override
	public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
		return this.future.get(timeout, unit);
	}

	@Override
	public String toString() {
		return this.callable.toString();
	}

}
