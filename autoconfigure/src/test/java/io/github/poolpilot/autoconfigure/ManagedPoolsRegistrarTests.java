package io.github.poolpilot.autoconfigure;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

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

	/**
	 * Spring's executor keeps its keep-alive in whole seconds, and Boot's builder makes
	 * core threads time out: a keep-alive between whole seconds is rounded up, so that a
	 * sub-second one does not become 0 and no idle thread ends sooner than asked.
	 */
	@ParameterizedTest
	@CsvSource({ "1ns, 1", "50ms, 1", "999ms, 1", "1s, 1", "1001ms, 2", "1500ms, 2", "60s, 60" })
	void aKeepAliveBetweenWholeSecondsIsRoundedUp(String keepAlive, int seconds) {
		this.runner.withPropertyValues("poolpilot.pools.work.keep-alive=" + keepAlive).run((context) -> {
			assertThat(context).hasNotFailed();
			ThreadPoolTaskExecutor work = context.getBean("work", ThreadPoolTaskExecutor.class);
			assertThat(work.getThreadPoolExecutor().allowsCoreThreadTimeOut()).isTrue();
			assertThat(work.getKeepAliveSeconds()).isEqualTo(seconds);
			assertThat(work.getThreadPoolExecutor().getKeepAliveTime(TimeUnit.NANOSECONDS))
				.isEqualTo(TimeUnit.SECONDS.toNanos(seconds));
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
