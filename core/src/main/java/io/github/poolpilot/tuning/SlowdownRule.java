package io.github.poolpilot.tuning;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.CutBelowKnee;
import io.github.poolpilot.tuning.Decision.Cause.CutDidNotHelp;
import io.github.poolpilot.tuning.Decision.Cause.CutDraining;
import io.github.poolpilot.tuning.Decision.Cause.Slowdown;
import io.github.poolpilot.tuning.Decision.KeptStep;

/**
 * Give back threads that only wait for something the pool's threads share (a downstream's
 * calls, a lock): when the service time at the pool's size is over {@value #SLOWDOWN}×
 * what it was at a smaller size in the last {@value WindowNoise#WINDOWS} windows, by more
 * than the windows' noise, without more throughput. The service time grew with the
 * threads, so they wait for one another. A service time that rose at one size says
 * nothing of the kind (a downstream slower for every caller, a mix of work with more
 * expensive tasks), and neither does one measured against the least window of many (a
 * noisy mix of work has cheap windows): each size's level is the mean of its last windows
 * ({@link WindowNoise}), and only a size measured over {@value #MEASURED_WINDOWS} windows
 * or more counts. Nor does a rise the threads' own CPU time accounts for, shared over the
 * cores ({@link ClosedWindow#coresAccountFor}): until the cores are busy, more threads
 * serve more there. The cut goes towards a tenth beyond X·S, the threads the throughput
 * keeps busy at the smaller size's service time S, never below that size, a quarter at
 * most a window, and never below the pool's min-threads; a pool held there by its
 * min-threads is left to the other rules. A pool that refused more than
 * {@value #REFUSING} of the tasks offered in the window is cut only down to a tenth
 * beyond a knee seen, and not at all without one nor while the CPU is above
 * {@value PoolController#MAX_CPU}: fewer threads would refuse more, unless a downstream
 * is the limit (on saturated cores its threads hold tasks, {@link RefusalRule}).
 * <p>
 * Each cut is judged in the next window, or in the one after when the next did not show
 * it: the tasks that ended in the next window began before the cut, many of them, and
 * waited behind the threads it took. When the service time did not shorten by at least
 * {@value #MIN_RELIEF} of itself in either, the slowdown is not one that fewer threads
 * relieve, so the cut is undone and the rule stays off until the service time is back
 * within {@value #SLOWDOWN}× the smaller size's. A cut that shortened it stands and
 * relieved ({@link #relieved()}): growth rests, and refusals do not cut the rest short;
 * unless the throughput fell with the threads by more than two standard errors of the
 * windows' noise while tasks queued: then it went below the knee (the base it was
 * measured against was that of cheaper work, a mix's), the knee is the throughput before
 * the cut at the service time after it, and the pool goes back to a tenth beyond it, at
 * most to where the cut began. A cut straight to a tenth beyond X·S₀ (a surge's
 * overshoot, {@link #watch}) that left the service time over {@value #OWN_WORK}× that
 * base on the pool's own tasks went by the base of cheaper work, a mix's: it went below
 * the knee whatever the noise says of its loss, and the knee is then what the throughput
 * before the cut needs at what each thread serves after it (size · X₀/X₁, or X₀·S when
 * less); while the tasks that end are still mostly begun before the cut, it is judged
 * again, over {@value PoolController#JUDGING_WINDOWS} windows at most.
 *
 * @author poolpilot authors
 */
final class SlowdownRule {

	static final double SLOWDOWN = 1.5;

	static final double MIN_RELIEF = 0.1;

	/**
	 * The most of the offered tasks a pool may refuse in a window and be cut without a
	 * knee seen.
	 */
	static final double REFUSING = 0.05;

	/**
	 * The fewest windows at a smaller size whose service time the rule compares with.
	 */
	static final int MEASURED_WINDOWS = 1;

	/**
	 * After a cut to a tenth beyond the threads the throughput keeps busy at the base
	 * service time, a service time over this many times the base is the work's own: at
	 * that size threads that wait for one another add a tenth at most, and the last tasks
	 * begun before the cut a little more.
	 */
	static final double OWN_WORK = 1.35;

	private final Knee knee;

	private final WindowNoise serviceTimes;

	private final WindowNoise throughputs;

