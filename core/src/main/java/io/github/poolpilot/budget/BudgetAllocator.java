package io.github.poolpilot.budget;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * Shares a thread budget between pools by weight. Each pool is guaranteed
 * {@code weight / Σ weights} of the budget (never less than its min-threads) and may
 * borrow what other pools leave idle. When the pools ask for more than the budget, it is
 * shared in two rounds of weighted water-filling (every pool gets the same threads per
 * unit of weight, up to what it asked for): first what each pool needs for its load now,
 * then what it asked for beyond that, such as idle threads kept for a while in case the
 * load returns. So a pool's idle threads are the first to go when another pool needs
 * them. A pool that may not borrow (more threads did not raise its throughput) is held to
 * its guaranteed share.
 *
 * @author poolpilot authors
 */
public final class BudgetAllocator {

	private BudgetAllocator() {
	}

	/**
	 * Allocate the budget.
	 * @param demands what each pool asks for
	 * @param budget the threads all pools may have together
	 * @return the threads each pool gets, by pool name, in the order given
	 * @throws IllegalArgumentException if the pools' min-threads together exceed the
	 * budget
	 */
	public static Map<String, Integer> allocate(List<Demand> demands, int budget) {
		int minimums = demands.stream().mapToInt(Demand::minThreads).sum();
		if (minimums > budget) {
			throw new IllegalArgumentException(
					"The pools' min-threads add up to " + minimums + ", more than the budget of " + budget);
		}
		int totalWeight = totalWeight(demands);
		List<Share> shares = new ArrayList<>();
		for (Demand demand : demands) {
			int guaranteed = guaranteed(demand, budget, totalWeight);
			int wanted = Math.max(demand.minThreads(), Math.min(demand.maxThreads(), demand.threads()));
			int cap = demand.mayBorrow() ? wanted : Math.min(wanted, guaranteed);
			int needed = Math.max(demand.minThreads(), Math.min(cap, demand.needed()));
			shares.add(new Share(demand, needed, cap));
		}
		shares.forEach((share) -> share.threads = share.demand.minThreads());
		fill(shares, (share) -> share.needed, budget);
		fill(shares, (share) -> share.cap, budget);
		Map<String, Integer> allocation = new LinkedHashMap<>();
		shares.forEach((share) -> allocation.put(share.demand.pool(), share.threads));
		return allocation;
	}

	/**
	 * Return each pool's guaranteed share of the budget: its weight's share, never less
	 * than its min-threads. A pool that may not borrow is held to it.
	 * @param demands what each pool asks for
	 * @param budget the threads all pools may have together
	 * @return the guaranteed share of each pool, by pool name, in the order given
	 */
	public static Map<String, Integer> guaranteed(List<Demand> demands, int budget) {
		int totalWeight = totalWeight(demands);
		Map<String, Integer> shares = new LinkedHashMap<>();
		demands.forEach((demand) -> shares.put(demand.pool(), guaranteed(demand, budget, totalWeight)));
		return shares;
	}

	private static int guaranteed(Demand demand, int budget, int totalWeight) {
		return Math.max(demand.minThreads(), BudgetSizing.share(budget, demand.weight(), totalWeight));
	}

	private static int totalWeight(List<Demand> demands) {
		return demands.stream().mapToInt(Demand::weight).sum();
	}

	/**
	 * Weighted water-filling of each share from what it has up to a cap: the highest
	 * level L (threads per unit of weight) at which Σ clamp(⌊L·w⌋, has, cap) fits the
	 * budget, then the few threads left by rounding to the shares below their cap, one
	 * each, heaviest first.
	 */
	private static void fill(List<Share> shares, ToIntFunction<Share> cap, int budget) {
		int[] floors = shares.stream().mapToInt((share) -> share.threads).toArray();
		if (threadsAt(shares, floors, cap, Double.MAX_VALUE) <= budget) {
			shares.forEach((share) -> share.threads = Math.max(share.threads, cap.applyAsInt(share)));
			return;
		}
		double low = 0;
		double high = shares.stream()
			.mapToDouble((share) -> (double) cap.applyAsInt(share) / share.demand.weight())
			.max()
			.orElse(0);
		for (int i = 0; i < 64; i++) {
			double level = (low + high) / 2;
			if (threadsAt(shares, floors, cap, level) <= budget) {
				low = level;
			}
			else {
				high = level;
			}
		}
		long used = 0;
		for (int i = 0; i < shares.size(); i++) {
			Share share = shares.get(i);
			share.threads = at(share, floors[i], cap.applyAsInt(share), low);
			used += share.threads;
		}
		List<Share> growable = new ArrayList<>(shares);
		growable.sort(Comparator.comparingInt((Share share) -> share.demand.weight()).reversed());
		// Rounding down left fewer threads than there are pools; hand them out one at a
		// time. The caps together exceed the budget, so the loop ends.
		while (used < budget) {
			for (Share share : growable) {
				if (used < budget && share.threads < cap.applyAsInt(share)) {
					share.threads++;
					used++;
				}
			}
		}
	}

	private static long threadsAt(List<Share> shares, int[] floors, ToIntFunction<Share> cap, double level) {
		long threads = 0;
		for (int i = 0; i < shares.size(); i++) {
			threads += at(shares.get(i), floors[i], cap.applyAsInt(shares.get(i)), level);
		}
		return threads;
	}

	private static int at(Share share, int floor, int cap, double level) {
		double threads = Math.floor(level * share.demand.weight());
		return (int) Math.max(floor, Math.min(cap, threads));
	}

	/**
	 * What one pool asks of the budget.
	 *
	 * @param pool the pool's name
	 * @param minThreads the least it must have
	 * @param maxThreads the most it may have
	 * @param weight its share of the budget relative to the others
	 * @param threads how many threads it asks for now
	 * @param needed how many of those its load needs now; the rest it would keep idle
	 * @param mayBorrow whether it may take more than its guaranteed share
	 */
	public record Demand(String pool, int minThreads, int maxThreads, int weight, int threads, int needed,
			boolean mayBorrow) {

		public Demand {
			if (weight < 1) {
				throw new IllegalArgumentException(
						"weight of pool '" + pool + "' must be at least 1 but was " + weight);
			}
		}

		/**
		 * A demand whose load needs every thread it asks for.
		 * @param pool the pool's name
		 * @param minThreads the least it must have
		 * @param maxThreads the most it may have
		 * @param weight its share of the budget relative to the others
		 * @param threads how many threads it asks for now
		 * @param mayBorrow whether it may take more than its guaranteed share
		 */
		public Demand(String pool, int minThreads, int maxThreads, int weight, int threads, boolean mayBorrow) {
			this(pool, minThreads, maxThreads, weight, threads, threads, mayBorrow);
		}

	}

	private static final class Share {

		private final Demand demand;

		private final int needed;

		private final int cap;

		private int threads;

		Share(Demand demand, int needed, int cap) {
			this.demand = demand;
			this.needed = needed;
			this.cap = cap;
		}

	}

}
