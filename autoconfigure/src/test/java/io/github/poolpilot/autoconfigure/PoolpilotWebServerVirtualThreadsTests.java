package io.github.poolpilot.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import io.github.poolpilot.webserver.HttpPool;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the web server's pool, not supported yet on virtual threads, fails start-up
 * saying so when the server's requests run on virtual threads.
 *
 * @author poolpilot authors
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class PoolpilotWebServerVirtualThreadsTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class, PoolpilotAutoConfiguration.class,
				PoolpilotWebServerAutoConfiguration.class));

	@Test
	void enablingItWithVirtualThreadsFailsStartUpNamingBothSettings() {
		this.runner.withPropertyValues("spring.threads.virtual.enabled=true", "poolpilot.web-server.enabled=true")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new InvalidPoolpilotPropertyFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis.getAction()).contains("poolpilot.web-server.enabled")
					.contains("spring.threads.virtual.enabled=true");
			});
	}

	@Test
	void withVirtualThreadsAndTheSettingLeftOutTheServerIsLeftAlone() {
		this.runner.withPropertyValues("spring.threads.virtual.enabled=true")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(HttpPool.class));
	}

}
