package io.github.poolpilot.execution;

import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadPoolExecutor;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.guard.TaskGuard;
import io.github.poolpilot.pool.ManagedPool;

/**
 * Counts every task a pool refuses, tells its guard the task will not run, then applies
 * the pool's rejection policy to the task as it was submitted, decorated by the pool's
 * task decorator if it has one. Java's default {@link ThreadPoolExecutor.AbortPolicy}
 * becomes one that throws the pool's
 * {@link io.github.poolpilot.pool.PoolRejectedException}, still a
 * {@code RejectedExecutionException}.
 *
 * @author poolpilot authors
 */
final class CountingRejection implements RejectedExecutionHandler {

	private final ManagedPool pool;

	private final TaskPath path;

	private final RejectedExecutionHandler policy;

	private final @Nullable ThreadPoolExecutor shownAs;

	CountingRejection(ManagedPool pool, TaskPath path, @Nullable RejectedExecutionHandler policy) {
		this(pool, path, policy, null);
	}

	/**
	 * Count refusals and apply the policy, handing it the given executor rather than the
	 * one that refused: the view that executor is handed out as.
	 */
	CountingRejection(ManagedPool pool, TaskPath path, @Nullable RejectedExecutionHandler policy,
			@Nullable ThreadPoolExecutor shownAs) {
		this.pool = pool;
		this.path = path;
		this.shownAs = shownAs;
		this.policy = (policy == null || policy.getClass() == ThreadPoolExecutor.AbortPolicy.class)
				? (task, executor) -> {
					throw pool.rejection();
				} : policy;
	}

	RejectedExecutionHandler policy() {
		return this.policy;
	}

	@Override
	public void rejectedExecution(Runnable task, ThreadPoolExecutor executor) {
		this.path.recorder().taskRejected(this.pool.rejectionReason());
		TaskGuard guard = this.path.guard();
		if (guard != null) {
			guard.notRun();
		}
		ThreadPoolExecutor shownAs = this.shownAs;
		this.policy.rejectedExecution(TimedTask.rejected(task), (shownAs != null) ? shownAs : executor);
	}

}
