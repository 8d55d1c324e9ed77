package io.github.poolpilot.autoconfigure;

import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.poolpilot.history.HistoryFeed;
import io.github.poolpilot.measure.NanoClock;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.pool.PoolSampler;
import io.github.poolpilot.budget.ThreadBudget;
import io.github.poolpilot.scheduling.ExistingSchedulersPostProcessor;
import io.github.poolpilot.task.ExistingExecutorsPostProcessor;
import io.github.poolpilot.task.VirtualApplicationTaskExecutorPostProcessor;
import io.github.poolpilot.tuning.Tuner;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnThreading;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.thread.Threading;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} for poolpilot's managed pools.
 *
 * @author poolpilot authors
 */
@AutoConfiguration(after = TaskExecutionAutoConfiguration.class)
@EnableConfigurationProperties({ PoolpilotProperties.class, PoolpilotUiProperties.class })
@ConditionalOnBooleanProperty(name = "poolpilot.enabled", matchIfMissing = true)
public final class PoolpilotAutoConfiguration {

	private static final Log logger = LogFactory.getLog(PoolpilotAutoConfiguration.class);

	@Bean
	static ManagedPoolsRegistrar poolpilotManagedPoolsRegistrar() {
		return new ManagedPoolsRegistrar();
	}

	@Bean
	@ConditionalOnBooleanProperty(name = "poolpilot.existing-executors.enabled", matchIfMissing = true)
	static ExistingExecutorsPostProcessor poolpilotExistingExecutorsPostProcessor(Environment environment,
			ObjectProvider<PoolRegistry> registry, BeanFactory beanFactory) {
		PoolpilotProperties properties = ManagedPoolsRegistrar.bind(environment);
		return new ExistingExecutorsPostProcessor(registry::getObject,
				() -> ManagedPoolsRegistrar.recorder(properties.getMeasurement()), properties.getExclude(),
				(own) -> ExistingExecutorsBinding.settings(environment, own, beanFactory));
	}

	/**
	 * Every ThreadPoolTaskScheduler bean, Boot's taskScheduler among them, as a managed
	 * pool whose runs are measured against when they were due.
	 */
	@Bean
	@ConditionalOnBooleanProperty(name = "poolpilot.scheduler.enabled", matchIfMissing = true)
	static ExistingSchedulersPostProcessor poolpilotExistingSchedulersPostProcessor(Environment environment,
			ObjectProvider<PoolRegistry> registry) {
		PoolpilotProperties properties = ManagedPoolsRegistrar.bind(environment);
		SchedulerProperties scheduler = properties.getScheduler();
		return new ExistingSchedulersPostProcessor(registry::getObject,
				() -> ManagedPoolsRegistrar.recorder(properties.getMeasurement()), properties.getExclude(),
				new ExistingSchedulersPostProcessor.Settings(scheduler.getMinThreads(), scheduler.getMaxThreads(),
						scheduler.getWeight()));
	}

	/**
	 * With virtual threads, Spring Boot's applicationTaskExecutor is a
	 * SimpleAsyncTaskExecutor: make it through Boot's builder as a managed one.
	 */
	@Bean
	@ConditionalOnThreading(Threading.VIRTUAL)
	@ConditionalOnBooleanProperty(name = "poolpilot.existing-executors.enabled", matchIfMissing = true)
	static VirtualApplicationTaskExecutorPostProcessor poolpilotVirtualApplicationTaskExecutorPostProcessor(
			Environment environment, BeanFactory beanFactory) {
		PoolpilotProperties properties = ManagedPoolsRegistrar.bind(environment);
		return new VirtualApplicationTaskExecutorPostProcessor(
				() -> ManagedPoolsRegistrar.recorder(properties.getMeasurement()), properties.getExclude(),
				(own) -> ExistingExecutorsBinding.settings(environment, own, beanFactory),
				properties.getExistingExecutors().getMaxConcurrency());
	}

	@Bean
	@ConditionalOnMissingBean
	PoolRegistry poolpilotPoolRegistry(PoolpilotProperties properties) {
		return new PoolRegistry(properties.getBudget().getMaxThreads());
	}

	/**
	 * Once every pool exists, the application's own executors included, make the pools'
	 * maximum sizes fit the budget, or fail start-up when even their minimums do not.
	 */
	@Bean
	SmartInitializingSingleton poolpilotBudgetCheck(PoolRegistry registry, Tuner tuner,
			PoolpilotProperties properties) {
		return () -> {
			ThreadBudget.Fit fit = registry.budget().fit();
			tuner.record(fit);
			if (fit.shortBy() > 0) {
				throw new InvalidPoolpilotPropertyException("poolpilot.budget.max-threads",
						properties.getBudget().getMaxThreads(),
						"must be at least " + fit.neededMaxThreads()
								+ " to give every managed pool, the application's own executors included, its "
								+ "min-threads (" + minimums(registry) + "); or lower their floors "
								+ "(poolpilot.pools.<name>.min-threads, poolpilot.existing-executors.<bean>.min-threads, "
								+ "poolpilot.web-server.min-threads), or exclude executors with poolpilot.exclude");
			}
		};
	}

