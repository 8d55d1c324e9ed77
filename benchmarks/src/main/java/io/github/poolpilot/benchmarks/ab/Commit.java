package io.github.poolpilot.benchmarks.ab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The commit the benchmark jar is run from, as {@code git describe --always --dirty}
 * gives it in the working directory: results are filed under it.
 *
 * @author poolpilot authors
 */
final class Commit {

	private Commit() {
	}

	/**
	 * Return the short commit id, with {@code -dirty} when tracked files changed, or
	 * {@code unknown-commit} outside a Git working tree.
	 * @return the commit
	 */
	static String describe() {
		try {
			Process git = new ProcessBuilder("git", "describe", "--always", "--dirty", "--abbrev=7")
				.redirectErrorStream(true)
				.start();
			String output = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
			if (git.waitFor(10, TimeUnit.SECONDS) && git.exitValue() == 0 && !output.isEmpty()) {
				return output;
			}
		}
		catch (IOException ex) {
			// No git: fall through.
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return "unknown-commit";
	}

}
