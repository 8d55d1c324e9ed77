package io.github.poolpilot.autoconfigure;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.WeakHashMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.autoconfigure.PoolpilotKeys.Node;
import io.github.poolpilot.autoconfigure.PoolpilotKeys.Unknown;
import io.github.poolpilot.autoconfigure.UnknownPoolpilotPropertyException.UnknownKey;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.origin.SystemEnvironmentOrigin;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.core.env.Environment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.util.ClassUtils;

/**
 * Fails start-up on a {@code poolpilot.*} key that poolpilot does not have, naming the
 * nearest one it has: Spring Boot's binder ignores unknown keys, so a typo such as
 * {@code max-thread} would otherwise leave a default in place without a word. Every
 * property source that a person writes (files, command-line arguments, system properties,
 * test properties) is read through Spring Boot's configuration property names, so relaxed
 * forms ({@code maxThreads}) are matched as the binder matches them. Environment
 * variables are only warned about, in one line: a deployment sets {@code POOLPILOT_*}
 * variables that are not meant for poolpilot (Kubernetes gives every pod
 * {@code POOLPILOT_SERVICE_HOST}, {@code POOLPILOT_PORT}... when a Service is named
 * {@code poolpilot}), and Spring Boot ignores the variables it has no use for.
 *
 * @author poolpilot authors
 */
final class UnknownKeysCheck {

	private static final Log logger = LogFactory.getLog(UnknownKeysCheck.class);

	private static final ConfigurationPropertyName PREFIX = ConfigurationPropertyName.of("poolpilot");

	/**
	 * The environments already warned about: the properties are bound several times at
	 * start-up, and the warning is said once.
	 */
	private static final Set<Environment> warned = Collections
		.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

	private UnknownKeysCheck() {
	}

	/**
	 * Fail when a property source that a person writes has a key under {@code poolpilot}
	 * that is not known; warn once about unknown environment variables.
	 * @param environment the environment
	 * @throws UnknownPoolpilotPropertyException naming every unknown key
	 */
	static void check(Environment environment) {
		ClassLoader classLoader = ClassUtils.getDefaultClassLoader();
		PoolpilotKeys keys = (classLoader != null) ? PoolpilotKeys.load(classLoader) : null;
		if (keys == null) {
			return;
		}
		Map<String, UnknownKey> unknown = new LinkedHashMap<>();
		Set<String> variables = new TreeSet<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				boolean fromEnvironment = source.getUnderlyingSource() instanceof SystemEnvironmentPropertySource;
				iterable.stream().filter(PREFIX::isAncestorOf).forEach((name) -> {
					ConfigurationProperty property = source.getConfigurationProperty(name);
					Object value = (property != null) ? property.getValue() : null;
					Unknown miss = keys.find(name, value != null && !"".equals(value));
					if (miss == null) {
						return;
					}
					Origin origin = (property != null) ? property.getOrigin() : null;
					if (fromEnvironment) {
						variables.add(variable(origin, name));
					}
					else {
						unknown.putIfAbsent(name.toString(),
								describe(miss, (origin != null) ? String.valueOf(origin) : null));
					}
				});
			}
		}
		if (!unknown.isEmpty()) {
			throw new UnknownPoolpilotPropertyException(new ArrayList<>(unknown.values()));
		}
		if (!variables.isEmpty() && warned.add(environment)) {
			logger.warn("Environment variables " + variables + " name no poolpilot key and are ignored (a "
					+ "Kubernetes Service named poolpilot sets such variables; if one was meant for poolpilot, its "
					+ "keys are listed in the configuration metadata)");
		}
	}

	/**
	 * Return the name of an environment variable as it was set.
	 */
	private static String variable(@Nullable Origin origin, ConfigurationPropertyName name) {
		if (origin instanceof SystemEnvironmentOrigin variable) {
			return variable.getProperty();
		}
		return (origin instanceof PropertySourceOrigin variable) ? variable.getPropertyName() : name.toString();
	}

	private static UnknownKey describe(Unknown miss, @Nullable String origin) {
		ConfigurationPropertyName name = miss.name();
		Node parent = miss.parent();
		String property = join(name, 0, name.getNumberOfElements());
		if (miss.stopsAtGroup()) {
			return new UnknownKey(property, origin, property, null, null, parent.keys());
		}
		String group = join(name, 0, miss.index());
		String element = name.getElement(miss.index(), Form.ORIGINAL);
		Node nearest = nearest(parent, name.getElement(miss.index(), Form.UNIFORM));
		String suggestion = null;
		if (nearest != null) {
			suggestion = group + "." + nearest.name();
			String rest = join(name, miss.index() + 1, name.getNumberOfElements());
			if (nearest.isGroup() && !rest.isEmpty()) {
				suggestion += (rest.startsWith("[") ? "" : ".") + rest;
			}
		}
		return new UnknownKey(property, origin, group, element, suggestion, parent.keys());
	}

	/**
	 * Return the known key closest to an element (Levenshtein distance on the uniform
	 * forms), if one is close enough to be a likely typo.
	 */
	private static @Nullable Node nearest(Node parent, String element) {
		return parent.keys()
			.stream()
			.map(parent::get)
			.filter((node) -> node != null)
			.min(Comparator.comparingInt((Node node) -> distance(PoolpilotKeys.uniform(node.name()), element)))
			.filter((
					node) -> distance(PoolpilotKeys.uniform(node.name()), element) <= Math.max(2, element.length() / 3))
			.orElse(null);
	}

	private static String join(ConfigurationPropertyName name, int from, int to) {
		StringBuilder joined = new StringBuilder();
		for (int i = from; i < to; i++) {
			String element = name.getElement(i, Form.ORIGINAL);
			if (name.isNumericIndex(i)) {
				joined.append('[').append(element).append(']');
			}
			else {
				joined.append((joined.length() > 0) ? "." : "").append(element);
			}
		}
		return joined.toString();
	}

	static int distance(String a, String b) {
		int[] previous = new int[b.length() + 1];
		int[] current = new int[b.length() + 1];
		for (int j = 0; j <= b.length(); j++) {
			previous[j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			current[0] = i;
			for (int j = 1; j <= b.length(); j++) {
				int substitution = previous[j - 1] + ((a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1);
				current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return previous[b.length()];
	}

}
