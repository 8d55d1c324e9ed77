package io.github.poolpilot.tuning;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.measure.NanoClock;
import io.github.poolpilot.measure.PoolSnapshot.LittlesLaw;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.Judging;
import io.github.poolpilot.tuning.Decision.Cause.NoGain;
import io.github.poolpilot.tuning.Decision.Cause.WaitMoved;
import io.github.poolpilot.tuning.Decision.KeptStep;

/**
 * Judges a pool's growth step in the windows after it, and rests growth after a step that
 * did not pay. A saturated step is kept if the queue drained or throughput rose by at
 * least {@value PoolController#MIN_SCALING_EFFICIENCY} of the relative size increase,
 * otherwise undone, with growth blocked for 30 s, doubling up to 5 min ({@link Backoff}),
 * and the next step a small probe. A window that refuses more than
 * {@value #SHORTENING_REFUSALS} of the offered tasks halves what is left of a rest after
 * threads that only waited, while the pool's budget of changes is not spent and the pool
 * is below any knee seen. A step is compared with the mean throughput of the windows at
 * its size before it, and a shortfall within two standard errors of the windows' noise
 * ({@link WindowNoise}, never less than the completions' Poisson noise) is judged again
 * over up to {@value PoolController#JUDGING_WINDOWS} windows, unless the service time
 * rose with the threads beyond its own noise, which says they only waited (not in a
 * window that refused work while the tasks that ended kept fewer than
 * {@value PoolController#SATURATED_BUSY} of its threads busy: longer tasks still running
 * are missing from its mean, which rises as they end). A staffing step is undone when the
 * wait it took off the queue reappeared in the service time. A saturated step from beyond
 * a knee found (not only a bound) is kept only when it gained at least
 * {@value #BEYOND_KNEE_EFFICIENCY} of its share, refusals or not, and is otherwise undone
 * with a rest that refusals do not cut short: the knee already says that threads there
 * serve nothing more. A kept step that raised throughput clearly less than in proportion
 * crossed the knee, which the {@link Knee} learns.
 *
 * @author poolpilot authors
 */
final class StepJudge {

	/**
	 * The share of the offered tasks a window must refuse to shorten a rest after threads
	 * that only waited.
	 */
	static final double SHORTENING_REFUSALS = 0.05;

	/**
	 * The share of its threads' share of throughput a saturated step from beyond a knee
	 * found must gain to be kept, even while the pool refuses work: nearer to paying in
	 * proportion (a knee learnt too low) than to paying nothing (the knee).
	 */
	static final double BEYOND_KNEE_EFFICIENCY = 0.5;

	private final Backoff growthRest;

	private final Knee knee;

	private final WindowNoise throughputs;

	private final WindowNoise serviceTimes;

	private @Nullable Step step;

	/**
	 * Whether the next step is a small probe, as after a step that did not pay.
	 */
	private boolean probeNext;

	/**
	 * Whether growth rests because added threads only waited elsewhere.
	 */
	private boolean wasted;

	StepJudge(NanoClock clock, Knee knee) {
		this(clock, knee, new WindowNoise(), new WindowNoise());
	}

	/**
	 * Create a judge.
	 * @param clock the clock that times growth's rests
	 * @param knee the knee that kept steps teach
	 * @param throughputs the pool's throughput window to window
	 * @param serviceTimes the pool's mean service time window to window
	 */
	StepJudge(NanoClock clock, Knee knee, WindowNoise throughputs, WindowNoise serviceTimes) {
		this.growthRest = new Backoff(clock);
		this.knee = knee;
		this.throughputs = throughputs;
		this.serviceTimes = serviceTimes;
	}

	/**
	 * Judge the step taken before this window, if any.
	 * @return {@code null} when no step was pending, else what undoes it or keeps judging
	 * it, or the step kept
	 */
	@Nullable Verdict judge(ClosedWindow window) {
		Step step = this.step;
		if (step == null) {
			return null;
		}
		this.step = null;
		step.measure(window.throughput(), window.completions);
		Decision undone = judge(step, window);
		return (undone != null) ? new Verdict(undone, null)
				: new Verdict(null, new KeptStep(step.from, step.to, step.gain(), !window.queueing));
	}