	/**
	 * A cut being judged: the size before it, and the mean service time that prompted it.
	 */
	private @Nullable SlowdownCut cut;

	/**
	 * Whether a cut did not shorten the service time.
	 */
	private boolean notOurs;

	private boolean relieved;

	/**
	 * Create the rule.
	 * @param knee the knee seen, below which a pool that refuses work is not cut
	 * @param serviceTimes the pool's mean service time window to window, with its sizes
	 * @param throughputs the pool's throughput window to window, with its sizes
	 */
	SlowdownRule(Knee knee, WindowNoise serviceTimes, WindowNoise throughputs) {
		this.knee = knee;
		this.serviceTimes = serviceTimes;
		this.throughputs = throughputs;
	}

	/**
	 * Judge the cut made in the last window, if any.
	 * @param window the window since
	 * @return the decision that undoes it when it did not shorten the service time, or
	 * {@code null}: no cut, or one that stands
	 */
	@Nullable Decision judge(ClosedWindow window) {
		this.relieved = false;
		if (congestion(window) == null) {
			this.notOurs = false;
		}
		SlowdownCut cut = this.cut;
		this.cut = null;
		if (cut == null || window.completions == 0) {
			return null;
		}
		if (window.serviceMs() > cut.serviceMs() * (1 - MIN_RELIEF)) {
			// The tasks that ended in the first window after the cut began before it,
			// many of them, and waited behind the threads it took: with a downstream at
			// its limit the wait shrinks only as they drain.
			if (cut.judged() == 0) {
				return judgeAgain(cut, window);
			}
			this.notOurs = true;
			return Decision.change(Action.RESTORE, window.size, window.bounds.clamp(cut.from()),
					new CutDidNotHelp(window.serviceMs(), cut.serviceMs()), null, true);
		}
		if (cut.judged() < PoolController.JUDGING_WINDOWS - 1 && window.queueing && cut.slowerThanItsBase(window)
				&& !window.ownEnds()) {
			// Shorter, but still far above the base, on tasks begun before the cut: the
			// next window tells whether the base was the work's.
			return judgeAgain(cut, window);
		}
		Decision below = belowKnee(cut, window);
		if (below != null) {
			return below;
		}
		this.relieved = true;
		return null;
	}

	/**
	 * Hold the pool to judge the cut again in the next window: the tasks that ended in
	 * this one began before it, many of them.
	 */
	private Decision judgeAgain(SlowdownCut cut, ClosedWindow window) {
		this.cut = cut.judgedAgain();
		return Decision.hold(window.size, new CutDraining(window.law.busyThreads(), cut.serviceMs()), null, true);
	}

	/**
	 * Return the decision that takes a pool back to the knee when the cut that shortened
	 * its service time also lost throughput beyond the windows' noise, or {@code null}.
	 */
	private @Nullable Decision belowKnee(SlowdownCut cut, ClosedWindow window) {
		if (!window.queueing || !(cut.throughput() > 0)) {
			return null;
		}
		double change = window.throughput() / cut.throughput() - 1;
		// One window against one.
		double error = WindowNoise.relativeError(this.throughputs.relativeVariance(), 1, window.completions, 1,
				cut.completions());
		boolean fell = -change > WindowNoise.SIGNIFICANT * error;
		// A cut to the base that left the service time far above it, on the pool's own
		// tasks, went by a base of cheaper work: it lost what it lost to too few threads,
		// however small the loss against the noise.
		boolean cheaperBase = change < 0 && cut.slowerThanItsBase(window) && window.ownEnds();
		if (!fell && !cheaperBase) {
			return null;
		}
		double knee = cut.throughput() * window.serviceMs() / 1000;
		if (!fell) {
			// Below the knee throughput is in proportion to the threads: the throughput
			// before the cut needs size · X₀/X₁ of them, fewer than X₀·S says while the
			// last tasks begun before the cut end.
			knee = Math.min(knee, window.size * cut.throughput() / window.throughput());
		}
		int target = window.bounds.clamp(Math.min(cut.from(), Knee.withMargin(knee)));
		if (target <= window.size) {
			return null;
		}
		this.knee.learn(knee, cut.throughput());
		return Decision.change(Action.REVERT, window.size, target, new CutBelowKnee(change, knee), null, true);
	}

