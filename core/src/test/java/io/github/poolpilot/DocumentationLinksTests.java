package io.github.poolpilot;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.poolpilot.testsupport.MarkdownLinks;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The project's own pages, README.md and every page under docs/, link only to files that
 * exist and to headings they have: a page split or a heading renamed must take its links
 * along.
 *
 * @author poolpilot authors
 */
class DocumentationLinksTests {

	/**
	 * The repository's root, from the module's directory the tests run in.
	 */
	private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

	@Test
	void everyRelativeLinkOfTheDocsResolves() throws IOException {
		List<Path> pages = new ArrayList<>();
		pages.add(ROOT.resolve("README.md"));
		try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
			docs.filter((path) -> path.toString().endsWith(".md")).sorted().forEach(pages::add);
		}
		assertThat(pages).hasSizeGreaterThan(10);
		assertThat(MarkdownLinks.broken(ROOT, pages)).isEmpty();
	}

	@Test
	void aMissingFileOrHeadingIsReported(@TempDir Path dir) throws IOException {
		Files.writeString(dir.resolve("a.md"), String.join("\n", "# A", "", "## Twice", "", "## Twice",
				"[fine](b.md#s1-s3-at-ba2b430) [fine](#twice-1) [gone](#twice-2) [gone](c.md) [gone](b.md#nothing)",
				"[web](https://example.org/x.md#y)", "```", "## Not a heading", "```", "[gone](#not-a-heading)"));
		Files.writeString(dir.resolve("b.md"), "## S1, S3 at `ba2b430`\n");
		assertThat(MarkdownLinks.broken(dir, List.of(dir.resolve("a.md")))).containsExactly("a.md: #twice-2",
				"a.md: c.md", "a.md: b.md#nothing", "a.md: #not-a-heading");
	}

	@Test
	void anAnchorIsTheHeadingAsGitHubSpellsIt() {
		assertThat(MarkdownLinks.anchor("Measured by Little's law: the scenarios again"))
			.isEqualTo("measured-by-littles-law-the-scenarios-again");
		assertThat(MarkdownLinks.anchor("Where the tuner falls short, and what to set instead"))
			.isEqualTo("where-the-tuner-falls-short-and-what-to-set-instead");
		assertThat(MarkdownLinks.anchor("At `20f78c9` and `2354dab`: the base kept"))
			.isEqualTo("at-20f78c9-and-2354dab-the-base-kept");
		assertThat(MarkdownLinks.anchor("A [link](x.md) in a heading")).isEqualTo("a-link-in-a-heading");
	}

}