	private @Nullable Decision judge(Step step, ClosedWindow window) {
		LittlesLaw law = window.law;
		if (step.kind == Step.Kind.SURGE) {
			Decision review = SurgeReview.review(step, window, serviceError());
			if (review != null && review.action() == Action.HOLD) {
				this.step = step;
			}
			return review;
		}
		if (step.kind == Step.Kind.BUFFERING) {
			// Threads that hold tasks on saturated cores serve no more and wait for the
			// cores: neither says the step did not pay, and neither teaches a knee.
			return null;
		}
		boolean measured = window.completions > 0;
		double serviceNoise = serviceError(step, window);
		// The service time rising with the threads beyond its noise says they only
		// waited elsewhere.
		// Unless the tasks that ended are too few to say: a pool that turned work away
		// for want of a thread, whose every thread was busy then, while those tasks kept
		// fewer busy, still runs longer ones, whose ends raise the mean as they come.
		boolean censored = window.refused > 0 && window.busy < PoolController.SATURATED_BUSY * window.size;
		boolean wasted = measured && !censored
				&& step.wasted(law.meanServiceTimeMs(), WindowNoise.SIGNIFICANT * serviceNoise);
		// A step after which the pool refuses less, or still refuses work its threads
		// do not wait for, is kept: refusals are demand that throughput does not show.
		boolean refusesLess = !wasted && window.refusedShare() < step.refusedBefore / 2;
		// Undone only when both say so, the throughput that did not rise and the service
		// time that rose: either alone is within a window's noise more often.
		if (step.kind == Step.Kind.REFUSING && wasted && !refusesLess
				&& step.gain() / step.added() < PoolController.MIN_SCALING_EFFICIENCY) {
			return revertWasted(step, window);
		}
		if (step.kind == Step.Kind.STAFFING) {
			double waitChange = law.meanQueueWaitMs() - step.queueWaitMsBefore;
			double serviceChange = law.meanServiceTimeMs() - step.serviceMsBefore;
			// The wait moved from the queue into the service time: only when the queue
			// wait fell (a backlog draining, a burst, may lengthen both), and never
			// against a service time unknown before the step.
			boolean moved = waitChange < 0 && step.serviceMsBefore > 0
					&& serviceChange > PoolController.WASTED * -waitChange
							+ SlowdownRule.MIN_RELIEF * step.serviceMsBefore
					&& serviceChange > WindowNoise.SIGNIFICANT * serviceNoise * step.serviceMsBefore;
			// Otherwise (the wait grew as a backlog drained, or a burst came) only a
			// service time that rose as threads that only wait make it says so.
			boolean waited = waitChange >= 0 && wasted;
			if (measured && !refusesLess && !window.refusing() && (moved || waited)) {
				return Decision.change(Action.REVERT, window.size, window.bounds.clamp(step.from),
						new WaitMoved(waitChange, serviceChange, blockGrowth(true)), null, false);
			}
			return null;
		}
		double gain = step.gain();
		double added = step.added();
		double efficiency = gain / added;
		double error = step.relativeError(this.throughputs.relativeVariance());
		if (step.kind == Step.Kind.SATURATED && !refusesLess && window.queueing && beyondAFoundKnee(step)
				&& efficiency < BEYOND_KNEE_EFFICIENCY) {
			// The knee says threads beyond it serve nothing more, and refusals do not
			// change that: kept only when the step paid, judged again while the noise
			// cannot tell.
			if ((gain + WindowNoise.SIGNIFICANT * error) / added >= BEYOND_KNEE_EFFICIENCY
					&& step.windows < PoolController.JUDGING_WINDOWS) {
				this.step = step;
				return Decision.hold(window.size, new Judging(step.from, step.to, gain), null, true);
			}
			return revertWasted(step, window);
		}
		if (step.kind == Step.Kind.SATURATED && !refusesLess && window.queueing
				&& efficiency < PoolController.MIN_SCALING_EFFICIENCY) {
			if (wasted) {
				return revertWasted(step, window);
			}
			// A pool that still turns work away keeps a step its threads did not wait
			// for, but learns the knee it crossed below, so that the next steps stop
			// half beyond it instead of climbing on refusals that more threads do not
			// serve.
			if (!window.refusing()) {
				// Otherwise keep judging while the shortfall is within the windows'
				// noise and the step has had fewer than three.
				if ((gain + WindowNoise.SIGNIFICANT * error) / added >= PoolController.MIN_SCALING_EFFICIENCY
						&& step.windows < PoolController.JUDGING_WINDOWS) {
					this.step = step;
					return Decision.hold(window.size, new Judging(step.from, step.to, gain), null, true);
				}
				return Decision.change(Action.REVERT, step.to, window.bounds.clamp(step.from),
						new NoGain(gain, added, blockGrowth(false)), null, false);
			}
		}
		this.growthRest.reset();
		this.knee.kept(step, window, error);
		return null;
	}

	/**
	 * Return whether a step began at or beyond a tenth above a knee found
	 * ({@link Knee#withMargin}), where a probe down or a cut that found it leaves a pool
	 * (found by one of those, or by a step that crossed it from below): not above a knee
	 * that is only a bound, which a step that paid less than in proportion taught, and
	 * which the next steps check.
	 */
	private boolean beyondAFoundKnee(Step step) {
		return this.knee.known() && !this.knee.bound() && step.from >= Knee.withMargin(this.knee.threads());
	}

