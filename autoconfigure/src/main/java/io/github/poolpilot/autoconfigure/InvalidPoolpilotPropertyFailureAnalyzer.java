package io.github.poolpilot.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.Environment;

/**
 * Turns an {@link InvalidPoolpilotPropertyException} into a start-up message that names
 * the property, its value as it was written (a duration as {@code -1ms}, not as the
 * {@code PT-0.001S} it was bound to) and what to change it to.
 *
 * @author poolpilot authors
 */
class InvalidPoolpilotPropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidPoolpilotPropertyException> {

	private final @Nullable Environment environment;

	InvalidPoolpilotPropertyFailureAnalyzer() {
		this(null);
	}

	/**
	 * Create an analyzer that shows values as the environment has them; the one Spring
	 * Boot uses.
	 * @param environment the failed application's environment
	 */
	public InvalidPoolpilotPropertyFailureAnalyzer(@Nullable Environment environment) {
		this.environment = environment;
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidPoolpilotPropertyException cause) {
		String description = "Invalid poolpilot configuration: '" + cause.getProperty() + "' is " + written(cause)
				+ ".";
		String action = "Update your configuration so that '" + cause.getProperty() + "' is valid: "
				+ cause.getAllowed() + ".";
		return new FailureAnalysis(description, action, cause);
	}

	private Object written(InvalidPoolpilotPropertyException cause) {
		String written = (this.environment != null && cause.getProperty().startsWith("poolpilot."))
				? this.environment.getProperty(cause.getProperty()) : null;
		return (written != null && !written.isBlank()) ? written : cause.getValue();
	}

}
