package io.github.poolpilot.autoconfigure;

import io.github.poolpilot.core.PoolRegistry;
import io.github.poolpilot.core.PoolSampler;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} for poolpilot's managed pools.
 *
 * @author poolpilot authors
 */
@AutoConfiguration(after = TaskExecutionAutoConfiguration.class)
@EnableConfigurationProperties(PoolpilotProperties.class)
public final class PoolpilotAutoConfiguration {

	@Bean
	static ManagedPoolsRegistrar poolpilotManagedPoolsRegistrar() {
		return new ManagedPoolsRegistrar();
	}

	@Bean
	@ConditionalOnMissingBean
	PoolRegistry poolpilotPoolRegistry(PoolpilotProperties properties) {
		return new PoolRegistry(properties.effectiveBudget());
	}

	@Bean(initMethod = "start", destroyMethod = "close")
	@ConditionalOnMissingBean
	PoolSampler poolpilotPoolSampler(PoolRegistry registry, PoolpilotProperties properties) {
		return new PoolSampler(registry, properties.getMeasurement().getWindow());
	}

}
