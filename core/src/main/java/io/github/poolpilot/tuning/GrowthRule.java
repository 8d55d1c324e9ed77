package io.github.poolpilot.tuning;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.Queueing;
import io.github.poolpilot.tuning.Decision.Cause.Waiting;
import io.github.poolpilot.tuning.Decision.KeptStep;

/**
 * Grows a pool towards the model's size. A saturated pool grows towards a tenth beyond
 * the model's size by at most half of its size in one window
 * ({@value PoolController#MAX_GROWTH}×), so that a downstream's limit is passed by at
 * most 50 %, and never beyond half above a knee seen, when {@link SaturatedGrowth} lets
 * it; a pool a quarter of the model's size or less that turns away or leaves waiting more
 * than a quarter of its work leaps to it in one step ({@link ClosedWindow#leaps}), judged
 * as a surge is. A pool that is not saturated but whose tasks wait (a mean queue wait
 * above {@value PoolController#WAITING} of S₀) is staffed up to the model's size at once,
 * unless the CPU limits it or growth rests. Every step is handed to the
 * {@link StepJudge}, which judges it in the windows after it. Growth that meets refusals
 * does not wait for the pool's budget of changes; the rest does ({@link ChangeBudget}).
 *
 * @author poolpilot authors
 */
final class GrowthRule {

	private final SaturatedGrowth saturated;

	private final StepJudge steps;

	private final Knee knee;

	private final ChangeBudget changes;

	GrowthRule(SaturatedGrowth saturated, StepJudge steps, Knee knee, ChangeBudget changes) {
		this.saturated = saturated;
		this.steps = steps;
		this.knee = knee;
		this.changes = changes;
	}

	/**
	 * Grow a saturated pool, or say what it does instead (a probe down, a cut, a hold).
	 * @param window the window that just closed
	 * @param kept the step this window kept, if any
	 * @param surge the most threads a surge since the last window asked for, 0 when none
	 * @param probing whether a probe down was judged in this window
	 * @return the decision
	 */
	Decision grow(ClosedWindow window, @Nullable KeptStep kept, int surge, boolean probing) {
		int size = window.size;
		Decision instead = this.saturated.instead(window, kept, probing);
		if (instead != null) {
			return instead;
		}
		// A little beyond the need, so that its noise does not ask for one more step.
		int target = window.need + Math.max(1, window.need / 10);
		int most = Math.max(Math.min((int) Math.ceil(size * PoolController.MAX_GROWTH), this.knee.cap()), surge);
		boolean leap = this.steps.mayLeap() && window.leaps(target, most);
		most = this.steps.limit(size, most);
		if (leap) {
			most = Math.min(target, this.knee.cap());
		}
		target = window.bounds.clamp(Math.min(target, Math.max(most, size + 1)));
		// Growth that meets refusals does not wait for the budget of changes.
		if (this.changes.spent() && !window.refusing()) {
			return Decision.hold(window.size, this.changes.spentCause(), kept, true);
		}
		this.steps.take(Step.after(leap ? Step.Kind.SURGE : Step.Kind.SATURATED, window, target));
		return Decision.change(Action.GROW, size, target, new Queueing(window.busy, window.need), kept, true);
	}

	/**
	 * Staff a pool that is not saturated but whose tasks wait up to the model's size.
	 * @param window the window that just closed
	 * @param kept the step this window kept, if any
	 * @return the decision to grow, or {@code null}
	 */
	@Nullable Decision staff(ClosedWindow window, @Nullable KeptStep kept) {
		int size = window.size;
		boolean waiting = window.law.meanQueueWaitMs() > PoolController.WAITING * window.baseServiceMs;
		if (window.need <= size || !waiting || window.cpuBound() || this.steps.resting() || this.changes.spent()) {
			return null;
		}
		int target = window.bounds.clamp(Math.min(window.need, this.knee.cap()));
		if (target <= size) {
			return null;
		}
		this.steps.take(Step.after(Step.Kind.STAFFING, window, target));
		return Decision.change(Action.GROW, size, target, new Waiting(window.law.meanQueueWaitMs(), window.need), kept,
				true);
	}

}
