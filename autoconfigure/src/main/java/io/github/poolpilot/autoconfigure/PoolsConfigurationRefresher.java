package io.github.poolpilot.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.budget.ThreadBudget.Overrun;
import io.github.poolpilot.budget.ThreadBudget.Reconfigured;
import io.github.poolpilot.pool.InvalidPoolSizeException;
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
		Map<String, PoolProperties> settingsByPool;
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
	private Map<String, PoolProperties> settingsByPool(PoolpilotProperties properties) {
		Map<String, PoolProperties> settings = new LinkedHashMap<>(properties.getPools());
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

	private void apply(PoolpilotProperties properties, Map<String, PoolProperties> settingsByPool) {
		Map<ManagedPool, PoolBounds> bounds = new LinkedHashMap<>();
		Map<ManagedPool, Reconfigured> sizes = new LinkedHashMap<>();
		Map<ManagedPool, PoolBounds> oldBounds = new LinkedHashMap<>();
		Map<ManagedPool, Integer> oldWeights = new LinkedHashMap<>();
		for (ManagedPool pool : this.registry.pools()) {
			oldBounds.put(pool, pool.getBounds());
			oldWeights.put(pool, pool.getWeight());
			PoolProperties settings = settingsByPool.get(pool.getName());
			PoolBounds newBounds = (settings != null)
					? new PoolBounds(settings.getMinThreads(), settings.getMaxThreads()) : pool.getBounds();
			bounds.put(pool, newBounds);
			sizes.put(pool, new Reconfigured(newBounds.minThreads(), pool.sizesWithin(newBounds)[1]));
		}
		Overrun overrun;
		try {
			overrun = this.registry.budget().reconfigure(properties.getBudget().getMaxThreads(), sizes, (pool) -> {
				pool.setBounds(bounds.get(pool));
				PoolProperties settings = settingsByPool.get(pool.getName());
				if (settings != null) {
					pool.setWeight(settings.getWeight());
				}
			}, (pool) -> {
				pool.setBounds(oldBounds.get(pool));
				pool.setWeight(oldWeights.get(pool));
			});
		}
		catch (InvalidPoolSizeException ex) {
			// A pool's door refused its new size: every pool has its old settings back.
			logger.error("Refused the new poolpilot configuration and kept the current one: " + ex.getMessage());
			return;
		}
		if (overrun != null) {
			logger.error("Refused the new poolpilot configuration and kept the current one: "
					+ "'poolpilot.budget.max-threads' is " + overrun.maxThreads()
					+ " but with their new bounds the pools hold " + overrun.threads()
					+ " threads, of which idle pools " + "can lend only " + overrun.lendable()
					+ "; lower the pools' sizes or max-threads first");
			return;
		}
		this.tuner.setEnabled(properties.getTuning().isEnabled());
		logger.info("Applied the new poolpilot configuration to " + bounds.size() + " pools");
	}

}
