package io.github.poolpilot.autoconfigure;

import io.github.poolpilot.core.PoolRegistry;
import io.github.poolpilot.core.PoolSampler;
import io.github.poolpilot.core.TuningMode;
import io.github.poolpilot.task.ExistingExecutorsPostProcessor;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

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
	@ConditionalOnBooleanProperty(name = "poolpilot.existing-executors.enabled", matchIfMissing = true)
	static ExistingExecutorsPostProcessor poolpilotExistingExecutorsPostProcessor(Environment environment,
			ObjectProvider<PoolRegistry> registry) {
		PoolpilotProperties properties = ManagedPoolsRegistrar.bind(environment);
		return new ExistingExecutorsPostProcessor(registry::getObject,
				() -> ManagedPoolsRegistrar.recorder(properties.getMeasurement()), properties.getExclude(),
				properties.getExistingExecutors().getQueueCapacity(),
				properties.getTuning().isEnabled() ? TuningMode.AUTO : TuningMode.OFF);
	}

	@Bean
	@ConditionalOnMissingBean
	PoolRegistry poolpilotPoolRegistry(PoolpilotProperties properties) {
		return new PoolRegistry(properties.getBudget().getMaxThreads());
	}

	@Bean
	PoolsConfigurationRefresher poolpilotConfigurationRefresher(Environment environment, PoolRegistry registry) {
		return new PoolsConfigurationRefresher(environment, registry);
	}

	@Bean(initMethod = "start", destroyMethod = "close")
	@ConditionalOnMissingBean
	PoolSampler poolpilotPoolSampler(PoolRegistry registry, PoolpilotProperties properties) {
		return new PoolSampler(registry, properties.getMeasurement().getWindow());
	}

}