	/**
	 * Return whether the last {@link #judge} found a cut that stands: it shortened the
	 * service time, so the threads it took only waited, and the pool rests at its smaller
	 * size rather than growing back into them at the next refusal.
	 */
	boolean relieved() {
		return this.relieved;
	}

	/**
	 * Cut a saturated pool whose threads wait for one another, or hold it, or return
	 * {@code null} when they do not.
	 * @param window the window that just closed
	 * @param kept the step this window kept, if any
	 * @return the decision, or {@code null}
	 */
	@Nullable Decision apply(ClosedWindow window, @Nullable KeptStep kept) {
		boolean throughputRising = !(window.throughput() <= window.previousThroughput * 1.05);
		Congestion congestion = (throughputRising || this.notOurs) ? null : congestion(window);
		if (congestion == null) {
			return null;
		}
		int size = window.size;
		// Little's law: X·S threads serve this throughput at the smaller size's service
		// time.
		double useful = window.throughput() * congestion.serviceMs / 1000;
		int wanted = Math.max(Math.max(Knee.withMargin(useful), congestion.threads), size - Math.max(1, size / 4));
		if (window.refusedShare() > REFUSING) {
			if (!this.knee.known() || window.cpuBound()) {
				return null;
			}
			wanted = Math.max(wanted, Knee.withMargin(this.knee.threads()));
		}
		int target = window.bounds.clamp(wanted);
		Slowdown reason = new Slowdown(congestion.ratio, congestion.serviceMs);
		if (target < size) {
			this.cut = new SlowdownCut(size, congestion.here.mean(), window.throughput(), window.completions, 0,
					Double.NaN);
			return Decision.change(Action.SHRINK, size, target, reason, kept, false);
		}
		if (wanted < size) {
			// At its min-threads the pool cannot be cut to learn whether fewer threads
			// relieve the service time: the rule leaves it to the others, whose steps
			// are judged by what they bring.
			return null;
		}
		return Decision.hold(size, reason, kept, false);
	}

	/**
	 * Return how the service time at the window's size compares with the least measured
	 * at a smaller size, or {@code null} when it is not over {@value #SLOWDOWN}× it by
	 * more than its noise.
	 */
	private @Nullable Congestion congestion(ClosedWindow window) {
		WindowNoise.Level here = this.serviceTimes.level(window.size);
		if (window.completions == 0 || here.windows() == 0) {
			return null;
		}
		WindowNoise.Sized below = this.serviceTimes.leastBelow(window.size, MEASURED_WINDOWS);
		if (below == null) {
			return null;
		}
		double ratio = here.mean() / below.level().mean();
		double error = error(here.windows(), below.level().windows());
		if (!(ratio > SLOWDOWN) || !(ratio - 1 > WindowNoise.SIGNIFICANT * error)
				|| window.coresAccountFor(below.level().mean(), WindowNoise.SIGNIFICANT * error)) {
			return null;
		}
		return new Congestion(ratio, below.level().mean(), below.size(), here);
	}

	/**
	 * The standard error of the relative difference of two levels of the service time,
	 * over so many windows each, from the windows' noise.
	 */
	private double error(int windows, int otherWindows) {
		return Math.sqrt(this.serviceTimes.relativeVariance() * (1.0 / windows + 1.0 / otherWindows));
	}

	/**
	 * Judge a cut made for a slowdown by another rule (a surge's overshoot,
	 * {@link SurgeReview}, straight to a tenth beyond X·S₀) as this rule's own: undone
	 * when it did not shorten the service time, and taken back to the knee when it went
	 * below it, which a service time left far above the base says too.
	 * @param from the size before the cut
	 * @param window the window that prompted it
	 */
	void watch(int from, ClosedWindow window) {
		this.cut = new SlowdownCut(from, window.serviceMs(), window.throughput(), window.completions, 0,
				window.baseServiceMs);
	}

	/**
	 * Return whether a cut is being judged: the pool's threads were seen to wait for one
	 * another.
	 */
	boolean judging() {
		return this.cut != null;
	}

	/**
	 * The service time at the pool's size against the least at a smaller size.
	 *
	 * @param ratio the one over the other
	 * @param serviceMs the smaller size's
	 * @param threads the smaller size
	 * @param here the level at the pool's size
	 */
	private record Congestion(double ratio, double serviceMs, int threads, WindowNoise.Level here) {
	}

}
