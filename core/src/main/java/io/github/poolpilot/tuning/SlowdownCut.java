package io.github.poolpilot.tuning;

/**
 * A cut the slowdown rule judges ({@link SlowdownRule}): the size before it, the mean
 * service time that prompted it, the throughput and completions of the window it was made
 * in, the windows after it that held the judgment, and the base service time it went by
 * when it went straight to a tenth beyond X·S₀ (a surge's overshoot; NaN for the rule's
 * own cuts of a quarter at most).
 *
 * @param from the size before the cut
 * @param serviceMs the mean service time that prompted it
 * @param throughput the throughput of the window it was made in
 * @param completions the tasks that window finished
 * @param judged the windows after it that held the judgment
 * @param baseMs the base service time it went by, NaN when it did not go to the base
 * @author poolpilot authors
 */
record SlowdownCut(int from, double serviceMs, double throughput, long completions, int judged, double baseMs) {

	/**
	 * Return the same cut, judged again in the next window.
	 */
	SlowdownCut judgedAgain() {
		return new SlowdownCut(this.from, this.serviceMs, this.throughput, this.completions, this.judged + 1,
				this.baseMs);
	}

	/**
	 * Return whether a cut to the base left the pool's service time over
	 * {@value SlowdownRule#OWN_WORK}× that base at no more threads than a tenth beyond
	 * those the throughput before it kept busy at it, or than the pool's min-threads when
	 * those are more (the cut stopped there): the threads cannot wait for one another
	 * there, so the base was not this work's (a mix's cheaper tasks measured it).
	 * @param window a window after the cut
	 */
	boolean slowerThanItsBase(ClosedWindow window) {
		int atBase = Knee.withMargin(this.throughput * this.baseMs / 1000);
		return !Double.isNaN(this.baseMs) && window.size <= Math.max(atBase, window.bounds.minThreads())
				&& window.serviceMs() > SlowdownRule.OWN_WORK * this.baseMs;
	}

}
