package io.github.poolpilot.actuate;

/**
 * Thrown when a change asked of the {@code threadpools} endpoint has a value that is not
 * allowed, other than a pool size: nothing changes, and the caller is told which field is
 * wrong and what is allowed.
 *
 * @author poolpilot authors
 */
public class InvalidChangeException extends IllegalArgumentException {

	private final String field;

	/**
	 * Create a new exception.
	 * @param field the name of the offending field
	 * @param message what is wrong and what is allowed
	 */
	public InvalidChangeException(String field, String message) {
		super(message);
		this.field = field;
	}

	/**
	 * Return the name of the offending field.
	 * @return the field name
	 */
	public String getField() {
		return this.field;
	}

}
