package io.github.poolpilot.autoconfigure;

import java.util.stream.Collectors;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns an {@link UnknownPoolpilotPropertyException} into a start-up message that names
 * each unknown key, where it was set, and the nearest key poolpilot has.
 *
 * @author poolpilot authors
 */
class UnknownPoolpilotPropertyFailureAnalyzer extends AbstractFailureAnalyzer<UnknownPoolpilotPropertyException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, UnknownPoolpilotPropertyException cause) {
		String description = "Unknown poolpilot configuration:\n"
				+ cause.getKeys().stream().map((key) -> "    - " + key.describe()).collect(Collectors.joining("\n"));
		String action = "Correct or remove these keys (poolpilot refuses keys it does not have, so that a typo "
				+ "cannot leave a default in place unnoticed):\n"
				+ cause.getKeys()
					.stream()
					.map((key) -> "    - '" + key.property() + "': " + key.advice())
					.collect(Collectors.joining("\n"));
		return new FailureAnalysis(description, action, cause);
	}

}
