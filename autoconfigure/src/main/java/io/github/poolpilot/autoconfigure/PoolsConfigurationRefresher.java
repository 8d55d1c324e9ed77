package io.github.poolpilot.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.poolpilot.autoconfigure.PoolpilotProperties.Pool;
import io.github.poolpilot.core.ManagedPool;
import io.github.poolpilot.core.PoolBounds;
import io.github.poolpilot.core.PoolRegistry;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.Environment;

/**
 * Re-reads {@code poolpilot.*} when the application's configuration changes at runtime
 * (Spring Cloud's {@code EnvironmentChangeEvent}, sent by a Config Server or a Kubernetes
 * ConfigMap refresh) and applies the pools' bounds and weights, the budget and the tuning
 * switch without a restart. New values are checked as at start-up and applied all
 * together or not at all: invalid ones are refused with a logged error and the old ones
 * kept. The event is recognised by name so that Spring Cloud stays optional.
 *
 * @author poolpilot authors
 */
class PoolsConfigurationRefresher implements ApplicationListener<ApplicationEvent> {

	static final String ENVIRONMENT_CHANGE_EVENT = "org.springframework.cloud.context.environment.EnvironmentChangeEvent";

	private static final Log logger = LogFactory.getLog(PoolsConfigurationRefresher.class);

	private final Environment environment;

	private final PoolRegistry registry;

	PoolsConfigurationRefresher(Environment environment, PoolRegistry registry) {
		this.environment = environment;
		this.registry = registry;
	}

	@Override
	public void onApplicationEvent(ApplicationEvent event) {
		if (ENVIRONMENT_CHANGE_EVENT.equals(event.getClass().getName())) {
			refresh();
		}
	}

	void refresh() {
		PoolpilotProperties properties;
		try {
			properties = ManagedPoolsRegistrar.bind(this.environment);
		}
		catch (RuntimeException ex) {
			logger.error("Refused the new poolpilot configuration and kept the current one: " + ex.getMessage());
			return;
		}
		synchronized (this.registry) {
			apply(properties);
		}
	}

	private void apply(PoolpilotProperties properties) {
		Map<ManagedPool, PoolBounds> bounds = new LinkedHashMap<>();
		int allocated = 0;
		for (ManagedPool pool : this.registry.pools()) {
			Pool settings = properties.getPools().get(pool.getName());
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
		bounds.forEach((pool, newBounds) -> {
			pool.setBounds(newBounds);
			Pool settings = properties.getPools().get(pool.getName());
			if (settings != null) {
				pool.setWeight(settings.getWeight());
			}
		});
		this.registry.setBudget(budget);
		this.registry.setTuningEnabled(properties.getTuning().isEnabled());
		logger.info("Applied the new poolpilot configuration to " + bounds.size() + " pools");
	}

}
