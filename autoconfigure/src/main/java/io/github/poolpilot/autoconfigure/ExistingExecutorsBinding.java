package io.github.poolpilot.autoconfigure;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.task.ExistingExecutorSettings;
import io.github.poolpilot.task.ExistingExecutorSettings.Own;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;

/**
 * The settings of each existing executor, by bean name:
 * {@code poolpilot.existing-executors.<bean>.*}, the same keys as a declared pool's
 * ({@link PoolProperties}), bound over what the executor was made with. Unset keys keep
 * the executor's own settings: {@code min-threads} is its core size (the core size is a
 * floor: the tuner never shrinks the pool below what the application asked to keep),
 * {@code max-threads} its maximum size ({@code Integer.MAX_VALUE} brought down to the
 * core size), {@code queue-capacity} its queue's
 * ({@code existing-executors.queue-capacity} when unbounded), {@code keep-alive} its own.
 * <p>
 * The keys of all existing executors ({@code enabled}, {@code queue-capacity},
 * {@code max-concurrency}) live at the same level and win: a bean named like one of them
 * cannot be configured here, and such a configuration fails start-up saying so. Boot's
 * binder cannot bind a map beside a class's own properties, so these entries are found
 * among the configuration's property names and each is bound onto its executor's own
 * settings.
 *
 * @author poolpilot authors
 */
final class ExistingExecutorsBinding {

	static final String PREFIX = "poolpilot.existing-executors";

	private static final ConfigurationPropertyName PREFIX_NAME = ConfigurationPropertyName.of(PREFIX);

	private static final List<String> GLOBAL_KEYS = List.of("enabled", "queue-capacity", "max-concurrency");

	private ExistingExecutorsBinding() {
	}

	/**
	 * Return how an existing executor is managed: its own settings, overridden by its
	 * configuration, checked as a declared pool's are.
	 * @param environment the environment
	 * @param own what the executor was made with
	 * @param beanFactory where the guard providers are found
	 * @return the settings
	 * @throws InvalidPoolpilotPropertyException naming an invalid key
	 */
	static ExistingExecutorSettings settings(Environment environment, Own own, BeanFactory beanFactory) {
		PoolpilotProperties properties = ManagedPoolsRegistrar.bind(environment);
		String beanName = own.beanName();
		ConfigurationPropertyName name = configuredNames(environment).get(uniform(beanName));
		PoolProperties pool = pool(environment, own, properties.getExistingExecutors().getQueueCapacity(), name);
		PoolBounds bounds = new PoolBounds(pool.getMinThreads(), pool.getMaxThreads());
		int core = bounds.clamp(own.corePoolSize());
		int max = Math.max(core, bounds.clamp(own.maxPoolSize()));
		Duration wholeSeconds = ManagedPoolsRegistrar.keepAlive(pool);
		Duration keepAlive = wholeSeconds.equals(Duration.ofSeconds(own.keepAliveSeconds())) ? null : wholeSeconds;
		Duration awaitTermination = (name != null) ? Binder.get(environment)
			.bind(name.append("await-termination"), Bindable.of(Duration.class))
			.orElse(null) : null;
		return new ExistingExecutorSettings(bounds, core, max, pool.getQueueCapacity(), keepAlive, awaitTermination,
				pool.getWeight(), (managed) -> ManagedPoolsRegistrar.guards(beanName, pool, managed, beanFactory));
	}

	/**
	 * Return an existing executor's settings as a pool's: its own, overridden by its
	 * configuration, checked.
	 * @param environment the environment
	 * @param own what the executor was made with
	 * @param defaultQueueCapacity the capacity given to an unbounded queue
	 * @return the settings
	 */
	static PoolProperties pool(Environment environment, Own own, int defaultQueueCapacity) {
		return pool(environment, own, defaultQueueCapacity, configuredNames(environment).get(uniform(own.beanName())));
	}

	private static PoolProperties pool(Environment environment, Own own, int defaultQueueCapacity,
			@Nullable ConfigurationPropertyName name) {
		PoolProperties pool = new PoolProperties();
		int core = Math.max(0, own.corePoolSize());
		pool.setMinThreads(core);
		pool.setMaxThreads((own.maxPoolSize() == Integer.MAX_VALUE) ? Math.max(1, core) : own.maxPoolSize());
		pool.setQueueCapacity(own.unboundedQueue() ? defaultQueueCapacity : Math.max(0, own.queueCapacity()));
		pool.setKeepAlive(Duration.ofSeconds(own.keepAliveSeconds()));
		if (name != null) {
			Binder.get(environment).bind(name, Bindable.ofInstance(pool));
		}
		PoolpilotPropertiesValidator.validateExisting(PREFIX + "." + own.beanName() + ".", pool, own);
		return pool;
	}

