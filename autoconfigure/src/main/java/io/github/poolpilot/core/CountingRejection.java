package io.github.poolpilot.core;

import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadPoolExecutor;

import org.jspecify.annotations.Nullable;

/**
 * Counts every task a pool refuses, then applies the pool's rejection policy to the task
 * as it was submitted.
 *
 * @author poolpilot authors
 */
final class CountingRejection implements RejectedExecutionHandler {

	private final ManagedPool pool;

	private final RejectedExecutionHandler policy;

	CountingRejection(ManagedPool pool, @Nullable RejectedExecutionHandler policy) {
		this.pool = pool;
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
		PoolRecorder recorder = this.pool.getRecorder();
		recorder.taskRejected(this.pool.rejectionReason());
		TaskGuard guard = recorder.guard();
		if (guard != null) {
			guard.notRun();
		}
		this.policy.rejectedExecution(TimedTask.rejected(task), executor);
	}

}
