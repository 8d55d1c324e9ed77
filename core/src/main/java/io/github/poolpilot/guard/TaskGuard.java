package io.github.poolpilot.guard;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What a pool checks around each of its tasks besides its threads and its queue: whether
 * it takes a task at all, whether a task that waited may still run, and what came of each
 * task that ran. A pool's max-queue-wait, its task timeout and its circuit breaker are
 * guards.
 * <p>
 * A guard is made for one pool. Its methods run on the submitting thread
 * ({@link #beforeSubmit}) or on the worker thread ({@link #beforeRun},
 * {@link #afterRun}); for each task a guard admitted, exactly one of {@link #afterRun}
 * and {@link #notRun} follows.
 *
 * @author poolpilot authors
 */
public interface TaskGuard {

	/**
	 * Decide whether the pool takes a task, before it is queued.
	 * @throws PoolRejectedException to refuse the task
	 */
	default void beforeSubmit() {
	}

	/**
	 * Decide whether a task a thread just took may run.
	 * @param queueWaitNanos how long the task waited in the queue
	 * @param refusable whether the task's caller can be told that it was refused (its
	 * future fails); a task that cannot be refused must not be
	 * @throws PoolRejectedException to refuse the task instead of running it; the pool
	 * then calls {@link #notRun}, on this guard too. A task that cannot be refused, or
	 * one whose guard threw anything else, runs without its guard, after the same call
	 */
	default void beforeRun(long queueWaitNanos, boolean refusable) {
	}

	/**
	 * A task ran, on the current thread.
	 * @param serviceNanos how long it ran
	 * @param failure what it failed with, or {@code null} when it succeeded
	 */
	default void afterRun(long serviceNanos, @Nullable Throwable failure) {
	}

	/**
	 * A task this guard admitted will not run: the queue or a later check refused it, or
	 * it was cancelled before it started.
	 */
	default void notRun() {
	}

	/**
	 * The pool terminated: release what the guard holds.
	 */
	default void close() {
	}

	/**
	 * Combine guards: a task passes when it passes each, in order; when one refuses it,
	 * those that admitted it are told it will not run.
	 * @param guards the guards, in the order they check
	 * @return one guard for all, or {@code null} when there are none
	 */
	static @Nullable TaskGuard of(List<? extends TaskGuard> guards) {
		if (guards.isEmpty()) {
			return null;
		}
		return (guards.size() == 1) ? guards.get(0) : new Guards(new ArrayList<>(guards));
	}

	/**
	 * Several guards checked in order.
	 */
	final class Guards implements TaskGuard {

		private final List<TaskGuard> guards;

		private Guards(List<TaskGuard> guards) {
			this.guards = guards;
		}

		/**
		 * Return the guards, in the order they check.
		 * @return the guards
		 */
		public List<TaskGuard> getGuards() {
			return List.copyOf(this.guards);
		}

		@Override
		public void beforeSubmit() {
			for (int i = 0; i < this.guards.size(); i++) {
				try {
					this.guards.get(i).beforeSubmit();
				}
				catch (RuntimeException ex) {
					this.guards.subList(0, i).forEach(TaskGuard::notRun);
					throw ex;
				}
			}
		}

		@Override
		public void beforeRun(long queueWaitNanos, boolean refusable) {
			// When one refuses, the pool tells them all that the task will not run.
			for (TaskGuard guard : this.guards) {
				guard.beforeRun(queueWaitNanos, refusable);
			}
		}

		@Override
		public void afterRun(long serviceNanos, @Nullable Throwable failure) {
			RuntimeException thrown = null;
			for (TaskGuard guard : this.guards) {
				try {
					guard.afterRun(serviceNanos, failure);
				}
				catch (RuntimeException ex) {
					if (thrown == null) {
						thrown = ex;
					}
					else {
						thrown.addSuppressed(ex);
					}
				}
			}
			if (thrown != null) {
				throw thrown;
			}
		}

		@Override
		public void notRun() {
			this.guards.forEach(TaskGuard::notRun);
		}

		@Override
		public void close() {
			this.guards.forEach(TaskGuard::close);
		}

	}

}
