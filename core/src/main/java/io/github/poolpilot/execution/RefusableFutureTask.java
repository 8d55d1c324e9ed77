package io.github.poolpilot.execution;

import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;

import io.github.poolpilot.guard.RefusableTask;
import io.github.poolpilot.pool.PoolRejectedException;

/**
 * The future a {@link ManagedExecutor} hands back from {@code submit}: a
 * {@link FutureTask} that the pool can fail with its rejection when it refuses the task
 * after it was queued.
 *
 * @param <V> the result type
 * @author poolpilot authors
 */
final class RefusableFutureTask<V> extends FutureTask<V> implements RefusableTask {

	RefusableFutureTask(Callable<V> callable) {
		super(callable);
	}

	RefusableFutureTask(Runnable runnable, V result) {
		super(runnable, result);
	}

	@Override
	public void refuse(PoolRejectedException rejection) {
		setException(rejection);
	}

}
