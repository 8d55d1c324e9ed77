package io.github.poolpilot.autoconfigure;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataRepositoryJsonBuilder;

/**
 * The keys poolpilot knows, as a tree read from the configuration metadata on the
 * classpath (the generated entries and the additional ones with {@code <name>} and
 * {@code <bean>} placeholders, which stand for any one element). The metadata is the one
 * list of keys: a key added to a properties class is in it, and a test keeps the
 * placeholder entries in step with the classes. It is read with Spring Boot's metadata
 * reader, whose JSON parser is its own, so that the same keys are read whichever JSON
 * library the application has, or none.
 *
 * @author poolpilot authors
 */
final class PoolpilotKeys {

	static final String METADATA = "META-INF/spring-configuration-metadata.json";

	private final Node root = new Node("poolpilot");

	private PoolpilotKeys() {
	}

	/**
	 * Read the {@code poolpilot.*} keys of every configuration metadata file on the class
	 * path.
	 * @param classLoader where to look
	 * @return the keys, or {@code null} when no metadata names any
	 */
	static @Nullable PoolpilotKeys load(ClassLoader classLoader) {
		PoolpilotKeys keys = new PoolpilotKeys();
		try {
			ConfigurationMetadataRepositoryJsonBuilder metadata = ConfigurationMetadataRepositoryJsonBuilder.create();
			Enumeration<URL> resources = classLoader.getResources(METADATA);
			while (resources.hasMoreElements()) {
				byte[] json = read(resources.nextElement());
				if (new String(json, StandardCharsets.UTF_8).contains("\"poolpilot.")) {
					metadata.withJsonResource(new ByteArrayInputStream(json), StandardCharsets.UTF_8);
				}
			}
			// In the order of their names, as the keys are listed to a person
			new TreeMap<>(metadata.build().getAllProperties()).forEach((name, property) -> {
				if (name.startsWith("poolpilot.")) {
					keys.add(name, String.valueOf(property.getType()));
				}
			});
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read the configuration metadata", ex);
		}
		return keys.root.isGroup() ? keys : null;
	}

	private static byte[] read(URL url) throws IOException {
		try (InputStream in = url.openStream()) {
			return in.readAllBytes();
		}
	}

	/**
	 * Add a key such as {@code poolpilot.pools.<name>.max-threads}.
	 * @param key the key, in its dashed form
	 * @param type its type's name
	 */
	void add(String key, String type) {
		Node node = this.root;
		String[] elements = key.split("\\.");
		for (int i = 1; i < elements.length; i++) {
			node = node.child(elements[i]);
		}
		node.leaf = true;
		node.map = type.startsWith("java.util.Map");
	}

	/**
	 * Find where a property name leaves the known keys.
	 * @param name a name under {@code poolpilot}
	 * @param hasValue whether it has a value (a key with none may name a group, as an
	 * empty {@code talk: {}} declares a pool with every default)
	 * @return {@code null} when the name is a known key, or where it is unknown
	 */
	@Nullable Unknown find(ConfigurationPropertyName name, boolean hasValue) {
		return match(this.root, name, 1, hasValue);
	}

	private static @Nullable Unknown match(Node node, ConfigurationPropertyName name, int index, boolean hasValue) {
		if (index == name.getNumberOfElements()) {
			return (node.leaf || !hasValue) ? null : new Unknown(name, index, node, true);
		}
		if (node.leaf && (node.takesAnyKey() || name.isNumericIndex(index))) {
			return null;
		}
		Node child = name.isNumericIndex(index) ? null
				: node.children.get(uniform(name.getElement(index, Form.UNIFORM)));
		Unknown fixed = (child != null) ? match(child, name, index + 1, hasValue)
				: new Unknown(name, index, node, false);
		if (fixed == null || node.placeholder == null || name.isNumericIndex(index)) {
			return fixed;
		}
		Unknown any = match(node.placeholder, name, index + 1, hasValue);
		if (any == null) {
			return null;
		}
		// The deeper miss is the likelier typo; a name that stops at a group counts as
		// a miss one level up, where a key of that name was more likely meant.
		return (any.depth() > fixed.depth()) ? any : fixed;
	}

	static String uniform(String element) {
		return ExistingExecutorsBinding.uniform(element);
	}

	/**
	 * A node of the tree: a group of keys, or a key.
	 */
	static final class Node {

		private final String name;

		private final Map<String, Node> children = new LinkedHashMap<>();

		private @Nullable Node placeholder;

		private boolean leaf;

		private boolean map;

		Node(String name) {
			this.name = name;
		}

		private Node child(String element) {
			if (element.startsWith("<")) {
				if (this.placeholder == null) {
					this.placeholder = new Node(element);
				}
				return this.placeholder;
			}
			return this.children.computeIfAbsent(uniform(element), (key) -> new Node(element));
		}

		/**
		 * Whether any key may follow: a map-valued key without placeholder entries
		 * beneath it.
		 */
		private boolean takesAnyKey() {
			return this.map && this.children.isEmpty() && this.placeholder == null;
		}

		String name() {
			return this.name;
		}

		/**
		 * Whether keys lie beneath this node.
		 */
		boolean isGroup() {
			return !this.children.isEmpty() || this.placeholder != null;
		}

		/**
		 * Return the keys and groups this node holds, in their dashed form, a placeholder
		 * last.
		 * @return the keys
		 */
		List<String> keys() {
			List<String> keys = new ArrayList<>();
			this.children.values().forEach((child) -> keys.add(child.name));
			if (this.placeholder != null) {
				keys.add(this.placeholder.name);
			}
			return keys;
		}

		@Nullable Node get(String element) {
			return this.children.get(uniform(element));
		}

	}

	/**
	 * Where a name leaves the known keys.
	 *
	 * @param name the name
	 * @param index the index of its first unknown element, or its length when it stops at
	 * a group
	 * @param parent the known group that holds no such element
	 * @param stopsAtGroup whether the name is a group of keys given a value
	 */
	record Unknown(ConfigurationPropertyName name, int index, Node parent, boolean stopsAtGroup) {

		int depth() {
			return this.stopsAtGroup ? this.index - 1 : this.index;
		}

	}

}