	/**
	 * Undo a step whose threads only waited elsewhere.
	 */
	private Decision revertWasted(Step step, ClosedWindow window) {
		double gain = step.gain();
		return Decision.change(Action.REVERT, window.size, window.bounds.clamp(step.from),
				new NoGain(gain, step.added(), blockGrowth(true)), null, false);
	}

	/**
	 * The standard error of a step's relative change of service time, one window against
	 * the one before it, from the windows' noise.
	 */
	private double serviceError() {
		return Math.sqrt(2 * this.serviceTimes.relativeVariance());
	}

	/**
	 * The standard error of a step's relative change of service time: from the windows'
	 * noise once two windows in a row at one size measured it, and before that never less
	 * than if each task's time varied by as much as its mean, over the tasks that ended
	 * in the window and in the one before the step (√(1/N₁ + 1/N₀)). The first windows of
	 * tasks whose times spread widely swing by a fifth and more from one to the next, and
	 * a step judged on them as if they did not was undone as threads that only waited (a
	 * pool of lognormal 450 ms calls taken back from 59 threads to 41 on a service time
	 * up 72 ms, growth resting for 30 s while its queue filled).
	 */
	private double serviceError(Step step, ClosedWindow window) {
		if (this.serviceTimes.measured()) {
			return serviceError();
		}
		return WindowNoise.relativeError(0, 1, window.completions, 1, step.completionsBefore);
	}

	/**
	 * Take a step, to be judged in the next windows against the mean throughput of the
	 * windows at its size before it.
	 */
	void take(Step step) {
		WindowNoise.Level level = this.throughputs.level(step.from);
		this.step = step.levelBefore(level.mean(), level.windows());
	}

	/**
	 * Take a surge's step, or move the surge step already pending to its new size.
	 */
	void surge(int threads, Step fresh) {
		Step pending = this.step;
		this.step = (pending != null && pending.kind == Step.Kind.SURGE) ? pending.to(threads) : fresh;
	}

	/**
	 * The pool got {@code threads}: a step is judged by the size it really took.
	 */
	void applied(int threads) {
		Step step = this.step;
		if (step != null && threads != step.to) {
			this.step = (threads > step.from) ? step.to(threads) : null;
		}
	}

	/**
	 * Block growth after a step that did not pay, for longer each time, and make the next
	 * step a small probe.
	 * @return how long growth is blocked
	 */
	Duration blockGrowth(boolean wasted) {
		this.probeNext = true;
		this.wasted = wasted;
		return this.growthRest.take();
	}

	/**
	 * Block growth as after a step whose threads only waited, unless it is blocked
	 * already: fewer threads served as much. Either way the rest is now one that refusals
	 * do not cut short ({@link #wastedRest()}), though they may halve it
	 * ({@link #refused}).
	 */
	void restGrowth() {
		if (!this.growthRest.resting()) {
			blockGrowth(true);
		}
		this.wasted = true;
	}

	/**
	 * Halve what is left of a rest after threads that only waited when the window refused
	 * more than {@value #SHORTENING_REFUSALS} of the offered tasks, while changes are
	 * left in the pool's budget and it is below any knee seen: a pool that keeps refusing
	 * tries again sooner, and at a downstream's limit growth and its reverts do not take
	 * turns.
	 * @param window the window that just closed
	 * @param changes the pool's budget of changes
	 */
	void refused(ClosedWindow window, ChangeBudget changes) {
		if (window.refusedShare() > SHORTENING_REFUSALS && wastedRest() && !changes.spent()
				&& (!this.knee.known() || window.size < this.knee.threads())) {
			this.growthRest.shorten();
		}
	}

	/**
	 * Return whether growth rests after threads that only waited elsewhere, which
	 * refusals do not cut short, though they may halve it ({@link #refused}).
	 */
	boolean wastedRest() {
		return this.wasted && this.growthRest.resting();
	}

	boolean resting() {
		return this.growthRest.resting();
	}

	Duration remaining() {
		return this.growthRest.remaining();
	}

	/**
	 * Return the most a saturated step may reach, {@code most} or a small probe when the
	 * last step did not pay.
	 */
	int limit(int size, int most) {
		if (!this.probeNext) {
			return most;
		}
		this.probeNext = false;
		return Math.min(most, size + Math.max(1, size / 10));
	}

	/**
	 * Return whether the next step may leap to the model's size
	 * ({@link ClosedWindow#leaps}): not when it is to be a small probe after a step that
	 * did not pay.
	 */
	boolean mayLeap() {
		return !this.probeNext;
	}

	/**
	 * What judging a step came to: a decision that undoes it or keeps judging it, or the
	 * step kept.
	 */
	record Verdict(@Nullable Decision undone, @Nullable KeptStep kept) {
	}

}
