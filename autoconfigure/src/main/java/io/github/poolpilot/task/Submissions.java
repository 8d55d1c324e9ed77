package io.github.poolpilot.task;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;

import org.springframework.core.task.TaskRejectedException;

import io.github.poolpilot.execution.ManagedExecutorService;

/**
 * Hands tasks to a managed executor for Spring's task executors, whose callers expect a
 * refused task as a {@link TaskRejectedException} (the pool's own rejection as its cause,
 * with its reason and Retry-After).
 *
 * @author poolpilot authors
 */
final class Submissions {

	private Submissions() {
	}

	static void execute(ManagedExecutorService executor, Runnable task) {
		try {
			executor.execute(task);
		}
		catch (RejectedExecutionException ex) {
			throw new TaskRejectedException(executor, task, ex);
		}
	}

	static Future<?> submit(ManagedExecutorService executor, Runnable task) {
		try {
			return executor.submit(task);
		}
		catch (RejectedExecutionException ex) {
			throw new TaskRejectedException(executor, task, ex);
		}
	}

	static <T> Future<T> submit(ManagedExecutorService executor, Callable<T> task) {
		try {
			return executor.submit(task);
		}
		catch (RejectedExecutionException ex) {
			throw new TaskRejectedException(executor, task, ex);
		}
	}

	static <T> CompletableFuture<T> submitCompletable(ManagedExecutorService executor, Callable<T> task) {
		try {
			return executor.submitCompletable(task);
		}
		catch (RejectedExecutionException ex) {
			throw new TaskRejectedException(executor, task, ex);
		}
	}

}
