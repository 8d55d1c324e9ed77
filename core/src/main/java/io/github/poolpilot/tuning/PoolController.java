package io.github.poolpilot.tuning;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.measure.NanoClock;
import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.Judging;
import io.github.poolpilot.tuning.Decision.KeptStep;

/**
 * Decides one pool's size, window after window: a model says how many threads the
 * measured load needs, and a feedback guard checks that more threads really serve more
 * and that fewer would not serve as much. Between windows, its fast path ({@link #pulse})
 * meets a load step at once, unless a cut or a probe down is being judged.
 * <p>
 * The rules it applies, and the figures they use, are summed up in the package's
 * documentation.
 *
 * @author poolpilot authors
 */
public final class PoolController {

	static final double SATURATED_BUSY = 0.9;

	static final double MAX_GROWTH = 1.5;

	static final double MIN_SCALING_EFFICIENCY = 0.15;

	static final double KNEE_EFFICIENCY = 0.9;

	/**
	 * A step whose service time rose by at least this share of the threads it added only
	 * made tasks wait elsewhere.
	 */
	static final double WASTED = 0.5;

	static final int JUDGING_WINDOWS = 3;

	static final double MAX_CPU = 0.9;

	static final int BASE_WINDOWS = 30;

	static final int SHRINK_WINDOWS = 10;

	static final double WAITING = 0.05;

	/**
	 * No probe down starts within this factor of a knee already seen.
	 */
	static final double NEAR_KNEE = 1.25;

	private final WindowMeasures measures = new WindowMeasures();

	private final SurplusRule surplus = new SurplusRule();

	private final FastPath fastPath = new FastPath();

	private final SlowdownRule slowdown;

	private final RefusalRule refusals = new RefusalRule();

	private final DownProbe probes;

	private final StepJudge steps;

	private final Knee knee;

	private final ChangeBudget changes;

	private final SaturatedGrowth saturated;

	private final GrowthRule growth;

	/**
	 * The processors the CPU load is a share of, 0 when unknown.
	 */
	private final int cores;

	private @Nullable Decision standing;

	/**
	 * The size the pool was last given, by a window or a pulse; -1 before the first.
	 */
	private int appliedSize = -1;

	/**
	 * Create a controller that does not know how many processors the CPU load is a share
	 * of: a busy CPU limits its pool whatever the pool's tasks use of it.
	 * @param clock the clock that times growth blocks
	 */
	public PoolController(NanoClock clock) {
		this(clock, 0);
	}

	/**
	 * Create a controller.
	 * @param clock the clock that times growth blocks
	 * @param cores the processors the CPU load is a share of, 0 when unknown
	 */
	public PoolController(NanoClock clock, int cores) {
		this.cores = cores;
		this.probes = new DownProbe(clock, this.measures.throughputs());
		this.knee = new Knee(clock);
		this.slowdown = new SlowdownRule(this.knee, this.measures.serviceTimes(), this.measures.throughputs());
		this.changes = new ChangeBudget(clock);
		this.steps = new StepJudge(clock, this.knee, this.measures.throughputs(), this.measures.serviceTimes());
		this.saturated = new SaturatedGrowth(this.slowdown, this.refusals, this.probes, this.steps, this.knee,
				this.changes);
		this.growth = new GrowthRule(this.saturated, this.steps, this.knee, this.changes);
	}

	/**
	 * Decide the pool's size for the next window.
	 * @param snapshot the window that just closed
	 * @param size the pool's current size (its maximum pool size)
	 * @param bounds the range the size must stay in
	 * @param cpuLoad the process's CPU load, from 0 to 1, or a negative value when
	 * unknown
	 * @return the decision, with its reason
	 */
	public Decision decide(PoolSnapshot snapshot, int size, PoolBounds bounds, double cpuLoad) {
		double previousThroughput = this.fastPath.throughput();
		boolean idleBefore = this.fastPath.arrivalRate() == 0;
		long refused = this.refusals.refused(snapshot);
		this.measures.add(snapshot, size, refused);
		ClosedWindow window = new ClosedWindow(snapshot, size, bounds, cpuLoad, this.cores, this.measures.base().min(),
				previousThroughput, refused, idleBefore);
		this.fastPath.windowClosed(window);
		this.knee.outgrown(window);
		if (this.knee.disproved(window)) {
			this.probes.kneeDisproved();
		}
		this.surplus.needed(window.need, this.knee.cap());
		this.steps.refused(window, this.changes);
		this.saturated.windowClosed(window);
		Decision decision = decide(window);
		this.saturated.decided(window, decision);
		this.standing = decision;
		this.measures.decided();
		return decision;
	}

