package io.github.poolpilot.actuate;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.springboot.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.autoconfigure.PoolpilotAutoConfiguration;
import io.github.poolpilot.autoconfigure.PoolpilotHealthAutoConfiguration;
import io.github.poolpilot.autoconfigure.PoolpilotResilienceAutoConfiguration;
import io.github.poolpilot.measure.NanoClock;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.pool.Restarts;
import io.github.poolpilot.task.ManagedTaskExecutor;
import io.github.poolpilot.tuning.Tuner;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.task.TaskRejectedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link ThreadPoolsHealthIndicator} and
 * {@link PoolpilotHealthAutoConfiguration}.
 *
 * @author poolpilot authors
 */
class ThreadPoolsHealthIndicatorTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class, PoolpilotAutoConfiguration.class,
				PoolpilotHealthAutoConfiguration.class))
		.withPropertyValues("poolpilot.existing-executors.enabled=false", "poolpilot.pools.talk.min-threads=1",
				"poolpilot.pools.talk.max-threads=1", "poolpilot.pools.talk.queue-capacity=1",
				"poolpilot.pools.stop.max-threads=1", "poolpilot.tuning.enabled=false");

	@Test
	void aPoolThatRefusesWorkIsNamedWhileTheApplicationStaysUp() {
		this.runner.run((context) -> {
			ThreadPoolsHealthIndicator indicator = context.getBean(ThreadPoolsHealthIndicator.class);
			assertThat(troubled(indicator.health())).isEmpty();
			ManagedTaskExecutor talk = context.getBean("talk", ManagedTaskExecutor.class);
			CountDownLatch release = new CountDownLatch(1);
			Future<?> running = talk.submit(() -> await(release));
			Future<?> queued = talk.submit(() -> await(release));
			assertThatExceptionOfType(TaskRejectedException.class).isThrownBy(() -> talk.submit(() -> {
			}));
			Health health = indicator.health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsEntry("pools", 2);
			assertThat(troubled(health)).containsExactly(Map.entry("talk", List.of("refusing")));
			release.countDown();
			running.get(10, TimeUnit.SECONDS);
			queued.get(10, TimeUnit.SECONDS);
			// The refusal was reported; with nothing refused since, the pool is fine.
			assertThat(troubled(indicator.health())).isEmpty();
		});
	}

	@Test
	void aListenerWhoseLastRestartFailedIsNamedUntilARestartWorks() {
		PoolRegistry registry = new PoolRegistry(null);
		ManagedPool failed = RestartingPool.of(new Restarts(2, Duration.ofMillis(840), null,
				"Could not start listener 'orders' with 3 consumers (3 tries, the last: refused); it runs with "
						+ "its 1 consumers again"));
		registry.register(failed);
		ThreadPoolsHealthIndicator indicator = new ThreadPoolsHealthIndicator(registry,
				new Tuner(registry, NanoClock.SYSTEM, () -> -1, (pool, decision) -> {
				}));
		Health health = indicator.health();
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(troubled(health)).containsExactly(Map.entry("orders", List.of("restart failed")));
		registry.unregister(failed);
		registry.register(RestartingPool.of(new Restarts(3, Duration.ofMillis(500), null)));
		assertThat(troubled(indicator.health())).isEmpty();
	}

	@Test
	void aPoolWhoseCircuitIsOpenIsNamed() {
		this.runner
			.withConfiguration(AutoConfigurations.of(CircuitBreakerAutoConfiguration.class,
					PoolpilotResilienceAutoConfiguration.class))
			.withPropertyValues("poolpilot.pools.talk.resilience.circuit-breaker=downstream")
			.run((context) -> {
				context.getBean(CircuitBreakerRegistry.class)
					.circuitBreaker("downstream")
					.transitionToForcedOpenState();
				ManagedTaskExecutor talk = context.getBean("talk", ManagedTaskExecutor.class);
				assertThatExceptionOfType(TaskRejectedException.class).isThrownBy(() -> talk.submit(() -> {
				}));
				Health health = context.getBean(ThreadPoolsHealthIndicator.class).health();
				assertThat(health.getStatus()).isEqualTo(Status.UP);
				assertThat(troubled(health)).containsExactly(Map.entry("talk", List.of("circuit open")));
			});
	}

	@Test
	void theContributionCanBeTurnedOff() {
		this.runner.withPropertyValues("management.health.threadpools.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ThreadPoolsHealthIndicator.class));
	}

	@Test
	void theContributionIsNamedThreadpools() {
		this.runner.run((context) -> assertThat(context).hasBean("threadpoolsHealthIndicator"));
	}

	@SuppressWarnings("unchecked")
	private static Map<String, List<String>> troubled(Health health) {
		return (Map<String, List<String>>) health.getDetails().get("troubled");
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
