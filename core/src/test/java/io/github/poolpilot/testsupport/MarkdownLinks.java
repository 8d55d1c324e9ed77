package io.github.poolpilot.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The relative links of Markdown pages, checked as GitHub renders them: the file a link
 * names must exist, and so must the heading its anchor names, by GitHub's rule for a
 * heading's anchor (lower case, every character but letters, digits, spaces, hyphens and
 * underscores dropped, spaces made hyphens, {@code -1}, {@code -2} after a repeated one).
 * Headings inside fenced code blocks are not headings. Links with a scheme
 * ({@code https:}, {@code mailto:}) are not checked.
 *
 * @author poolpilot authors
 */
public final class MarkdownLinks {

	private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

	private static final Pattern HEADING = Pattern.compile("#{1,6} (.*)");

	private static final Pattern INLINE_LINK = Pattern.compile("\\[([^\\]]*)\\]\\([^)]*\\)");

	private static final Pattern SCHEME = Pattern.compile("[a-z][a-z0-9+.-]*:.*");

	private MarkdownLinks() {
	}

	/**
	 * Return every link of the pages that names a missing file or a missing heading, as
	 * {@code page: target}, the page relative to {@code root}.
	 * @param root the directory the pages are named relative to in the result
	 * @param pages the pages to check
	 * @return the broken links, none when all resolve
	 */
	public static List<String> broken(Path root, List<Path> pages) {
		Map<Path, Set<String>> anchors = new HashMap<>();
		List<String> broken = new ArrayList<>();
		for (Path page : pages) {
			Matcher link = LINK.matcher(read(page));
			while (link.find()) {
				String target = link.group(1);
				if (SCHEME.matcher(target).matches()) {
					continue;
				}
				int hash = target.indexOf('#');
				String file = (hash >= 0) ? target.substring(0, hash) : target;
				Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
				boolean found = Files.exists(resolved);
				if (found && hash >= 0 && resolved.toString().endsWith(".md")) {
					found = anchors.computeIfAbsent(resolved, MarkdownLinks::anchors)
						.contains(target.substring(hash + 1));
				}
				if (!found) {
					broken.add(root.relativize(page) + ": " + target);
				}
			}
		}
		return broken;
	}

	/**
	 * Return the anchors of a page's headings.
	 */
	private static Set<String> anchors(Path page) {
		Set<String> anchors = new HashSet<>();
		Map<String, Integer> seen = new HashMap<>();
		boolean fenced = false;
		for (String line : read(page).split("\n", -1)) {
			if (line.stripLeading().startsWith("```") || line.stripLeading().startsWith("~~~")) {
				fenced = !fenced;
				continue;
			}
			Matcher heading = HEADING.matcher(line);
			if (!fenced && heading.matches()) {
				String anchor = anchor(heading.group(1));
				int repeats = seen.merge(anchor, 1, Integer::sum) - 1;
				anchors.add((repeats == 0) ? anchor : anchor + "-" + repeats);
			}
		}
		return anchors;
	}

	/**
	 * Return the anchor GitHub gives a heading's text.
	 * @param heading the heading's text, without its {@code #} marks
	 * @return the anchor
	 */
	public static String anchor(String heading) {
		String text = INLINE_LINK.matcher(heading.strip()).replaceAll("$1").toLowerCase(Locale.ROOT);
		StringBuilder anchor = new StringBuilder();
		text.codePoints().forEach((c) -> {
			if (c == ' ') {
				anchor.append('-');
			}
			else if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
				anchor.appendCodePoint(c);
			}
		});
		return anchor.toString();
	}

	private static String read(Path page) {
		try {
			return Files.readString(page);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
