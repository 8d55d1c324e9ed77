package io.github.poolpilot.budget;

import java.util.List;

/**
 * A pool as the budget sees it: its share by weight, its bounds, its sizes and its live
 * threads, and the one door through which it is resized.
 *
 * @author poolpilot authors
 */
public interface BudgetMember {

	/**
	 * Return the pool's name.
	 * @return the name
	 */
	String getName();

	/**
	 * Return the pool's share of the budget relative to the other pools' weights.
	 * @return the weight, at least 1
	 */
	int getWeight();

	/**
	 * Return the smallest size the pool may have.
	 * @return its min-threads
	 */
	int minThreads();

	/**
	 * Return the largest size the pool may have.
	 * @return its max-threads
	 */
	int maxThreads();

	/**
	 * Return the pool's core size now.
	 * @return the core size
	 */
	int corePoolSize();

	/**
	 * Return the pool's maximum size now: the most threads it may start.
	 * @return the maximum size
	 */
	int maxPoolSize();

	/**
	 * Return the pool's live threads now, which may exceed its maximum size for a while
	 * after it shrank.
	 * @return the live threads
	 */
	int liveThreads();

	/**
	 * Return whether the pool settles after a resize that restarted its workers (a Kafka
	 * listener's consumers rejoining their group): it lends nothing meanwhile, for a loan
	 * would restart them again.
	 * @return whether it settles
	 */
	default boolean isSettling() {
		return false;
	}

	/**
	 * Resize the pool through its own checked door.
	 * @param corePoolSize the new core size
	 * @param maxPoolSize the new maximum size
	 * @return the pools that lent threads for it, none when the budget had them free
	 */
	List<ThreadBudget.Loan> resize(int corePoolSize, int maxPoolSize);

}
