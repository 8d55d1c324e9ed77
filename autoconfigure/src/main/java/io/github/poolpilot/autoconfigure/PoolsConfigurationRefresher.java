package io.github.poolpilot.autoconfigure;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.autoconfigure.PoolpilotProperties.Pool;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.task.ExistingExecutorSettings;
import io.github.poolpilot.task.ExistingExecutorsPostProcessor;
import io.github.poolpilot.tuning.Tuner;
import io.github.poolpilot.webserver.HttpPool;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.Environment;

/**
 * Re-reads {@code poolpilot.*} when the application's configuration changes at runtime
 * (Spring Cloud's {@code EnvironmentChangeEvent}, sent by a Config Server or a Kubernetes
 * ConfigMap refresh) and applies the pools' bounds and weights (a declared pool's, and an
 * existing executor's, {@code poolpilot.existing-executors.<bean>.*}, and the web
 * server's pool's, {@code poolpilot.web-server.*}), the budget and the tuning switch
 * without a restart. New values are checked as at start-up and applied all together or
 * not at all: invalid ones are refused with a logged error and the old ones kept. The
 * event is recognised by name so that Spring Cloud stays optional.
 *
 * @author poolpilot authors
 */
class PoolsConfigurationRefresher implements ApplicationListener<ApplicationEvent> {

	static final String ENVIRONMENT_CHANGE_EVENT = "org.springframework.cloud.context.environment.EnvironmentChangeEvent";

	private static final Log logger = LogFactory.getLog(PoolsConfigurationRefresher.class);

	private final Environment environment;

	private final PoolRegistry registry;

	private final Tuner tuner;

	private final Supplier<@Nullable ExistingExecutorsPostProcessor> existingExecutors;

	PoolsConfigurationRefresher(Environment environment, PoolRegistry registry, Tuner tuner,
			Supplier<@Nullable ExistingExecutorsPostProcessor> existingExecutors) {
		this.environment = environment;
		this.registry = registry;
		this.tuner = tuner;
		this.existingExecutors = existingExecutors;
	}

	@Override
	public void onApplicationEvent(ApplicationEvent event) {
		if (ENVIRONMENT_CHANGE_EVENT.equals(event.getClass().getName())) {
			refresh();
		}
	}

	void refresh() {
		PoolpilotProperties properties;
		Map<String, Pool> settingsByPool;
		try {
			properties = ManagedPoolsRegistrar.bind(this.environment);
			settingsByPool = settingsByPool(properties);
		}
		catch (RuntimeException ex) {
			logger.error("Refused the new poolpilot configuration and kept the current one: " + ex.getMessage());
			return;
		}
		this.registry.budget().change(() -> apply(properties, settingsByPool));
	}

	/**
	 * Each pool's settings: a declared pool's, or an existing executor's own settings
	 * with its configuration applied over them again.
	 */
	private Map<String, Pool> settingsByPool(PoolpilotProperties properties) {
		Map<String, Pool> settings = new LinkedHashMap<>(properties.getPools());
		if (properties.getWebServer().isEnabled() && this.registry.get(HttpPool.NAME) != null) {
			settings.putIfAbsent(HttpPool.NAME, properties.getWebServer());
		}
		ExistingExecutorsPostProcessor existingExecutors = this.existingExecutors.get();
		if (existingExecutors != null) {
			for (ManagedPool pool : this.registry.pools()) {
				ExistingExecutorSettings.Own own = existingExecutors.ownSettings(pool.getName());
				if (own != null && !settings.containsKey(pool.getName())) {
					settings.put(pool.getName(), ExistingExecutorsBinding.pool(this.environment, own,
							properties.getExistingExecutors().getQueueCapacity()));
				}
			}
		}
		return settings;
	}

	private void apply(PoolpilotProperties properties, Map<String, Pool> settingsByPool) {
		Map<ManagedPool, PoolBounds> bounds = new LinkedHashMap<>();
		int allocated = 0;
		for (ManagedPool pool : this.registry.pools()) {
			Pool settings = settingsByPool.get(pool.getName());
			PoolBounds newBounds = (settings != null)
					? new PoolBounds(settings.getMinThreads(), settings.getMaxThreads()) : pool.getBounds();
			bounds.put(pool, newBounds);
			allocated += pool.sizesWithin(newBounds)[1];
		}
		Integer budget = properties.getBudget().getMaxThreads();
		if (budget != null && allocated > budget) {
			logger.error("Refused the new poolpilot configuration and kept the current one: "
					+ "'poolpilot.budget.max-threads' is " + budget + " but the pools' new bounds let them grow to "
					+ allocated + " threads; lower the pools' sizes or max-threads first");
			return;
		}
		// A larger budget first and a smaller one last, the pools that shrink before
		// those
		// that grow: every step stays within the budget of its moment.
		Integer current = this.registry.budget().getConfiguredMaxThreads();
		boolean larger = budget == null || (current != null && budget >= current);
		if (larger) {
			this.registry.budget().setMaxThreads(budget);
		}
		List<ManagedPool> byGrowth = new ArrayList<>(bounds.keySet());
		byGrowth.sort(Comparator.comparingInt((pool) -> pool.sizesWithin(bounds.get(pool))[1] - pool.maxPoolSize()));
		for (ManagedPool pool : byGrowth) {
			pool.setBounds(bounds.get(pool));
			Pool settings = settingsByPool.get(pool.getName());
			if (settings != null) {
				pool.setWeight(settings.getWeight());
			}
		}
		if (!larger) {
			this.registry.budget().setMaxThreads(budget);
		}
		this.tuner.setEnabled(properties.getTuning().isEnabled());
		logger.info("Applied the new poolpilot configuration to " + bounds.size() + " pools");
	}

}
