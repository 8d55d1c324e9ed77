package io.github.poolpilot.core;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;

/**
 * Thrown when a managed pool refuses a task. Carries what an HTTP layer needs to answer
 * the caller: the pool, why it refused and when a retry is worth trying.
 *
 * @author poolpilot authors
 */
public class PoolRejectedException extends RejectedExecutionException {

	private final String pool;

	private final Reason reason;

	private final Duration retryAfter;

	/**
	 * Create a new exception.
	 * @param pool the name of the pool that refused the task
	 * @param reason why it refused
	 * @param retryAfter how long the caller should wait before retrying
	 */
	public PoolRejectedException(String pool, Reason reason, Duration retryAfter) {
		super("Pool '" + pool + "' rejected a task (" + reason.description + "); retry after " + retryAfter.toSeconds()
				+ "s");
		this.pool = pool;
		this.reason = reason;
		this.retryAfter = retryAfter;
	}

	/**
	 * Return the name of the pool that refused the task.
	 * @return the pool name
	 */
	public String getPool() {
		return this.pool;
	}

	/**
	 * Return why the pool refused the task.
	 * @return the reason
	 */
	public Reason getReason() {
		return this.reason;
	}

	/**
	 * Return how long the caller should wait before retrying, in whole seconds of at
	 * least one.
	 * @return the retry delay
	 */
	public Duration getRetryAfter() {
		return this.retryAfter;
	}

	/**
	 * Why a pool refused a task.
	 */
	public enum Reason {

		/**
		 * Every thread was busy and the queue was full.
		 */
		QUEUE_FULL("queue full", false),

		/**
		 * The task would have waited, or had waited, longer than the pool's
		 * max-queue-wait.
		 */
		QUEUE_WAIT("expected queue wait over max-queue-wait", false),

		/**
		 * The pool's circuit breaker is open: its downstream is failing.
		 */
		CIRCUIT_OPEN("circuit open", true),

		/**
		 * The pool is shutting down.
		 */
		SHUTDOWN("shutting down", true);

		private final String description;

		private final boolean unavailable;

		Reason(String description, boolean unavailable) {
			this.description = description;
			this.unavailable = unavailable;
		}

		/**
		 * Return whether the pool cannot serve anybody now, whatever the load (HTTP 503),
		 * rather than being too busy for this task (the pool's rejection status).
		 * @return whether the pool is unavailable
		 */
		public boolean isUnavailable() {
			return this.unavailable;
		}

	}

}
