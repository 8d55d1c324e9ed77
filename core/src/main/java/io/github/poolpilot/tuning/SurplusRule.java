package io.github.poolpilot.tuning;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.Busy;
import io.github.poolpilot.tuning.Decision.Cause.Surplus;
import io.github.poolpilot.tuning.Decision.KeptStep;

/**
 * Shrinks a pool that had more threads than its load needs: when the model needed fewer
 * threads than the pool has (beyond a dead band of a fifth) for
 * {@value PoolController#SHRINK_WINDOWS} windows in a row, the pool shrinks in one step
 * to the most those windows needed: the model's size, or the most threads busy at once at
 * a pulse when more ({@link #needed}). Short lulls do not shrink it, so bursty load does
 * not make the size swing.
 *
 * @author poolpilot authors
 */
final class SurplusRule {

	private final RecentValues needs = new RecentValues(PoolController.SHRINK_WINDOWS);

	private int surplusWindows;

	/**
	 * The most threads busy at once at a pulse since the last window.
	 */
	private int busiest;

	/**
	 * Remember what a window needed, when the model knew: the model's size, or the most
	 * threads its pulses found busy at once when more, up to {@code cap}. The model
	 * staffs the window's mean load; bursts and tasks of very unequal length keep more
	 * threads busy at moments than the mean needs, and a pool shrunk to the mean refuses
	 * the next burst that a pool of the busiest moment's size holds (census draw 133,
	 * bursts of heavy-tailed tasks: shrunk from 33 to the model's 27 threads, it refused
	 * 253 tasks where the pool fixed at 46 refused 35; held at 33, 76). A knee caps it:
	 * past a downstream's limit the threads busy at once only wait in its line.
	 * @param need the model's size for the window, negative when unknown
	 * @param cap the most threads a busy moment may keep: the knee's cap, or no limit
	 */
	void needed(int need, int cap) {
		int busiest = Math.min(this.busiest, cap);
		this.busiest = 0;
		if (need >= 0) {
			this.needs.add(Math.max(need, busiest));
		}
	}

	/**
	 * Remember the threads busy at a pulse between two windows.
	 * @param active the threads running a task at the pulse
	 */
	void pulsed(int active) {
		this.busiest = Math.max(this.busiest, active);
	}

	/**
	 * Start counting surplus windows again: the pool needed all it had, or more.
	 */
	void reset() {
		this.surplusWindows = 0;
	}

	/**
	 * Shrink the pool after enough windows of surplus, else hold it. A shrink that waits
	 * for the pool's budget of changes holds the pool needing no more than it would have
	 * shrunk to, so that the budget may take the other threads meanwhile, and comes as
	 * soon as the budget allows while the surplus lasts.
	 */
	Decision shrinkOrHold(ClosedWindow window, @Nullable KeptStep kept, ChangeBudget changes) {
		int size = window.size;
		int deadBand = Math.max(2, size / 5);
		// A window in which tasks arrived and none ended says nothing of a surplus: its
		// tasks may all be stuck, whatever the model staffs at the base service time.
		boolean unknown = window.completions == 0 && window.law.arrivalRate() > 0;
		// Nor is a window in which the pool refused work: refusals are demand.
		this.surplusWindows = (!unknown && window.refused == 0 && window.need >= 0 && window.need <= size - deadBand)
				? this.surplusWindows + 1 : 0;
		if (this.surplusWindows >= PoolController.SHRINK_WINDOWS) {
			int peak = (int) this.needs.max();
			int target = window.bounds.clamp(Math.max(1, peak));
			if (target < size && changes.spent()) {
				return new Decision(Action.HOLD, size, size, changes.spentCause(), kept, null, target, true, false);
			}
			if (target < size) {
				this.surplusWindows = 0;
				return Decision.change(Action.SHRINK, size, target, new Surplus(peak, PoolController.SHRINK_WINDOWS),
						kept, true);
			}
		}
		if (window.need < 0) {
			return Decision.hold(size, new Busy(window.busy, null), kept, true);
		}
		int needed = Math.min(size, Math.max(window.need, (int) Math.ceil(window.busy)));
		return new Decision(Action.HOLD, size, size, new Busy(window.busy, window.need), kept, null, needed, true,
				false);
	}

}
