package io.github.poolpilot.pool;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;

import io.github.poolpilot.measure.RejectionReason;

/**
 * Thrown when a managed pool refuses a task. Carries what an HTTP layer needs to answer
 * the caller: the pool, why it refused and when a retry is worth trying.
 *
 * @author poolpilot authors
 */
public class PoolRejectedException extends RejectedExecutionException {

	private static final long MAX_RETRY_AFTER_SECONDS = Duration.ofHours(1).toSeconds();

	private final String pool;

	private final RejectionReason reason;

	private final Duration retryAfter;

	/**
	 * Create a new exception.
	 * @param pool the name of the pool that refused the task
	 * @param reason why it refused
	 * @param retryAfter how long the caller should wait before retrying
	 */
	public PoolRejectedException(String pool, RejectionReason reason, Duration retryAfter) {
		super("Pool '" + pool + "' rejected a task (" + reason.description() + "); retry after "
				+ retryAfter.toSeconds() + "s");
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
	public RejectionReason getReason() {
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
	 * Return a retry delay as a rejection carries it: whole seconds, rounded up, from one
	 * second to one hour.
	 * @param seconds the estimated delay in seconds; 0 or less, or not a number, for none
	 * known
	 * @return the retry delay
	 */
	public static Duration retryAfter(double seconds) {
		if (!(seconds > 1)) {
			return Duration.ofSeconds(1);
		}
		return Duration.ofSeconds((long) Math.min(MAX_RETRY_AFTER_SECONDS, Math.ceil(seconds)));
	}

}
