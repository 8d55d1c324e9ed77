package io.github.poolpilot.budget;

/**
 * Which pools may lend their idle threads to a pool that grows, and who is told when one
 * did. Only a pool whose size something gives back when its load returns should lend: the
 * tuner lends the pools it sizes.
 *
 * @author poolpilot authors
 */
public interface Lenders {

	/**
	 * Lenders that lend nothing: a resize fits in what the budget has free, or not at
	 * all.
	 */
	Lenders NONE = (member) -> false;

	/**
	 * Return whether a pool may lend its idle threads now.
	 * @param member the pool
	 * @return whether it may lend
	 */
	boolean mayLend(BudgetMember member);

	/**
	 * A pool lent threads: it was resized through its door, under the budget's lock,
	 * before the pool that borrowed them grows.
	 * @param loan who lent to whom, from which maximum size to which
	 */
	default void lent(ThreadBudget.Loan loan) {
	}

}