	/**
	 * Return the configuration of one existing executor over a declared pool's defaults,
	 * for the settings that do not depend on the executor's own (rejection status,
	 * resilience).
	 * @param environment the environment
	 * @param beanName the executor's bean name
	 * @return its configuration, or {@code null} when it has none
	 */
	static @Nullable PoolProperties configured(Environment environment, String beanName) {
		ConfigurationPropertyName name = configuredNames(environment).get(uniform(beanName));
		if (name == null) {
			return null;
		}
		PoolProperties pool = new PoolProperties();
		Binder.get(environment).bind(name, Bindable.ofInstance(pool));
		return pool;
	}

	/**
	 * Fail when a key of all existing executors is used as a bean name, for an executor
	 * that cannot be configured there.
	 * @param environment the environment
	 * @throws InvalidPoolpilotPropertyException naming the key
	 */
	static void checkNoBeanIsNamedLikeAGlobalKey(Environment environment) {
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (!(source instanceof IterableConfigurationPropertySource iterable)) {
				continue;
			}
			iterable.stream().filter(ExistingExecutorsBinding::isBeanKey).forEach((property) -> {
				String key = property.getElement(PREFIX_NAME.getNumberOfElements(), Form.DASHED);
				if (GLOBAL_KEYS.contains(key)) {
					ConfigurationProperty value = source.getConfigurationProperty(property);
					throw new InvalidPoolpilotPropertyException(property.toString(),
							(value != null) ? value.getValue() : null,
							"'" + PREFIX + "." + key + "' is a setting of every existing executor, so an executor "
									+ "named '" + key + "' cannot be configured under it: rename the bean, or "
									+ "declare it as a pool (poolpilot.pools." + key + ")");
				}
			});
		}
	}

	/**
	 * Return the configured existing executors' names, by their uniform form (lower case,
	 * letters and digits), each as the name its keys are bound under.
	 */
	static Map<String, ConfigurationPropertyName> configuredNames(Environment environment) {
		return configuredNames(environment, PREFIX_NAME, GLOBAL_KEYS);
	}

	/**
	 * Return the configured existing executors' names that match none of the given names,
	 * each as the name its keys are bound under.
	 * @param environment the environment
	 * @param names the names that exist
	 * @return the configured names that match none of them
	 */
	static List<ConfigurationPropertyName> unmatchedNames(Environment environment, Collection<String> names) {
		return unmatchedNames(environment, PREFIX_NAME, GLOBAL_KEYS, names);
	}

	/**
	 * Return the names configured under a prefix beside its own keys that match none of
	 * the given names in their uniform form, each as the name its keys are bound under:
	 * the misspelt ones, to warn about.
	 * @param environment the environment
	 * @param prefix the prefix, such as {@code poolpilot.existing-executors}
	 * @param globalKeys the prefix's own keys, which name nothing
	 * @param names the names that exist
	 * @return the configured names that match none of them
	 */
	static List<ConfigurationPropertyName> unmatchedNames(Environment environment, ConfigurationPropertyName prefix,
			List<String> globalKeys, Collection<String> names) {
		Set<String> uniformNames = names.stream().map(ExistingExecutorsBinding::uniform).collect(Collectors.toSet());
		return configuredNames(environment, prefix, globalKeys).entrySet()
			.stream()
			.filter((configured) -> !uniformNames.contains(configured.getKey()))
			.map(Map.Entry::getValue)
			.toList();
	}

	/**
	 * Return the names configured under a prefix beside its own keys, by their uniform
	 * form, each as the name its keys are bound under.
	 * @param environment the environment
	 * @param prefix the prefix, such as {@code poolpilot.existing-executors}
	 * @param globalKeys the prefix's own keys, which name nothing
	 * @return the names
	 */
	static Map<String, ConfigurationPropertyName> configuredNames(Environment environment,
			ConfigurationPropertyName prefix, List<String> globalKeys) {
		Map<String, ConfigurationPropertyName> names = new LinkedHashMap<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				iterable.stream().filter((property) -> isNamedKey(prefix, property)).forEach((property) -> {
					ConfigurationPropertyName bean = property.chop(prefix.getNumberOfElements() + 1);
					String key = bean.getLastElement(Form.DASHED);
					if (!globalKeys.contains(key)) {
						names.putIfAbsent(uniform(bean.getLastElement(Form.ORIGINAL)), bean);
					}
				});
			}
		}
		return names;
	}

	/**
	 * Whether a property sets a key of one executor: a descendant of
	 * {@code poolpilot.existing-executors} two or more levels down.
	 */
	private static boolean isBeanKey(ConfigurationPropertyName property) {
		return isNamedKey(PREFIX_NAME, property);
	}

	private static boolean isNamedKey(ConfigurationPropertyName prefix, ConfigurationPropertyName property) {
		return prefix.isAncestorOf(property) && property.getNumberOfElements() > prefix.getNumberOfElements() + 1;
	}

	/**
	 * A bean name as relaxed binding compares it: {@code reportExecutor},
	 * {@code report-executor} and {@code REPORTEXECUTOR} are one.
	 */
	static String uniform(String name) {
		return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
	}

}
