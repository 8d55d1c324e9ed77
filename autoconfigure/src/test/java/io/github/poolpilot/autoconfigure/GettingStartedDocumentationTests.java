package io.github.poolpilot.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that docs/getting-started.md shows the example application's files as they are:
 * the application its commands build and run (in CI) is the one the page shows.
 *
 * @author poolpilot authors
 */
class GettingStartedDocumentationTests {

	private static final Path DOCUMENT = Path.of("..", "docs", "getting-started.md");

	private static final Path EXAMPLE = Path.of("..", "examples", "getting-started");

	private static final Pattern BLOCK = Pattern.compile("```(xml|java|yaml)\\n(.*?)```", Pattern.DOTALL);

	@Test
	void thePageShowsTheExampleFilesAsTheyAre() throws IOException {
		List<String> blocks = new ArrayList<>();
		Matcher matcher = BLOCK.matcher(Files.readString(DOCUMENT));
		while (matcher.find()) {
			blocks.add(matcher.group(2));
		}
		assertThat(blocks).containsExactly(Files.readString(EXAMPLE.resolve("pom.xml")),
				Files.readString(EXAMPLE.resolve("src/main/java/com/example/demo/DemoApplication.java")),
				Files.readString(EXAMPLE.resolve("src/main/resources/application.yml")));
	}

}
