package io.github.poolpilot.tuning;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.BudgetReclaimed;

/**
 * How the budget's allocation becomes the threads each pool may have now, and the
 * decisions as the budget lets them be carried out: the tuner's window and its fast path
 * share it.
 *
 * @author poolpilot authors
 */
final class BudgetShares {

	private BudgetShares() {
	}

	/**
	 * Turn an allocation into the threads each pool may have now. Threads a pool gives
	 * back count until they ended: first what every pool keeps, then each growing pool
	 * gets what is left of the budget, up to its allocation.
	 */
	static Map<String, Integer> threads(List<Held> pools, Map<String, Integer> allocation, int maxThreads) {
		int held = 0;
		for (Held pool : pools) {
			held += Math.max(pool.liveThreads(), Math.min(pool.size(), allocation.get(pool.name())));
		}
		Map<String, Integer> threads = new LinkedHashMap<>();
		for (Held pool : pools) {
			int allocated = allocation.get(pool.name());
			int given = allocated;
			if (allocated > pool.size()) {
				int kept = Math.max(pool.liveThreads(), pool.size());
				given = Math.max(pool.size(), Math.min(allocated, maxThreads - (held - kept)));
				held += Math.max(0, given - kept);
			}
			threads.put(pool.name(), given);
		}
		return threads;
	}

	/**
	 * A pool's size and live threads, as the budget counts them.
	 */
	record Held(String name, int size, int liveThreads) {
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
