package io.github.poolpilot.tuning;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.Slowdown;

/**
 * Judges a surge's step ({@link SurgeWatch}), or a leap to the model's size
 * ({@link ClosedWindow#leaps}), on the service time of the windows after it. Its
 * throughput says nothing (it rose with the load as much as with the threads), but its
 * service time does: one that passed {@value SlowdownRule#SLOWDOWN}× its base and the
 * service time before the surge (the base when none was measured) says that the threads
 * the surge added wait for something they share, a downstream's limit, say. The first
 * window after the surge began at the old size, so it only holds the pool to look again,
 * as soon as its service time passed {@value SlowdownRule#SLOWDOWN}× the base, whatever
 * its noise; when the second still says so, the pool goes straight back to a tenth beyond
 * X·S₀, the threads its throughput keeps busy at the base service time, rather than in
 * the slowdown rule's cuts of a quarter a window: a surge is met at once, and so is its
 * overshoot. A cut of a quarter or less is left to the slowdown rule. The cut is judged
 * as the slowdown rule's are, and undone when it did not shorten the service time; it
 * teaches no knee, since X·S₀ is too low where the base is that of the cheaper tasks of a
 * mix. Such a cut goes below the knee, and its judgment sees the throughput fall as the
 * service time shortens: the pool goes back to the knee measured then
 * ({@link SlowdownRule}). A rise the surge's own CPU time accounts for, its threads
 * sharing the cores ({@link ClosedWindow#coresAccountFor}), is not cut: the cores serve
 * more with more threads until they are busy, and X·S₀ threads would serve less.
 *
 * @author poolpilot authors
 */
final class SurgeReview {

	/**
	 * The windows after a surge that judge it: the first began at the old size.
	 */
	static final int WINDOWS = 2;

	private SurgeReview() {
	}

	/**
	 * Judge a surge's step in a window after it.
	 * @param step the surge's step, measured in this window too
	 * @param window the window
	 * @param serviceNoise the standard error of a window's relative change of service
	 * time
	 * @return a hold to look again, the decision that takes the pool back towards X·S₀,
	 * or {@code null} when the step is kept
	 */
	static @Nullable Decision review(Step step, ClosedWindow window, double serviceNoise) {
		if (window.completions == 0 || !window.queueing || !window.slowed()) {
			return null;
		}
		Slowdown slowdown = new Slowdown(window.serviceMs() / window.baseServiceMs, window.baseServiceMs);
		if (step.windows < WINDOWS) {
			// Most of the first window's tasks began before the surge's threads met the
			// downstream's line: its service time has not yet risen as far as it will,
			// and a rise within its noise only holds the pool to look again.
			return Decision.hold(window.size, slowdown, null, true);
		}
		// Slower than its base, and than before the surge: a mix of cheap and expensive
		// tasks may keep a pool's service time above its base whatever its size. And by
		// more than the service time's own noise: on a noisy host or with lognormal task
		// times one window's service time lies.
		double before = (step.serviceMsBefore > 0) ? step.serviceMsBefore : window.baseServiceMs;
		double rise = window.serviceMs() / before - 1 - WindowNoise.SIGNIFICANT * serviceNoise;
		if (!(rise > SlowdownRule.SLOWDOWN - 1)
				|| window.coresAccountFor(before, WindowNoise.SIGNIFICANT * serviceNoise)) {
			return null;
		}
		double useful = window.throughput() * window.baseServiceMs / 1000;
		int target = window.bounds.clamp(Math.max(step.from, Knee.withMargin(useful)));
		if (target > window.size - Math.max(1, window.size / 4)) {
			return null;
		}
		return Decision.change(Action.SHRINK, window.size, target, slowdown, null, false);
	}

}
