package io.github.poolpilot.autoconfigure;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.poolpilot.core.NanoClock;
import io.github.poolpilot.core.PoolRegistry;
import io.github.poolpilot.core.PoolSampler;
import io.github.poolpilot.core.TuningMode;
import io.github.poolpilot.task.ExistingExecutorsPostProcessor;
import io.github.poolpilot.task.VirtualApplicationTaskExecutorPostProcessor;
import io.github.poolpilot.tuning.Tuner;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnThreading;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.thread.Threading;
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

	private static final Log logger = LogFactory.getLog(PoolpilotAutoConfiguration.class);

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

	/**
	 * With virtual threads, Spring Boot's applicationTaskExecutor is a
	 * SimpleAsyncTaskExecutor: make it through Boot's builder as a managed one.
	 */
	@Bean
	@ConditionalOnThreading(Threading.VIRTUAL)
	@ConditionalOnBooleanProperty(name = "poolpilot.existing-executors.enabled", matchIfMissing = true)
	static VirtualApplicationTaskExecutorPostProcessor poolpilotVirtualApplicationTaskExecutorPostProcessor(
			Environment environment) {
		PoolpilotProperties properties = ManagedPoolsRegistrar.bind(environment);
		return new VirtualApplicationTaskExecutorPostProcessor(
				() -> ManagedPoolsRegistrar.recorder(properties.getMeasurement()), properties.getExclude(),
				properties.getExistingExecutors().getQueueCapacity(),
				properties.getExistingExecutors().getMaxConcurrency(),
				properties.getTuning().isEnabled() ? TuningMode.AUTO : TuningMode.OFF);
	}

	@Bean
	@ConditionalOnMissingBean
	PoolRegistry poolpilotPoolRegistry(PoolpilotProperties properties) {
		PoolRegistry registry = new PoolRegistry(properties.getBudget().getMaxThreads());
		registry.setTuningEnabled(properties.getTuning().isEnabled());
		return registry;
	}

	/**
	 * Once every pool exists, the application's own executors included, make the pools'
	 * maximum sizes fit the budget, or fail start-up when even their minimums do not.
	 */
	@Bean
	SmartInitializingSingleton poolpilotBudgetCheck(PoolRegistry registry, PoolpilotProperties properties) {
		return () -> {
			int missing = registry.fitToBudget();
			if (missing > 0) {
				throw new InvalidPoolpilotPropertyException("poolpilot.budget.max-threads",
						properties.getBudget().getMaxThreads(),
						"must be at least " + (registry.budgetMaxThreads() + missing)
								+ " to give every managed pool, the application's own executors included, its "
								+ "min-threads (or exclude executors with poolpilot.exclude)");
			}
		};
	}

	@Bean
	PoolsConfigurationRefresher poolpilotConfigurationRefresher(Environment environment, PoolRegistry registry) {
		return new PoolsConfigurationRefresher(environment, registry);
	}

	@Bean
	@ConditionalOnMissingBean
	Tuner poolpilotTuner(PoolRegistry registry, ObjectProvider<Tuner.ResizeListener> listeners) {
		return new Tuner(registry, NanoClock.SYSTEM, Tuner.processCpuLoad(), (pool, from, to, reason) -> {
			logger.info("Pool '" + pool.getName() + "': " + reason);
			listeners.orderedStream().forEach((listener) -> listener.resized(pool, from, to, reason));
		});
	}

	@Bean(initMethod = "start", destroyMethod = "close")
	@ConditionalOnMissingBean
	PoolSampler poolpilotPoolSampler(PoolRegistry registry, PoolpilotProperties properties, Tuner tuner) {
		return new PoolSampler(registry, properties.getMeasurement().getWindow(), tuner::tick);
	}

}