	private Decision decide(ClosedWindow window) {
		int surge = this.fastPath.takeSurgeWant();
		Decision restore = this.slowdown.judge(window);
		if (restore != null) {
			if (restore.action() == Action.RESTORE) {
				this.knee.forget();
				// The work's own service time, when the tasks that ended were the smaller
				// pool's: not those of threads the cut took, which waited behind them.
				if (window.ownEnds()) {
					this.measures.base().rebase(window.serviceMs(), window.completions, window.size);
				}
			}
			return restore;
		}
		// A cut that shortened the service time, a probe that held: the threads taken
		// only waited, and more would wait too.
		if (this.slowdown.relieved()) {
			this.steps.restGrowth();
		}
		KeptStep kept = null;
		ProbeOutcome probe = this.probes.judge(window);
		if (probe != null) {
			if (probe.verdict() == ProbeOutcome.Verdict.AGAIN) {
				return Decision.hold(window.size, new Judging(probe.from(), probe.to(), probe.change()), null, true);
			}
			if (probe.verdict() == ProbeOutcome.Verdict.UNCLEAR) {
				return this.probes.unclear(window, probe);
			}
			if (probe.fell()) {
				// Every size from the knee to where the probes began served the same:
				// growth rests too, from now.
				this.steps.blockGrowth(true);
				this.saturated.kneeFound();
				return this.probes.fell(window, probe, this.measures.base().min(), this.knee);
			}
			kept = probe.kept();
			if (window.queueing) {
				this.steps.restGrowth();
			}
		}
		StepJudge.Verdict verdict = this.steps.judge(window);
		if (verdict != null) {
			Decision undone = verdict.undone();
			if (undone != null) {
				if (undone.action() == Action.SHRINK) {
					// A surge's overshoot cut back: undone like a slowdown's cut when
					// it did not shorten the service time.
					this.slowdown.watch(window.size, window);
				}
				return undone;
			}
			kept = verdict.kept();
		}
		if (window.saturated()) {
			this.surplus.reset();
			return this.growth.grow(window, kept, surge, probe != null);
		}
		Decision refusing = this.refusals.staff(window, kept, this.steps, this.knee, this.changes);
		if (refusing != null) {
			this.surplus.reset();
			return refusing;
		}
		Decision staffed = this.growth.staff(window, kept);
		if (staffed != null) {
			this.surplus.reset();
			return staffed;
		}
		return this.surplus.shrinkOrHold(window, kept, this.changes);
	}

	/**
	 * Read the pool between two windows: its threads busy at once count toward what the
	 * window needed ({@link SurplusRule#pulsed}), and its fast path meets a load step at
	 * once ({@link FastPath}).
	 * @param pulse the pool now
	 * @return a decision to grow, or {@code null} when the windows may decide
	 */
	public @Nullable Decision pulse(PoolPulse pulse) {
		this.surplus.pulsed(pulse.activeThreads());
		int largest = Math.min(pulse.bounds().maxThreads(), this.knee.cap());
		Decision surge = this.fastPath.check(pulse, this.measures.base().min(), largest,
				this.slowdown.judging() || this.probes.judging());
		if (surge == null) {
			return null;
		}
		boolean unmeasured = Double.isNaN(this.measures.base().min());
		if (unmeasured || this.measures.base().likeWindows() < BaseServiceTime.MEASURED_WINDOWS) {
			// Sized on an estimate, or on one window's calls (a load's first, cold ones),
			// which probes down check.
			this.saturated.surgedUnmeasured();
		}
		if (unmeasured && !Double.isNaN(this.fastPath.estimatedServiceMs())) {
			// The estimate is the base until a window measures one: the first windows
			// after a surge measure the waiting the surge's threads cause too.
			this.measures.base().estimate(this.fastPath.estimatedServiceMs());
		}
		this.steps.surge(surge.threads(), this.fastPath.step(pulse, surge));
		this.surplus.reset();
		this.standing = surge;
		return surge;
	}

	/**
	 * Return the size the pool was last given by its tuner, so that a size changed by
	 * someone else (by hand, a configuration refresh) is told from the controller's own.
	 * @return the size last applied, or -1 before the first
	 */
	public int appliedSize() {
		return this.appliedSize;
	}

	/**
	 * Return whether nothing was offered to the pool between its last two pulses.
	 * @return whether the pool was idle in the last pulse's interval
	 */
	public boolean idleSinceLastPulse() {
		return this.fastPath.idle();
	}

	/**
	 * Return the controller's last decision, window or pulse: between windows, what the
	 * pool still asks the budget for.
	 * @return the last decision, or {@code null} before the first
	 */
	public @Nullable Decision standing() {
		return this.standing;
	}

	/**
	 * Tell the controller what size the pool actually got: the budget may have allowed
	 * less than it decided, and a step is judged by the size it really took.
	 * @param threads the size the pool has now
	 */
	public void applied(int threads) {
		this.measures.applied(threads);
		if (this.appliedSize >= 0 && threads != this.appliedSize) {
			this.changes.changed();
		}
		this.appliedSize = threads;
		this.steps.applied(threads);
		this.probes.applied(threads);
	}

}
