package io.github.poolpilot.measure;

/**
 * Why a pool refused a task.
 *
 * @author poolpilot authors
 */
public enum RejectionReason {

	/**
	 * Every thread was busy and the queue was full.
	 */
	QUEUE_FULL("queue full", false),

	/**
	 * The task would have waited, or had waited, longer than the pool's max-queue-wait.
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

	RejectionReason(String description, boolean unavailable) {
		this.description = description;
		this.unavailable = unavailable;
	}

	/**
	 * Return the reason in words, as a rejection's message gives it.
	 * @return the description
	 */
	public String description() {
		return this.description;
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
