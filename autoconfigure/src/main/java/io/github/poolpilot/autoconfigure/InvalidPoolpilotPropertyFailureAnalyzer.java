package io.github.poolpilot.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns an {@link InvalidPoolpilotPropertyException} into a start-up message that names
 * the property, its value and what to change it to.
 *
 * @author poolpilot authors
 */
class InvalidPoolpilotPropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidPoolpilotPropertyException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidPoolpilotPropertyException cause) {
		String description = "Invalid poolpilot configuration: '" + cause.getProperty() + "' is " + cause.getValue()
				+ ".";
		String action = "Update your configuration so that '" + cause.getProperty() + "' is valid: "
				+ cause.getAllowed() + ".";
		return new FailureAnalysis(description, action, cause);
	}

}