	private static String minimums(PoolRegistry registry) {
		return registry.pools()
			.stream()
			.sorted(Comparator.comparing(ManagedPool::getName))
			.map((pool) -> pool.getName() + " " + pool.minThreads())
			.collect(Collectors.joining(" + "));
	}

	/**
	 * Once every pool exists, warn about existing-executor settings that name no managed
	 * executor: a misspelt or excluded bean name would otherwise be ignored without a
	 * word.
	 */
	@Bean
	SmartInitializingSingleton poolpilotExistingExecutorsCheck(Environment environment, PoolRegistry registry,
			ListableBeanFactory beanFactory, PoolpilotProperties properties) {
		return () -> {
			List<String> pools = registry.pools().stream().map(ManagedPool::getName).sorted().toList();
			// A lazy executor is managed once something asks for it.
			List<String> names = Stream
				.concat(pools.stream(),
						Stream.of(beanFactory.getBeanNamesForType(ThreadPoolTaskExecutor.class, true, false))
							.filter((name) -> !properties.getExclude().contains(name)))
				.toList();
			ExistingExecutorsBinding.unmatchedNames(environment, names)
				.forEach((name) -> logger.warn("'" + name + "' configures no executor: no ThreadPoolTaskExecutor bean "
						+ "of that name is managed (it is excluded, or named otherwise). The managed pools are " + pools
						+ "."));
		};
	}

	/**
	 * Once every bean exists, warn about {@code poolpilot.exclude} entries that name no
	 * bean: a misspelt name would otherwise leave the executor it meant managed without a
	 * word.
	 */
	@Bean
	SmartInitializingSingleton poolpilotExcludeCheck(ListableBeanFactory beanFactory, PoolpilotProperties properties) {
		return () -> properties.getExclude()
			.stream()
			.filter((name) -> !beanFactory.containsBean(name))
			.forEach((name) -> logger.warn("'poolpilot.exclude' names '" + name + "', which is no bean: nothing is "
					+ "left alone for it (the entries are bean names of existing executors and schedulers)."));
	}

	/**
	 * Once every bean exists, warn about declared pools that nothing reaches because
	 * async execution is not enabled.
	 */
	@Bean
	AsyncEnabledCheck poolpilotAsyncEnabledCheck(ConfigurableListableBeanFactory beanFactory,
			PoolpilotProperties properties) {
		return new AsyncEnabledCheck(beanFactory, List.copyOf(properties.getPools().keySet()));
	}

	@Bean
	PoolsConfigurationRefresher poolpilotConfigurationRefresher(Environment environment, PoolRegistry registry,
			Tuner tuner, ObjectProvider<ExistingExecutorsPostProcessor> existingExecutors) {
		return new PoolsConfigurationRefresher(environment, registry, tuner, existingExecutors::getIfAvailable);
	}

	@Bean
	@ConditionalOnMissingBean
	Tuner poolpilotTuner(PoolRegistry registry, PoolpilotProperties properties,
			ObjectProvider<Tuner.ResizeListener> listeners) {
		Tuner tuner = new Tuner(registry, NanoClock.SYSTEM, Tuner.processCpuLoad(), (pool, decision) -> {
			logger.info("Pool '" + pool.getName() + "': " + decision.reason());
			listeners.orderedStream().forEach((listener) -> listener.resized(pool, decision));
		});
		tuner.setEnabled(properties.getTuning().isEnabled());
		return tuner;
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	PoolSampler poolpilotPoolSampler(PoolRegistry registry, PoolpilotProperties properties, Tuner tuner,
			ObjectProvider<HistoryFeed> history, ObjectProvider<ExistingExecutorsPostProcessor> existingExecutors) {
		HistoryFeed feed = history.getIfAvailable();
		BoundedQueueNotice notice = new BoundedQueueNotice(registry, existingExecutors::getIfAvailable);
		Runnable afterWindow = () -> {
			tuner.tick();
			if (feed != null) {
				feed.afterWindow();
			}
			notice.afterWindow();
		};
		return new PoolSampler(registry, properties.getMeasurement().getWindow(), afterWindow,
				properties.getTuning().getFastPathInterval(), tuner::pulse);
	}

	/**
	 * Windows and pulses start with the context, after the start-up check fitted the
	 * pools to the budget: a pulse before it would share a budget that the pools sized
	 * before the application's own executors joined still overrun.
	 * @param sampler the sampler
	 * @return its lifecycle
	 */
	@Bean
	SamplerLifecycle poolpilotSamplerLifecycle(PoolSampler sampler) {
		return new SamplerLifecycle(sampler);
	}

	/**
	 * The web server's pool is a servlet server's request threads: a WebFlux application
	 * cannot honour the setting, so start-up says so rather than leave it without effect.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.REACTIVE)
	@ConditionalOnBooleanProperty("poolpilot.web-server.enabled")
	static class ReactiveWebServerConfiguration {

		@Bean
		Object poolpilotHttpPoolUnsupportedOnWebFlux() {
			throw new InvalidPoolpilotPropertyException("poolpilot.web-server.enabled", true,
					"manages the request threads of a servlet application on an embedded Tomcat or Jetty, and this "
							+ "is a WebFlux application, whose server runs requests on a few event-loop threads that "
							+ "must not block: leave the property out");
		}

	}

}
