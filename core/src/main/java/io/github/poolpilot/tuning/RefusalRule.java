package io.github.poolpilot.tuning;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.measure.PoolSnapshot.Rejections;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.Refusing;
import io.github.poolpilot.tuning.Decision.KeptStep;

/**
 * Refusals are demand: a pool that turned tasks away in a window (a full queue, or a task
 * that waited too long for a thread) while the model needs more threads than it has grows
 * to the model's size at once, a tenth beyond it, whatever the throughput said of its
 * last step and whether or not its threads looked busy: when a pool serves nearly
 * everything offered, more threads cannot raise its throughput, only take away its
 * refusals. Only a step whose added threads were shown to wait elsewhere (their service
 * time rose with them, {@link StepJudge#wastedRest()}) holds it back while growth rests,
 * and a knee seen caps it. The step is judged like any other, and kept unless its threads
 * only waited.
 *
 * @author poolpilot authors
 */
final class RefusalRule {

	/**
	 * The cumulative refusals for want of room at the last window, -1 before the first.
	 */
	private long refusedBefore = -1;

	/**
	 * Return the tasks the pool refused in the window that closed, for want of a thread
	 * or a place in its queue (not for an open circuit nor a shutdown).
	 * @param snapshot the window
	 * @return the refusals, 0 for the first window a controller sees
	 */
	long refused(PoolSnapshot snapshot) {
		Rejections rejections = snapshot.tasks().rejections();
		long total = rejections.queueFull() + rejections.queueWait();
		long refused = (this.refusedBefore < 0) ? 0 : Math.max(0, total - this.refusedBefore);
		this.refusedBefore = total;
		return refused;
	}

	/**
	 * Staff a pool that refused tasks up to the model's size, or return {@code null}.
	 * @param window the window that just closed
	 * @param kept the step this window kept, if any
	 * @param steps the growth steps' judge
	 * @param knee the knee seen
	 * @return the decision to grow, or {@code null}
	 */
	@Nullable Decision staff(ClosedWindow window, @Nullable KeptStep kept, StepJudge steps, Knee knee) {
		int size = window.size;
		if (!window.refusing() || window.need <= size || window.cpuLoad > PoolController.MAX_CPU
				|| steps.wastedRest()) {
			return null;
		}
		int wanted = window.need + Math.max(1, window.need / 10);
		// At most half again its size in one step, and half beyond a knee seen: a
		// downstream's limit is passed by at most 50 %.
		int most = Math.min((int) Math.ceil(size * PoolController.MAX_GROWTH), knee.cap());
		int target = window.bounds.clamp(Math.min(wanted, Math.max(most, size)));
		if (target <= size) {
			return null;
		}
		steps.take(new Step(Step.Kind.REFUSING, size, target, window.throughput(), window.completions,
				window.serviceMs(), window.law.meanQueueWaitMs())
			.refusing(StepJudge.refusedShare(window)));
		return Decision.change(Action.GROW, size, target, new Refusing(window.refused, window.offered, window.need),
				kept, true);
	}

}
