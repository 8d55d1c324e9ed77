package io.github.poolpilot.autoconfigure;

import java.util.List;

import io.github.poolpilot.autoconfigure.ListenersProperties.ListenerPool;
import io.github.poolpilot.listener.ListenerSettings;
import io.github.poolpilot.listener.ListenerSettings.Own;
import io.github.poolpilot.pool.PoolBounds;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.env.Environment;

/**
 * The settings of each listener container's pool, by container id or bean name:
 * {@code poolpilot.listeners.<name>.*} ({@link ListenerPool}), bound over what the
 * container was made with, beside the keys of all listeners ({@code enabled},
 * {@code container-scaling}, {@code settle-factor}), which win, as
 * {@link ExistingExecutorsBinding} binds an existing executor's.
 *
 * @author poolpilot authors
 */
final class ListenersBinding implements ListenerSettings.Source {

	static final String PREFIX = "poolpilot.listeners";

	static final ConfigurationPropertyName PREFIX_NAME = ConfigurationPropertyName.of(PREFIX);

	static final List<String> GLOBAL_KEYS = List.of("enabled", "container-scaling", "settle-factor");

	private final Environment environment;

	private final boolean containerScaling;

	ListenersBinding(Environment environment, boolean containerScaling) {
		this.environment = environment;
		this.containerScaling = containerScaling;
	}

	/**
	 * Return a container's settings: its own, overridden by its configuration, checked.
	 * @param own what the container was made with
	 * @return the settings
	 * @throws InvalidPoolpilotPropertyException naming an invalid key
	 */
	@Override
	public ListenerSettings settings(Own own) {
		ListenerPool pool = new ListenerPool();
		ConfigurationPropertyName name = ExistingExecutorsBinding
			.configuredNames(this.environment, PREFIX_NAME, GLOBAL_KEYS)
			.get(ExistingExecutorsBinding.uniform(own.name()));
		if (name != null) {
			Binder.get(this.environment).bind(name, Bindable.ofInstance(pool));
		}
		String prefix = PREFIX + "." + own.name() + ".";
		int min = (pool.getMinThreads() != null) ? pool.getMinThreads() : own.concurrency();
		int max = (pool.getMaxThreads() != null) ? pool.getMaxThreads() : Math.max(min, own.maxConcurrency());
		if (min < 1) {
			throw new InvalidPoolpilotPropertyException(prefix + "min-threads", min,
					"must be at least 1: a listener container keeps at least one consumer");
		}
		if (own.exclusive() && min > 1) {
			throw new InvalidPoolpilotPropertyException(prefix + "min-threads", min,
					"must be 1: the container's consumer is exclusive, so it has exactly one");
		}
		if (max < min) {
			throw new InvalidPoolpilotPropertyException(prefix + "max-threads", max,
					"must be at least min-threads (" + min + "; unless set, min-threads is the container's "
							+ "concurrency, " + own.concurrency() + ")");
		}
		if (own.exclusive() && max > 1) {
			throw new InvalidPoolpilotPropertyException(prefix + "max-threads", max,
					"must be 1: the container's consumer is exclusive, so it has exactly one");
		}
		Integer initial = pool.getInitialThreads();
		if (initial != null && (initial < min || initial > max)) {
			throw new InvalidPoolpilotPropertyException(prefix + "initial-threads", initial,
					"must be between min-threads (" + min + ") and max-threads (" + max + ")");
		}
		if (pool.getWeight() < 1) {
			throw new InvalidPoolpilotPropertyException(prefix + "weight", pool.getWeight(), "must be at least 1");
		}
		return new ListenerSettings(new PoolBounds(min, max), (initial != null) ? initial : min, pool.getWeight(),
				this.containerScaling);
	}

}
