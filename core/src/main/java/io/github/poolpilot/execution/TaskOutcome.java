package io.github.poolpilot.execution;

import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

import org.jspecify.annotations.Nullable;

/**
 * How a task that ran ended: a task fails when it throws, and a task that is a future
 * also when the future it completed failed or was cancelled.
 *
 * @author poolpilot authors
 */
final class TaskOutcome {

	private TaskOutcome() {
	}

	/**
	 * Return what a task that ran failed with: what it threw, else the exception of the
	 * future it completed, else {@code null}.
	 */
	static @Nullable Throwable failure(Runnable task, @Nullable Throwable thrown) {
		if (thrown != null) {
			return thrown;
		}
		if (!(task instanceof Future<?> future) || !future.isDone()) {
			return null;
		}
		try {
			future.get();
			return null;
		}
		catch (ExecutionException ex) {
			return (ex.getCause() != null) ? ex.getCause() : ex;
		}
		catch (CancellationException ex) {
			return ex;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return null;
		}
	}

	/**
	 * Return whether a task that ran without throwing is a future that failed: it
	 * completed exceptionally or was cancelled.
	 */
	static boolean failedFuture(Runnable task) {
		// Kept small enough to be inlined wherever it is called (a plain Runnable, the
		// common case, then costs one type check and no call): the future's own checks
		// are a method of their own.
		return task instanceof Future<?> future && failed(future);
	}

	private static boolean failed(Future<?> future) {
		if (!future.isDone()) {
			return false;
		}
		if (future.isCancelled()) {
			return true;
		}
		try {
			future.get();
			return false;
		}
		catch (ExecutionException ex) {
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

}
