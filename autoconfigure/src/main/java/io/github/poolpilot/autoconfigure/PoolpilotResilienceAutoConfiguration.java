package io.github.poolpilot.autoconfigure;

import java.util.List;
import java.util.function.Function;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.timelimiter.TimeLimiter;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.autoconfigure.PoolProperties.Resilience;
import io.github.poolpilot.guard.TaskGuardProvider;
import io.github.poolpilot.guard.TaskTimeouts;
import io.github.poolpilot.resilience.CircuitBreakerGuard;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} for Resilience4j on managed pools: a pool whose
 * {@code resilience.circuit-breaker} names a circuit breaker puts its tasks through it,
 * and one whose {@code resilience.time-limiter} names a time limiter times its tasks out
 * after that limiter's timeout. The instances come from Resilience4j's own registries
 * (configured under {@code resilience4j.*}), or from default registries when
 * {@code resilience4j-spring-boot4} is not there to make them.
 *
 * @author poolpilot authors
 */
@AutoConfiguration(
		afterName = { "io.github.resilience4j.springboot.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration",
				"io.github.resilience4j.springboot.timelimiter.autoconfigure.TimeLimiterAutoConfiguration" })
@ConditionalOnBooleanProperty(name = "poolpilot.enabled", matchIfMissing = true)
public final class PoolpilotResilienceAutoConfiguration {

	private static final Log logger = LogFactory.getLog(PoolpilotResilienceAutoConfiguration.class);

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(CircuitBreaker.class)
	static final class CircuitBreakerGuards {

		@Bean
		@Order(0)
		TaskGuardProvider poolpilotCircuitBreakerGuards(PoolpilotProperties properties, Environment environment,
				ObjectProvider<CircuitBreakerRegistry> registry) {
			return (name, pool) -> {
				String circuitBreaker = named(properties, environment, name, Resilience::getCircuitBreaker);
				if (circuitBreaker == null) {
					return List.of();
				}
				CircuitBreakerRegistry configured = registry.getIfAvailable();
				if (configured == null) {
					return List.of(new CircuitBreakerGuard(pool,
							CircuitBreakerRegistry.ofDefaults().circuitBreaker(circuitBreaker)));
				}
				if (configured.find(circuitBreaker).isEmpty()) {
					// Made with the defaults, as @CircuitBreaker(name = ...) does; a
					// misspelt name should not go unnoticed.
					logger.warn("Pool '" + name + "': no circuit breaker '" + circuitBreaker
							+ "' is configured under resilience4j.circuitbreaker.instances; it gets Resilience4j's "
							+ "defaults (the configured circuit breakers are " + names(configured) + ")");
				}
				return List.of(new CircuitBreakerGuard(pool, configured.circuitBreaker(circuitBreaker)));
			};
		}

		/**
		 * Here, not on the outer class, whose methods must name no Resilience4j type: it
		 * is introspected without Resilience4j on the class path too.
		 */
		private static List<String> names(CircuitBreakerRegistry registry) {
			return registry.getAllCircuitBreakers().stream().map(CircuitBreaker::getName).sorted().toList();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(TimeLimiter.class)
	static final class TimeLimiterGuards {

		/**
		 * Last: a timeout holds a watch on each running task.
		 */
		@Bean
		@Order(Ordered.LOWEST_PRECEDENCE)
		TaskGuardProvider poolpilotTimeLimiterGuards(PoolpilotProperties properties, Environment environment,
				ObjectProvider<TimeLimiterRegistry> registry) {
			return (name, pool) -> {
				String timeLimiter = named(properties, environment, name, Resilience::getTimeLimiter);
				if (timeLimiter == null) {
					return List.of();
				}
				TimeLimiterRegistry timeLimiters = registry.getIfAvailable(TimeLimiterRegistry::ofDefaults);
				// Asked for an unknown name, the registry would make a limiter of 1 s.
				TimeLimiter limiter = timeLimiters.find(timeLimiter).orElseThrow(() -> {
					String prefix = (properties.getPools().containsKey(name) ? "poolpilot.pools."
							: ExistingExecutorsBinding.PREFIX + ".") + name + ".resilience.";
					return new InvalidPoolpilotPropertyException(prefix + "time-limiter", timeLimiter,
							"the name of a time limiter under resilience4j.timelimiter.instances (or " + prefix
									+ "timeout for a timeout of its own)");
				});
				return List.of(new TaskTimeouts(pool, limiter.getTimeLimiterConfig().getTimeoutDuration()));
			};
		}

	}

	/**
	 * Return the Resilience4j instance a pool's setting names, if any.
	 */
	private static @Nullable String named(PoolpilotProperties properties, Environment environment, String pool,
			Function<Resilience, @Nullable String> setting) {
		PoolProperties settings = properties.getPools().get(pool);
		if (settings == null) {
			settings = ExistingExecutorsBinding.configured(environment, pool);
		}
		return (settings != null) ? setting.apply(settings.getResilience()) : null;
	}

}
