package io.github.poolpilot.budget;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.poolpilot.budget.BudgetAllocator.Demand;
import io.github.poolpilot.budget.ThreadBudget.Held;

/**
 * How an allocation becomes the threads each pool may have now: threads a pool gives back
 * count until they ended, so a growing pool gets only what the others' live threads
 * leave, and a pool sized by hand keeps its size up to its guaranteed share.
 *
 * @author poolpilot authors
 */
final class Handover {

	private Handover() {
	}

	/**
	 * Share the budget among the demands and return what each pool may have now
	 * ({@link ThreadBudget#threadsNow}), the threads of pools that left
	 * ({@code departed}) holding room until they ended.
	 */
	static Map<String, Integer> threadsNow(List<Demand> demands, List<Held> pools, int maxThreads, int departed) {
		int totalWeight = demands.stream().mapToInt(Demand::weight).sum();
		Map<String, Held> byName = new HashMap<>();
		pools.forEach((pool) -> byName.put(pool.name(), pool));
		List<Demand> held = new ArrayList<>();
		for (Demand demand : demands) {
			Held pool = byName.get(demand.pool());
			if (pool != null && pool.byHand()) {
				// Sized by hand: kept up to its guaranteed share, the rest is on loan.
				int share = BudgetSizing.share(maxThreads, demand.weight(), totalWeight);
				int floor = Math.max(demand.minThreads(), Math.min(pool.size(), share));
				held.add(new Demand(demand.pool(), floor, demand.maxThreads(), demand.weight(), demand.threads(),
						demand.needed(), demand.mayBorrow()));
			}
			else {
				held.add(demand);
			}
		}
		return threads(pools, BudgetAllocator.allocate(held, maxThreads), maxThreads - departed);
	}

	/**
	 * Turn an allocation into the threads each pool may have now: first what every pool
	 * keeps, then each growing pool gets what is left of the budget, up to its
	 * allocation.
	 */
	static Map<String, Integer> threads(List<Held> pools, Map<String, Integer> allocation, int maxThreads) {
		int held = 0;
		for (Held pool : pools) {
			held += ThreadBudget.holds(Math.min(pool.size(), allocation.get(pool.name())), pool.liveThreads());
		}
		Map<String, Integer> threads = new LinkedHashMap<>();
		for (Held pool : pools) {
			int allocated = allocation.get(pool.name());
			int given = allocated;
			if (allocated > pool.size()) {
				int kept = ThreadBudget.holds(pool.size(), pool.liveThreads());
				given = Math.max(pool.size(), Math.min(allocated, maxThreads - (held - kept)));
				held += Math.max(0, given - kept);
			}
			threads.put(pool.name(), given);
		}
		return threads;
	}

}
