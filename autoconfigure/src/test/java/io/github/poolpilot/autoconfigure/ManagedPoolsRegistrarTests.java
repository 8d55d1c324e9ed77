package io.github.poolpilot.autoconfigure;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ManagedPoolsRegistrar}.
 *
 * @author poolpilot authors
 */
class ManagedPoolsRegistrarTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(TaskExecutionAutoConfiguration.class, PoolpilotAutoConfiguration.class))
		.withPropertyValues("poolpilot.existing-executors.enabled=false");

	@Test
	void aPoolNamedLikeAnExistingBeanFailsStartUpSayingWhatIsWrong() {
		this.runner.withUserConfiguration(ClockConfiguration.class)
			.withPropertyValues("poolpilot.pools.clock.max-threads=2")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new InvalidPoolpilotPropertyFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis.getDescription())
					.isEqualTo("Invalid poolpilot configuration: 'poolpilot.pools.clock' is a pool named 'clock'.");
				assertThat(analysis.getAction()).contains("the application already has a bean named 'clock'")
					.contains("java.time.Clock")
					.contains("give the pool another name")
					.doesNotContain("overriding");
			});
	}

	@Test
	void aPoolNamedLikeBootsExecutorPointsToTheExistingExecutorKeys() {
		this.runner.withPropertyValues("poolpilot.pools.applicationTaskExecutor.max-threads=2").run((context) -> {
			FailureAnalysis analysis = new InvalidPoolpilotPropertyFailureAnalyzer()
				.analyze(context.getStartupFailure());
			assertThat(analysis.getAction())
				.contains("configure it under poolpilot.existing-executors.applicationTaskExecutor instead");
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class ClockConfiguration {

		@Bean
		java.time.Clock clock() {
			return java.time.Clock.systemUTC();
		}

	}

}
