package io.github.poolpilot.tuning;

import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause;
import io.github.poolpilot.tuning.Decision.Cause.BudgetReclaimed;
import io.github.poolpilot.tuning.Decision.Cause.LoanReturned;

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
	 * has shrinks ({@link #cut}); one given less than it asked for says so.
	 * @param decision what the pool's controller decided
	 * @param size the pool's size now
	 * @param threads the threads the budget lets it have now
	 * @param share the pool's guaranteed share of the budget
	 * @return the decision to carry out
	 */
	static Decision withinBudget(Decision decision, int size, int threads, int share) {
		if (threads == decision.threads()) {
			return decision;
		}
		if (threads < Math.min(size, decision.threads())) {
			return cut(decision, size, threads, share);
		}
		return new Decision(decision.action(), decision.from(), threads, decision.cause(), decision.kept(),
				(threads < decision.threads()) ? threads : null, decision.needed(), decision.mayBorrow(),
				decision.limited() || threads < decision.threads());
	}

	/**
	 * Return the shrink of a pool the budget gives fewer threads than it has: it gives
	 * back what it borrowed beyond its guaranteed share when it may not borrow (more
	 * threads did not help it) and keeps that share; otherwise other pools need the
	 * threads.
	 * @param wanted what the pool's controller decided
	 * @param size the pool's size now
	 * @param threads the threads the budget lets it have now, fewer than its size
	 * @param share the pool's guaranteed share of the budget
	 * @return the decision to shrink
	 */
	static Decision cut(Decision wanted, int size, int threads, int share) {
		Cause cause = (!wanted.mayBorrow() && threads >= share) ? new LoanReturned(wanted, share)
				: new BudgetReclaimed(wanted);
		return new Decision(Action.SHRINK, size, threads, cause, null, null, wanted.needed(), wanted.mayBorrow(), true);
	}

}
