package io.github.poolpilot.pool;

import io.github.poolpilot.budget.BudgetMember;
import io.github.poolpilot.budget.ThreadBudget;

/**
 * What a pool its tuner sizes does with a task that finds its queue full: it adds a
 * thread for the task while it is below its cap, and refuses the task only when it
 * cannot, as Tomcat's request pool and a {@code ThreadPoolExecutor} whose maximum size is
 * above its core size do. A tuner that sizes a pool once a window reacts a window late: a
 * burst of a few hundred milliseconds fills a small queue within the window, and a pool
 * held below its max-threads would refuse what the same pool fixed at its max-threads
 * serves. The cap is the least of the pool's max-threads, the ceiling something outside
 * it sets (a lease of a cluster-wide limit), what its tuner allows now (no more than half
 * beyond a knee it saw, where more threads do not help, and nothing while the threads it
 * added only waited) and the budget's room ({@link ThreadBudget#makeRoom}); a pool no
 * tuner sizes is allowed nothing beyond its size. The one owner of that rule, for the
 * executors and the tuner's simulator alike.
 *
 * @author poolpilot authors
 */
public final class QueueOverflow {

	/**
	 * What a pool is allowed when no tuner sizes it: nothing beyond its size.
	 */
	public static final int NONE = 0;

	private QueueOverflow() {
	}

	/**
	 * Return the size a pool whose queue is full may grow to for the task that found it
	 * so: one thread more, within its cap. Call it within the budget's lock
	 * ({@link ThreadBudget#change}); the budget may lend the room from idle pools.
	 * @param pool the pool, at its size now (its maximum pool size)
	 * @param allowed the most threads its tuner allows it now, {@link #NONE} for none
	 * @param ceiling the most threads something outside the pool lets it have, such as
	 * its lease of a cluster-wide limit
	 * @param budget the budget it shares
	 * @return the size to grow to, or {@code -1} when the task is refused
	 */
	public static int grownSize(BudgetMember pool, int allowed, int ceiling, ThreadBudget budget) {
		if (allowed < 0 || ceiling < 1) {
			throw new IllegalArgumentException("the threads allowed (" + allowed + ") must not be negative and the "
					+ "ceiling (" + ceiling + ") must be at least 1 for pool '" + pool.getName() + "'");
		}
		int size = pool.maxPoolSize();
		int cap = Math.min(Math.min(allowed, pool.maxThreads()), ceiling);
		if (size >= cap) {
			return -1;
		}
		return (budget.makeRoom(pool, size + 1).overrun() == null) ? size + 1 : -1;
	}

}
