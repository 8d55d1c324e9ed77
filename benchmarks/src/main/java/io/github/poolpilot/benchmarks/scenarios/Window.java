package io.github.poolpilot.benchmarks.scenarios;

/**
 * A range of whole seconds of a run, {@code [from, to)}: second {@code s} is the time
 * from {@code s} to {@code s + 1} seconds after the run started.
 *
 * @param from the first second
 * @param to the second after the last
 * @author poolpilot authors
 */
record Window(int from, int to) {

	Window {
		if (from < 0 || to <= from) {
			throw new IllegalArgumentException("A window needs 0 <= from < to but was [" + from + ", " + to + ")");
		}
	}

	/**
	 * Return how many seconds the window holds.
	 * @return its length in seconds
	 */
	int seconds() {
		return this.to - this.from;
	}

	/**
	 * Return whether a time falls in the window.
	 * @param nanos nanoseconds from the start of the run
	 * @return whether {@code from <= time < to}
	 */
	boolean contains(long nanos) {
		return nanos >= this.from * Runs.SECOND && nanos < this.to * Runs.SECOND;
	}

	@Override
	public String toString() {
		return "[" + this.from + ", " + this.to + ") s";
	}

}
