package io.github.poolpilot.autoconfigure;

/**
 * Thrown at start-up when a {@code poolpilot.*} property has a value that is not allowed.
 *
 * @author poolpilot authors
 */
public class InvalidPoolpilotPropertyException extends RuntimeException {

	private final String property;

	private final Object value;

	private final String allowed;

	/**
	 * Create a new exception.
	 * @param property the full name of the property
	 * @param value the value it has
	 * @param allowed what values are allowed
	 */
	public InvalidPoolpilotPropertyException(String property, Object value, String allowed) {
		super("Invalid value " + value + " for '" + property + "': " + allowed);
		this.property = property;
		this.value = value;
		this.allowed = allowed;
	}

	public String getProperty() {
		return this.property;
	}

	public Object getValue() {
		return this.value;
	}

	public String getAllowed() {
		return this.allowed;
	}

}
