package io.github.poolpilot.tuning;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.AtKnee;
import io.github.poolpilot.tuning.Decision.Cause.AtMaxThreads;
import io.github.poolpilot.tuning.Decision.Cause.CpuBound;
import io.github.poolpilot.tuning.Decision.Cause.GrowthBlocked;
import io.github.poolpilot.tuning.Decision.Cause.Queueing;
import io.github.poolpilot.tuning.Decision.KeptStep;

/**
 * Says whether a saturated pool may grow now, and what it does when it may not. A pool at
 * its max-threads holds, limited. A pool that refused work on saturated cores or in
 * bursts grows to hold it ({@link RefusalRule#buffer}). A service time that passed its
 * base without more throughput is cut ({@link SlowdownRule}), unless the pool's budget of
 * changes is spent ({@link ChangeBudget}) and the pool is not beyond the half above a
 * knee seen. While the process CPU is above {@value PoolController#MAX_CPU} the pool does
 * not grow otherwise. While growth rests ({@link StepJudge}) the pool holds; refusals cut
 * short a rest taken for anything but threads that only waited. A pool whose model needs
 * no more threads than it has holds, unless it refused work ({@link RefusalRule}), and so
 * does one at half beyond a knee seen ({@link Knee}).
 * <p>
 * A saturated pool that holds probes down ({@link DownProbe}): a chain of probes goes on
 * while each holds the throughput, and a new one starts after
 * {@value #HOLDS_BEFORE_PROBE} saturated windows that held the size, unless the pool's
 * budget of changes is spent. A pool that refused work in one of the windows a probe is
 * compared with probes down only when its threads were seen to wait elsewhere (a step
 * whose service time rose with it, a cut that relieved, a probe that held) or it is
 * crowded, with the CPU at most half busy and over {@value #CROWDED} times the threads
 * its model needs for all it was offered, or over {@value #CROWDED_BY_THROUGHPUT} times
 * those its throughput keeps busy at the base service time, or it holds more threads than
 * a knee that is only a bound ({@link Knee#bound()}) with the CPU at most half busy (by
 * its own measure the threads beyond the knee do not pay), or a surge sized it before
 * more than one window had measured a service time and no probe has found a knee since:
 * fewer threads would refuse more otherwise, as in the next burst.
 *
 * @author poolpilot authors
 */
final class SaturatedGrowth {

	/**
	 * A chain of probes down starts after this many saturated windows that held the size.
	 */
	static final int HOLDS_BEFORE_PROBE = 2;

	/**
	 * A saturated pool with this many times the threads its model needs is crowded.
	 */
	static final double CROWDED = 1.5;

	/**
	 * A saturated pool with this many times the threads its throughput keeps busy at the
	 * base service time (X·S₀) is crowded too, whatever it was offered: its tasks take
	 * that many times their base, waiting for something its threads share. Far enough
	 * beyond a knee that the probes' tolerance of a few percent does not cost a pool that
	 * refuses work what it serves.
	 */
	static final double CROWDED_BY_THROUGHPUT = 2;

	private final SlowdownRule slowdown;

	private final RefusalRule refusals;

	private final DownProbe probes;

	private final StepJudge steps;

	private final Knee knee;

	private final ChangeBudget changes;

	/**
	 * Saturated windows in a row that held the pool's size.
	 */
	private int saturatedHolds;

	/**
	 * Windows in a row that refused no work, up to {@value WindowNoise#LEVEL_WINDOWS}
	 * (none refused before the first): a probe down waits for as many.
	 */
	private int windowsWithoutRefusals = WindowNoise.LEVEL_WINDOWS;

	/**
	 * Whether a surge sized the pool before more than one window had measured a service
	 * time, and no probe has found a knee since.
	 */
	private boolean surgedUnmeasured;

	/**
	 * Create the gate of a pool's saturated growth.
	 * @param slowdown the pool's cuts for a slowdown
	 * @param refusals the pool's growth for its refusals
	 * @param probes the pool's probes down
	 * @param steps the judge of the pool's growth steps, and its rests
	 * @param knee the knee seen
	 * @param changes the pool's budget of changes
	 */
	SaturatedGrowth(SlowdownRule slowdown, RefusalRule refusals, DownProbe probes, StepJudge steps, Knee knee,
			ChangeBudget changes) {
		this.slowdown = slowdown;
		this.refusals = refusals;
		this.probes = probes;
		this.steps = steps;
		this.knee = knee;
		this.changes = changes;
	}

	/**
	 * A surge sized the pool before more than one window had measured a service time: on
	 * a service time its pulses estimated, which counts the wait at a downstream's limit,
	 * or on one window's, which may hold only a cold start's slow calls. Its size is
	 * checked by probes down, even while it refuses.
	 */
	void surgedUnmeasured() {
		this.surgedUnmeasured = true;
	}

	/**
	 * A probe down found the knee: the surge's size is checked.
	 */
	void kneeFound() {
		this.surgedUnmeasured = false;
	}

	/**
	 * Count a window that closed, before it is decided: whether it refused work.
	 * @param window the window
	 */
	void windowClosed(ClosedWindow window) {
		this.windowsWithoutRefusals = (window.refused > 0) ? 0
				: Math.min(this.windowsWithoutRefusals + 1, WindowNoise.LEVEL_WINDOWS);
	}

