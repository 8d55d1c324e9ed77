package io.github.poolpilot.tuning;

import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.BudgetReclaimed;

/**
 * A controller's decision as the budget lets it be carried out ({@code ThreadBudget} says
 * how many threads each pool may have now): the tuner's window and its fast path share
 * it.
 *
 * @author poolpilot authors
 */
final class BudgetShares {

	private BudgetShares() {
	}

	/**
	 * Return a decision as the budget lets it be carried out: a pool given less than it
	 * has shrinks for the others; one given less than it asked for says so.
	 */
	static Decision withinBudget(Decision decision, int size, int threads) {
		if (threads == decision.threads()) {
			return decision;
		}
		if (threads < Math.min(size, decision.threads())) {
			return new Decision(Action.SHRINK, size, threads, new BudgetReclaimed(decision), null, null,
					decision.needed(), decision.mayBorrow(), true);
		}
		return new Decision(decision.action(), decision.from(), threads, decision.cause(), decision.kept(),
				(threads < decision.threads()) ? threads : null, decision.needed(), decision.mayBorrow(),
				decision.limited() || threads < decision.threads());
	}

}
