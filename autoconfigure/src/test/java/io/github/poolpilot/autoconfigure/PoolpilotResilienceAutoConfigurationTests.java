package io.github.poolpilot.autoconfigure;

import java.time.Duration;
import java.util.List;

import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.springboot.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration;
import io.github.resilience4j.springboot.timelimiter.autoconfigure.TimeLimiterAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.github.poolpilot.guard.QueueWaitLimit;
import io.github.poolpilot.guard.TaskGuard;
import io.github.poolpilot.guard.TaskGuardProvider;
import io.github.poolpilot.guard.TaskTimeouts;
import io.github.poolpilot.resilience.CircuitBreakerGuard;
import io.github.poolpilot.task.ManagedTaskExecutor;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.context.annotation.UserConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for a pool's max-queue-wait and timeout, and for
 * {@link PoolpilotResilienceAutoConfiguration}.
 *
 * @author poolpilot authors
 */
class PoolpilotResilienceAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class, PoolpilotAutoConfiguration.class,
				PoolpilotResilienceAutoConfiguration.class))
		.withPropertyValues("poolpilot.existing-executors.enabled=false");

	@Test
	void aPoolWithoutTheseSettingsHasNoGuard() {
		this.runner.withPropertyValues("poolpilot.pools.talk.max-threads=4")
			.run((context) -> assertThat(guards(context, "talk")).isEmpty());
	}

	@Test
	void maxQueueWaitAndATimeoutGuardThePoolInThatOrder() {
		this.runner
			.withPropertyValues("poolpilot.pools.talk.max-queue-wait=100ms",
					"poolpilot.pools.talk.resilience.timeout=2s", "poolpilot.pools.stop.max-threads=2")
			.run((context) -> {
				List<TaskGuard> guards = guards(context, "talk");
				assertThat(guards).hasSize(2);
				assertThat(guards.get(0)).isInstanceOfSatisfying(QueueWaitLimit.class,
						(limit) -> assertThat(limit.getTarget()).isEqualTo(Duration.ofMillis(100)));
				assertThat(guards.get(1)).isInstanceOfSatisfying(TaskTimeouts.class,
						(timeouts) -> assertThat(timeouts.getTimeout()).isEqualTo(Duration.ofSeconds(2)));
				assertThat(guards(context, "stop")).isEmpty();
			});
	}

	@Test
	@ExtendWith(OutputCaptureExtension.class)
	void aCircuitBreakerNameThatNoInstanceHasGetsTheDefaultsAndIsWarnedAbout(CapturedOutput output) {
		this.runner.withConfiguration(AutoConfigurations.of(CircuitBreakerAutoConfiguration.class))
			.withPropertyValues("poolpilot.pools.talk.resilience.circuit-breaker=dowmstream",
					"resilience4j.circuitbreaker.instances.downstream.sliding-window-size=7")
			.run((context) -> {
				assertThat(guards(context, "talk")).singleElement()
					.isInstanceOfSatisfying(CircuitBreakerGuard.class,
							(guard) -> assertThat(
									guard.getCircuitBreaker().getCircuitBreakerConfig().getSlidingWindowSize())
								.isEqualTo(100));
				assertThat(output).contains("Pool 'talk': no circuit breaker 'dowmstream' is configured under "
						+ "resilience4j.circuitbreaker.instances; it gets Resilience4j's defaults (the configured "
						+ "circuit breakers are [downstream])");
			});
	}

	@Test
	@ExtendWith(OutputCaptureExtension.class)
	void namedResilience4jInstancesComeFromItsRegistriesWithTheirConfiguration(CapturedOutput output) {
		this.runner
			.withConfiguration(
					AutoConfigurations.of(CircuitBreakerAutoConfiguration.class, TimeLimiterAutoConfiguration.class))
			.withPropertyValues("poolpilot.pools.talk.max-queue-wait=100ms",
					"poolpilot.pools.talk.resilience.circuit-breaker=downstream",
					"poolpilot.pools.talk.resilience.time-limiter=downstream",
					"resilience4j.circuitbreaker.instances.downstream.sliding-window-size=7",
					"resilience4j.timelimiter.instances.downstream.timeout-duration=3s")
			.run((context) -> {
				List<TaskGuard> guards = guards(context, "talk");
				assertThat(guards).hasSize(3);
				assertThat(guards.get(0)).isInstanceOf(QueueWaitLimit.class);
				assertThat(guards.get(1)).isInstanceOfSatisfying(CircuitBreakerGuard.class, (guard) -> {
					assertThat(guard.getCircuitBreaker())
						.isSameAs(context.getBean(CircuitBreakerRegistry.class).circuitBreaker("downstream"));
					assertThat(guard.getCircuitBreaker().getCircuitBreakerConfig().getSlidingWindowSize()).isEqualTo(7);
				});
				assertThat(guards.get(2)).isInstanceOfSatisfying(TaskTimeouts.class,
						(timeouts) -> assertThat(timeouts.getTimeout()).isEqualTo(Duration.ofSeconds(3)));
				assertThat(output).doesNotContain("no circuit breaker");
			});
	}

	@Test
	void withoutResilience4jsSpringBootModuleDefaultRegistriesAreUsed() {
		this.runner.withPropertyValues("poolpilot.pools.talk.resilience.circuit-breaker=downstream")
			.run((context) -> assertThat(guards(context, "talk")).singleElement()
				.isInstanceOfSatisfying(CircuitBreakerGuard.class,
						(guard) -> assertThat(
								guard.getCircuitBreaker().getCircuitBreakerConfig().getSlidingWindowSize())
							.isEqualTo(100)));
	}

	@Test
	void withoutResilience4jPoolsWorkAndTheTimeoutStillApplies() {
		this.runner.withClassLoader(new FilteredClassLoader("io.github.resilience4j"))
			.withPropertyValues("poolpilot.pools.talk.resilience.timeout=2s")
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean("poolpilotCircuitBreakerGuards");
				assertThat(guards(context, "talk")).singleElement().isInstanceOf(TaskTimeouts.class);
			});
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			circuit-breaker | io.github.resilience4j.circuitbreaker
			time-limiter    | io.github.resilience4j.timelimiter
			""")
	void namingAResilience4jInstanceWithoutResilience4jFailsStartUpSayingWhatToAdd(String key, String hidden) {
		String property = "poolpilot.pools.talk.resilience." + key;
		this.runner.withClassLoader(new FilteredClassLoader(hidden))
			.withPropertyValues(property + "=downstream")
			.run((context) -> {
				FailureAnalysis analysis = failure(context);
				assertThat(analysis.getDescription()).contains("'" + property + "'").contains("downstream");
				assertThat(analysis.getAction()).contains("io.github.resilience4j:resilience4j-spring-boot4");
			});
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|',
			textBlock = """
					poolpilot.pools.talk.max-queue-wait=0ms         | poolpilot.pools.talk.max-queue-wait         | must be a positive duration
					poolpilot.pools.talk.resilience.timeout=-1s     | poolpilot.pools.talk.resilience.timeout     | must be a positive duration
							""")
	void invalidSettingsFailStartUpNamingTheKeyAndWhatIsAllowed(String setting, String key, String allowed) {
		this.runner.withPropertyValues(setting).run((context) -> {
			FailureAnalysis analysis = failure(context);
			assertThat(analysis.getDescription()).contains("'" + key + "'");
			assertThat(analysis.getAction()).contains(key).contains(allowed);
		});
	}

	@Test
	void aTimeLimiterNameThatNoInstanceHasFailsStartUp() {
		this.runner.withConfiguration(AutoConfigurations.of(TimeLimiterAutoConfiguration.class))
			.withPropertyValues("poolpilot.pools.talk.resilience.time-limiter=dowmstream",
					"resilience4j.timelimiter.instances.downstream.timeout-duration=3s")
			.run((context) -> {
				FailureAnalysis analysis = failure(context);
				assertThat(analysis.getDescription()).contains("'poolpilot.pools.talk.resilience.time-limiter'")
					.contains("dowmstream");
				assertThat(analysis.getAction()).contains("resilience4j.timelimiter.instances");
			});
	}

	@Test
	void aTimeoutAndATimeLimiterTogetherAreRefused() {
		this.runner
			.withPropertyValues("poolpilot.pools.talk.resilience.timeout=2s",
					"poolpilot.pools.talk.resilience.time-limiter=downstream")
			.run((context) -> assertThat(failure(context).getAction())
				.contains("must not be set together with poolpilot.pools.talk.resilience.timeout"));
	}

	@Test
	void aGuardProviderBeanOfTheApplicationAddsItsGuards() {
		TaskGuard mine = new TaskGuard() {
		};
		this.runner.withConfiguration(UserConfigurations.of(MyGuards.class))
			.withBean("myGuard", TaskGuard.class, () -> mine)
			.withPropertyValues("poolpilot.pools.talk.max-threads=2")
			.run((context) -> assertThat(guards(context, "talk")).containsExactly(mine));
	}

	private static List<TaskGuard> guards(AssertableApplicationContext context, String pool) {
		assertThat(context).hasNotFailed();
		TaskGuard guard = context.getBean(pool, ManagedTaskExecutor.class).getManagedExecutor().getGuard();
		if (guard == null) {
			return List.of();
		}
		return (guard instanceof TaskGuard.Guards guards) ? guards.getGuards() : List.of(guard);
	}

	private static FailureAnalysis failure(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		FailureAnalysis analysis = new InvalidPoolpilotPropertyFailureAnalyzer().analyze(context.getStartupFailure());
		assertThat(analysis).isNotNull();
		return analysis;
	}

	static class MyGuards {

		@Bean
		TaskGuardProvider myGuards(TaskGuard myGuard) {
			return (name, pool) -> "talk".equals(name) ? List.of(myGuard) : List.of();
		}

	}

}
