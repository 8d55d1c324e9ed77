package io.github.poolpilot.budget;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.poolpilot.budget.ThreadBudget.Held;

/**
 * How an allocation becomes the threads each pool may have now: threads a pool gives back
 * count until they ended, so a growing pool gets only what the others' live threads
 * leave.
 *
 * @author poolpilot authors
 */
final class Handover {

	private Handover() {
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
