package io.github.poolpilot.task;

import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;

import org.jspecify.annotations.Nullable;

import org.springframework.core.task.TaskRejectedException;
import org.springframework.util.Assert;

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

	/**
	 * Return a {@code Runnable} as a {@code Callable} of no result, refusing a
	 * {@code null} one at once, as {@code CompletableFuture.runAsync} does.
	 */
	static Callable<@Nullable Void> callable(Runnable task) {
		Objects.requireNonNull(task, "task must not be null");
		return () -> {
			task.run();
			return null;
		};
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

	/**
	 * Submit a task whose result completes the returned future; a {@code null} task is
	 * refused at once, as Spring's executors refuse it.
	 */
	static <T> CompletableFuture<T> submitCompletable(ManagedExecutorService executor, Callable<T> task) {
		Assert.notNull(task, "Callable must not be null");
		try {
			return executor.submitCompletable(task);
		}
		catch (RejectedExecutionException ex) {
			throw new TaskRejectedException(executor, task, ex);
		}
	}

}
