package io.github.poolpilot.smoke;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Spring MVC application started with the variables Kubernetes gives every pod of a
 * namespace that has a Service named "poolpilot": Spring Boot reads them as poolpilot.*
 * properties, which must not fail the start as unknown keys.
 */
class KubernetesEnvironmentSmokeTests extends WebApplicationSmokeTests {

	private static final Map<String, String> SERVICE_VARIABLES = Map.of("POOLPILOT_SERVICE_HOST", "127.0.0.1",
			"POOLPILOT_SERVICE_PORT", "80", "POOLPILOT_SERVICE_PORT_HTTP", "80", "POOLPILOT_PORT", "tcp://127.0.0.1:80",
			"POOLPILOT_PORT_80_TCP", "tcp://127.0.0.1:80", "POOLPILOT_PORT_80_TCP_PROTO", "tcp",
			"POOLPILOT_PORT_80_TCP_PORT", "80", "POOLPILOT_PORT_80_TCP_ADDR", "127.0.0.1");

	@Override
	Shape shape() {
		return Shape.KUBERNETES_ENVIRONMENT;
	}

	@Override
	Map<String, String> environment() {
		return SERVICE_VARIABLES;
	}

	@Test
	void theVariablesAreNamedInOneWarning() throws Exception {
		String warning = this.application.log()
			.lines()
			.filter((line) -> line.contains("WARN") && line.contains("Environment variables ["))
			.findFirst()
			.orElseThrow(() -> new AssertionError("No warning about the POOLPILOT_* environment variables"));
		assertThat(warning).contains(SERVICE_VARIABLES.keySet());
	}

}
