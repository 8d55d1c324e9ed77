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
 * and the next step a small probe; a shortfall within two standard errors of the windows'
 * throughput (completions counted as Poisson) is judged again over up to
 * {@value PoolController#JUDGING_WINDOWS} windows, unless the service time rose with the
 * threads, which says they only waited. A staffing step is undone when the wait it took
 * off the queue reappeared in the service time. A kept step that raised throughput
 * clearly less than in proportion crossed the knee, which the {@link Knee} learns.
 *
 * @author poolpilot authors
 */
final class StepJudge {

	private final Backoff growthRest;

	private final Knee knee;

	private @Nullable Step step;

	/**
	 * Whether the next step is a small probe, as after a step that did not pay.
	 */
	private boolean probeNext;

	StepJudge(NanoClock clock, Knee knee) {
		this.growthRest = new Backoff(clock);
		this.knee = knee;
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
			return null;
		}
		if (step.kind == Step.Kind.STAFFING) {
			double waitChange = law.meanQueueWaitMs() - step.queueWaitMsBefore;
			double serviceChange = law.meanServiceTimeMs() - step.serviceMsBefore;
			if (window.completions > 0 && serviceChange > PoolController.WASTED * Math.max(0, -waitChange)
					+ SlowdownRule.MIN_RELIEF * step.serviceMsBefore) {
				return Decision.change(Action.REVERT, window.size, window.bounds.clamp(step.from),
						new WaitMoved(waitChange, serviceChange, blockGrowth()), null, false);
			}
			return null;
		}
		double gain = step.gain();
		double added = step.added();
		double efficiency = gain / added;
		if (window.queueing && efficiency < PoolController.MIN_SCALING_EFFICIENCY) {
			// The service time rising with the threads says they only waited elsewhere.
			boolean wasted = step.serviceMsBefore > 0
					&& law.meanServiceTimeMs() / step.serviceMsBefore - 1 >= PoolController.WASTED * added;
			// Otherwise keep judging while the shortfall is within two standard errors of
			// the windows' throughput and the step has had fewer than three.
			if (!wasted && (gain + 2 * step.relativeError()) / added >= PoolController.MIN_SCALING_EFFICIENCY
					&& step.windows < PoolController.JUDGING_WINDOWS) {
				this.step = step;
				return Decision.hold(window.size, new Judging(step.from, step.to, gain), null, true);
			}
			return Decision.change(Action.REVERT, step.to, window.bounds.clamp(step.from),
					new NoGain(gain, added, blockGrowth()), null, false);
		}
		this.growthRest.reset();
		if (window.queueing && efficiency < PoolController.KNEE_EFFICIENCY) {
			// It crossed the knee, where threads stop paying: the new throughput needs
			// only about from · X₁/X₀ of them.
			this.knee.learn(step.from * (1 + gain));
		}
		else if (window.queueing && this.knee.known() && step.to > this.knee.threads()) {
			this.knee.forget();
		}
		return null;
	}

	/**
	 * Take a step, to be judged in the next window.
	 */
	void take(Step step) {
		this.step = step;
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
	Duration blockGrowth() {
		this.probeNext = true;
		return this.growthRest.take();
	}

	/**
	 * Block growth as after a step that did not pay, unless it is blocked already.
	 */
	void restGrowth() {
		if (!this.growthRest.resting()) {
			blockGrowth();
		}
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
	 * What judging a step came to: a decision that undoes it or keeps judging it, or the
	 * step kept.
	 */
	record Verdict(@Nullable Decision undone, @Nullable KeptStep kept) {
	}

}
