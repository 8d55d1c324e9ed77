package io.github.poolpilot.smoke;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The table of shapes in docs/compatibility.md, the smoke applications in smoke-tests/
 * and the shapes the runner starts are the same: a shape added, removed or renamed in one
 * but not the others fails the build.
 */
class CompatibilityTableTests {

	private static final Path DOC = SmokeApplication.ROOT.resolveSibling("docs").resolve("compatibility.md");

	/** A row of the table: | `id` | [smoke-tests/folder/](...) | ... */
	private static final Pattern ROW = Pattern
		.compile("^\\| `([^`]+)` \\| \\[smoke-tests/([^/\\]]+)/\\]\\(\\.\\./smoke-tests/\\2/\\) \\|.*");

	@Test
	void theTableListsEveryShapeTheRunnerStartsAndNoOther() throws IOException {
		Map<String, String> table = table();
		Map<String, String> shapes = Arrays.stream(Shape.values())
			.collect(Collectors.toMap(Shape::id, Shape::application, (a, b) -> a, LinkedHashMap::new));
		assertThat(table).as("the shapes in %s (id: application folder)", DOC).isEqualTo(shapes);
	}

	@Test
	void everySmokeApplicationIsTheApplicationOfAShape() throws IOException {
		Set<String> applications = Arrays.stream(Shape.values()).map(Shape::application).collect(Collectors.toSet());
		assertThat(applicationFolders()).as("the applications in %s", SmokeApplication.ROOT)
			.containsExactlyInAnyOrderElementsOf(applications);
	}

	@Test
	void everySmokeApplicationIsBuiltBeforeTheRunner() throws IOException {
		String aggregator = Files.readString(SmokeApplication.ROOT.resolve("pom.xml"));
		Matcher module = Pattern.compile("<module>([^<]+)</module>").matcher(aggregator);
		List<String> modules = module.results().map((result) -> result.group(1)).toList();
		assertThat(modules).as("the modules of smoke-tests/pom.xml").endsWith("runner");
		assertThat(modules.subList(0, modules.size() - 1)).containsExactlyInAnyOrderElementsOf(applicationFolders());
	}

	private static Map<String, String> table() throws IOException {
		Map<String, String> rows = new LinkedHashMap<>();
		for (String line : Files.readAllLines(DOC)) {
			Matcher row = ROW.matcher(line);
			if (row.matches()) {
				assertThat(rows.put(row.group(1), row.group(2))).as("the row of %s in %s", row.group(1), DOC).isNull();
			}
		}
		return rows;
	}

	private static List<String> applicationFolders() throws IOException {
		try (Stream<Path> folders = Files.list(SmokeApplication.ROOT)) {
			return folders.filter((folder) -> Files.exists(folder.resolve("pom.xml")))
				.map((folder) -> folder.getFileName().toString())
				.filter((name) -> !name.equals("runner"))
				.toList();
		}
	}

}