	/**
	 * Count what a window came to: a saturated window that held the size brings a probe
	 * down nearer.
	 * @param window the window
	 * @param decision what the controller decided for it
	 */
	void decided(ClosedWindow window, Decision decision) {
		this.saturatedHolds = (window.saturated() && decision.action() == Action.HOLD) ? this.saturatedHolds + 1 : 0;
	}

	/**
	 * Return what a saturated pool does instead of growing now, or {@code null} when it
	 * may grow.
	 * @param window the window that just closed, saturated
	 * @param kept the step this window kept, if any
	 * @param probing whether a probe down was judged in this window
	 * @return a hold, a cut, a growth for refusals or a probe down, or {@code null}
	 */
	@Nullable Decision instead(ClosedWindow window, @Nullable KeptStep kept, boolean probing) {
		Decision held = hold(window, kept);
		if (held == null || held.action() != Action.HOLD) {
			return held;
		}
		// A chain of probes goes on while each holds the throughput; a new one starts
		// once the pool held its size for a while. A pool that refused work in one of
		// the windows a probe is compared with probes down only when its threads were
		// seen to wait elsewhere (a step whose service time rose with it, a cut that
		// relieved, a probe that held), or a surge sized it on an estimate: fewer
		// threads would refuse more otherwise, as in the next burst. A new chain waits
		// while the pool's budget of changes is spent; one under way goes on to the
		// knee.
		boolean due = (probing || (this.saturatedHolds + 1 >= HOLDS_BEFORE_PROBE && !this.changes.spent()))
				&& (this.windowsWithoutRefusals >= WindowNoise.LEVEL_WINDOWS || this.steps.wastedRest()
						|| crowded(window) || aboveABound(window) || this.surgedUnmeasured);
		Decision probe = due ? this.probes.start(window, kept, this.knee) : null;
		return (probe != null) ? probe : held;
	}

	/**
	 * Return whether a saturated pool, with the CPU at most half busy, has over
	 * {@value #CROWDED} times the threads the model needs for all it was offered,
	 * refusals included, at the base service time, or over
	 * {@value #CROWDED_BY_THROUGHPUT} times those its throughput keeps busy at it: its
	 * threads wait for something they share, and a probe down does not refuse more. The
	 * second reads a pool offered far more than a downstream's limit serves, whose model
	 * needs threads for every task it refuses.
	 */
	static boolean crowded(ClosedWindow window) {
		if (!calmCpu(window)) {
			return false;
		}
		double useful = window.throughput() * window.baseServiceMs / 1000;
		return (window.need > 0 && window.size > CROWDED * window.need)
				|| (useful > 0 && window.size > CROWDED_BY_THROUGHPUT * useful);
	}

	/**
	 * Return whether a saturated pool holds more threads than a knee that is only a bound
	 * ({@link Knee#bound()}), with the CPU at most half busy: the step that taught it
	 * raised its throughput clearly less than in proportion, so by its own measure fewer
	 * threads serve as much, and a probe down does not refuse more. Above a knee a probe
	 * found, measured from below, the pool holds. On a busy CPU its threads hold tasks as
	 * a buffer would ({@link RefusalRule#buffer}).
	 */
	private boolean aboveABound(ClosedWindow window) {
		return this.knee.bound() && window.size > this.knee.threads() && calmCpu(window);
	}

	/**
	 * Return whether the process CPU is known and at most half busy.
	 */
	private static boolean calmCpu(ClosedWindow window) {
		return window.cpuLoad >= 0 && window.cpuLoad <= 0.5;
	}

	/**
	 * Return why a saturated pool must not grow now, or {@code null} when it may.
	 */
	private @Nullable Decision hold(ClosedWindow window, @Nullable KeptStep kept) {
		int size = window.size;
		if (size >= window.bounds.maxThreads()) {
			// Short of threads it may not have: limited, but it may still borrow.
			return new Decision(Action.HOLD, size, size, new AtMaxThreads(window.bounds.maxThreads()), kept, null, size,
					true, true);
		}
		// Threads that would hold what the pool refuses come first: a cut, a rest, a
		// knee would refuse more.
		Decision buffered = this.refusals.buffer(window, kept, this.steps, this.changes);
		if (buffered != null) {
			return buffered;
		}
		// A cut waits while the budget of changes is spent, unless the pool is beyond
		// the half above a knee seen.
		boolean cutWaits = this.changes.spent() && size <= this.knee.cap();
		Decision slowdown = cutWaits ? null : this.slowdown.apply(window, kept);
		if (slowdown != null) {
			return slowdown;
		}
		if (window.cpuBound()) {
			return Decision.hold(size, new CpuBound(window.cpuLoad), kept, false);
		}
		// Refusals cut short a rest taken for anything but threads that only waited.
		if (this.steps.resting() && !(window.refusing() && !this.steps.wastedRest())) {
			return Decision.hold(size, new GrowthBlocked(this.steps.remaining()), kept, false);
		}
		if (window.need <= size) {
			Decision buffer = this.refusals.staff(window, kept, this.steps, this.knee, this.changes);
			return (buffer != null) ? buffer : Decision.hold(size, new Queueing(window.busy, window.need), kept, true);
		}
		if (size >= this.knee.cap()) {
			return Decision.hold(size, new AtKnee(this.knee.threads(), window.need), kept, true);
		}
		return null;
	}

}
