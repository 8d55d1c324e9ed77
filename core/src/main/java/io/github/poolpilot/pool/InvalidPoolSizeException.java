package io.github.poolpilot.pool;

/**
 * Thrown when a requested pool size violates one of the pool's bounds or the budget, or
 * when a pool that joins the budget does not fit it at its min-threads. Nothing is
 * changed when it is thrown.
 *
 * @author poolpilot authors
 */
public class InvalidPoolSizeException extends IllegalArgumentException {

	private final String field;

	/**
	 * Create a new exception.
	 * @param field the name of the offending field ({@code corePoolSize},
	 * {@code maxPoolSize}, or {@code minThreads} for a pool that joins)
	 * @param message what is wrong and what is allowed
	 */
	public InvalidPoolSizeException(String field, String message) {
		super(message);
		this.field = field;
	}

	/**
	 * Return the name of the field whose value violated a bound.
	 * @return the field name
	 */
	public String getField() {
		return this.field;
	}

}
