package io.github.poolpilot.autoconfigure;

import io.github.poolpilot.actuate.ThreadPoolsHealthIndicator;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.tuning.Tuner;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} for the {@code threadpools} health contribution, which names the
 * pools in trouble without taking the application down
 * ({@code management.health.threadpools.enabled=false} turns it off).
 *
 * @author poolpilot authors
 */
@AutoConfiguration(after = PoolpilotAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnEnabledHealthIndicator("threadpools")
@ConditionalOnBooleanProperty(name = "poolpilot.enabled", matchIfMissing = true)
public final class PoolpilotHealthAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "threadpoolsHealthIndicator")
	@ConditionalOnBean({ PoolRegistry.class, Tuner.class })
	ThreadPoolsHealthIndicator threadpoolsHealthIndicator(PoolRegistry registry, Tuner tuner) {
		return new ThreadPoolsHealthIndicator(registry, tuner);
	}

}
