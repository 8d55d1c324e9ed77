package io.github.poolpilot.autoconfigure;

import java.util.concurrent.Executor;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableAsync;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link AsyncEnabledCheck}.
 *
 * @author poolpilot authors
 */
@ExtendWith(OutputCaptureExtension.class)
class AsyncEnabledCheckTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(TaskExecutionAutoConfiguration.class, PoolpilotAutoConfiguration.class))
		.withPropertyValues("poolpilot.existing-executors.enabled=false", "poolpilot.pools.talk.max-threads=2",
				"poolpilot.pools.stop.max-threads=2");

	private final LoggingSystem logging = LoggingSystem.get(getClass().getClassLoader());

	@BeforeEach
	void showTheWarning() {
		// The tests' log configuration keeps it out of every other test's output.
		this.logging.setLogLevel(AsyncEnabledCheck.class.getName(), LogLevel.WARN);
	}

	@AfterEach
	void hideTheWarningAgain() {
		this.logging.setLogLevel(AsyncEnabledCheck.class.getName(), LogLevel.ERROR);
	}

	@Test
	void poolsThatNothingReachesWithoutEnableAsyncAreNamedInAWarning(CapturedOutput output) {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).contains("Async execution is not enabled, and nothing of the application's is given "
					+ "the pools [talk, stop]: an @Async(\"talk\") method runs on its caller's thread and the pool "
					+ "stays empty. Add @EnableAsync to a @Configuration class");
		});
	}

	@Test
	void withEnableAsyncNothingIsSaid(CapturedOutput output) {
		this.runner.withUserConfiguration(AsyncConfiguration.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).doesNotContain("Async execution is not enabled");
		});
	}

	@Test
	void aPoolInjectedIntoTheApplicationsBeansIsNotNamed(CapturedOutput output) {
		this.runner.withUserConfiguration(TalkClient.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).contains("given the pools [stop]").doesNotContain("talk]");
		});
	}

	@Test
	void withoutPoolsNothingIsSaid(CapturedOutput output) {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(TaskExecutionAutoConfiguration.class, PoolpilotAutoConfiguration.class))
			.run((context) -> assertThat(output).doesNotContain("Async execution is not enabled"));
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAsync
	static class AsyncConfiguration {

	}

	@Configuration(proxyBeanMethods = false)
	static class TalkClient {

		@Bean
		Client client(@Qualifier("talk") Executor talk) {
			return new Client(talk);
		}

	}

	record Client(Executor executor) {

	}

}
