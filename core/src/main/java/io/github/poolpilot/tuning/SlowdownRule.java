package io.github.poolpilot.tuning;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.CutDidNotHelp;
import io.github.poolpilot.tuning.Decision.Cause.Slowdown;
import io.github.poolpilot.tuning.Decision.KeptStep;

/**
 * Give back threads when the service time passed {@value #SLOWDOWN}× its base without
 * more throughput (a saturated downstream, a busy CPU): towards a tenth beyond X·S₀, the
 * threads the throughput keeps busy at the base service time, a quarter at most a window,
 * and never below the pool's min-threads; a pool held there by its min-threads is left to
 * the other rules. Each cut is judged in the next window: when the service time did not
 * shorten by at least {@value #MIN_RELIEF} of itself, the slowdown is not one that fewer
 * threads relieve (a slow database for every caller, larger requests), so the cut is
 * undone and the rule stays off until the service time is back within {@value #SLOWDOWN}×
 * its base.
 *
 * @author poolpilot authors
 */
final class SlowdownRule {

	static final double SLOWDOWN = 1.5;

	static final double MIN_RELIEF = 0.1;

	/**
	 * A cut being judged: the size before it, and the mean service time that prompted it.
	 */
	private @Nullable Cut cut;

	/**
	 * Whether a cut did not shorten the service time.
	 */
	private boolean notOurs;

	private boolean relieved;

	/**
	 * Judge the cut made in the last window, if any.
	 * @param window the window since
	 * @return the decision that undoes it when it did not shorten the service time, or
	 * {@code null}: no cut, or one that relieved ({@link #relieved()})
	 */
	@Nullable Decision judge(ClosedWindow window) {
		this.relieved = false;
		if (!(window.serviceMs() > SLOWDOWN * window.baseServiceMs)) {
			this.notOurs = false;
		}
		Cut cut = this.cut;
		this.cut = null;
		if (cut == null) {
			return null;
		}
		if (window.completions > 0 && window.serviceMs() > cut.serviceMs * (1 - MIN_RELIEF)) {
			this.notOurs = true;
			return Decision.change(Action.RESTORE, window.size, window.bounds.clamp(cut.from),
					new CutDidNotHelp(window.serviceMs(), cut.serviceMs), null, true);
		}
		this.relieved = true;
		return null;
	}

	/**
	 * Return whether the last {@link #judge} found a cut that shortened the service time:
	 * the threads it took only waited.
	 */
	boolean relieved() {
		return this.relieved;
	}

	/**
	 * Cut a saturated pool whose service time slowed down, or hold it, or return
	 * {@code null} when it did not slow down.
	 * @param window the window that just closed
	 * @param kept the step this window kept, if any
	 * @return the decision, or {@code null}
	 */
	@Nullable Decision apply(ClosedWindow window, @Nullable KeptStep kept) {
		double slowdown = window.serviceMs() / window.baseServiceMs;
		boolean throughputRising = !(window.throughput() <= window.previousThroughput * 1.05);
		if (!(slowdown > SLOWDOWN) || throughputRising || this.notOurs) {
			return null;
		}
		int size = window.size;
		// Little's law: X·S₀ threads serve this throughput when nothing is congested.
		double useful = window.throughput() * window.baseServiceMs / 1000;
		int wanted = Math.max((int) Math.ceil(useful * (1 + PoolController.KNEE_MARGIN)), size - Math.max(1, size / 4));
		int target = window.bounds.clamp(wanted);
		Slowdown reason = new Slowdown(slowdown, window.baseServiceMs);
		if (target < size) {
			this.cut = new Cut(size, window.serviceMs());
			return Decision.change(Action.SHRINK, size, target, reason, kept, false);
		}
		if (wanted < size) {
			// At its min-threads the pool cannot be cut to learn whether fewer threads
			// relieve the service time, which may only have changed with the mix of work
			// (a
			// web server's requests): the rule leaves it to the others, whose steps are
			// judged by what they bring.
			return null;
		}
		return Decision.hold(size, reason, kept, false);
	}

	/**
	 * Judge a cut made for a slowdown by another rule (a surge's overshoot,
	 * {@link SurgeReview}) as this rule's own: undone when it did not shorten the service
	 * time.
	 * @param from the size before the cut
	 * @param serviceMs the mean service time that prompted it
	 */
	void watch(int from, double serviceMs) {
		this.cut = new Cut(from, serviceMs);
	}

	void cancel() {
		this.cut = null;
	}

	/**
	 * A cut: the size before it, and the mean service time that prompted it.
	 */
	private record Cut(int from, double serviceMs) {
	}

}
