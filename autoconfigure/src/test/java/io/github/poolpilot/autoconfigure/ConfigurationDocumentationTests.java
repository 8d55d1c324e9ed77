package io.github.poolpilot.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checks that the table of all properties in docs/configuration.md documents every
 * {@code poolpilot.*} property, and nothing else: the properties come from the generated
 * configuration metadata, whose entries {@link ConfigurationMetadataTests} checks against
 * the properties classes ({@code <name>} and {@code <bean>} standing for any name).
 *
 * @author poolpilot authors
 */
class ConfigurationDocumentationTests {

	private static final Path DOCUMENT = Path.of("..", "docs", "configuration.md");

	@Test
	void everyPropertyIsDocumentedAndEveryDocumentedPropertyExists() throws IOException {
		assertThat(documentedKeys()).isEqualTo(properties());
	}

	private static Set<String> properties() throws IOException {
		Set<String> properties = new TreeSet<>();
		try (InputStream metadata = ConfigurationDocumentationTests.class
			.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			assertThat(metadata).as("the generated configuration metadata").isNotNull();
			for (JsonNode property : JsonMapper.builder().build().readTree(metadata).get("properties")) {
				String name = property.get("name").asString();
				if (name.startsWith("poolpilot.") && !name.equals("poolpilot.pools")) {
					properties.add(name.replaceAll("<[a-z]+>", "*"));
				}
			}
		}
		return properties;
	}

	/**
	 * The keys in the first column of the document's table of all properties, with each
	 * pool's name as {@code *}.
	 */
	private static Set<String> documentedKeys() throws IOException {
		Matcher row = Pattern.compile("^\\| `(poolpilot\\.[^`]+)` \\|", Pattern.MULTILINE)
			.matcher(Files.readString(DOCUMENT));
		Set<String> keys = new TreeSet<>();
		while (row.find()) {
			keys.add(row.group(1).replace("<name>", "*").replace("<bean>", "*"));
		}
		return keys;
	}

}
