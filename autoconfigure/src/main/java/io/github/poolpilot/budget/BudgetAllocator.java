package io.github.poolpilot.budget;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Shares a thread budget between pools by weight. Each pool is guaranteed
 * {@code weight / Σ weights} of the budget (never less than its min-threads), may borrow
 * what other pools leave idle, and when demand exceeds the budget the threads are shared
 * by weighted water-filling: every pool gets the same threads per unit of weight, up to
 * what it asked for. A pool that may not borrow (its last growth did not raise its
 * throughput) is held to its guaranteed share.
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
		int totalWeight = demands.stream().mapToInt(Demand::weight).sum();
		List<Share> shares = new ArrayList<>();
		for (Demand demand : demands) {
			int guaranteed = Math.max(demand.minThreads(), (int) ((long) budget * demand.weight() / totalWeight));
			int wanted = Math.max(demand.minThreads(), Math.min(demand.maxThreads(), demand.threads()));
			int cap = demand.mayBorrow() ? wanted : Math.min(wanted, guaranteed);
			shares.add(new Share(demand, Math.max(cap, demand.minThreads())));
		}
		int capped = shares.stream().mapToInt((share) -> share.cap).sum();
		if (capped > budget) {
			fill(shares, budget);
		}
		else {
			shares.forEach((share) -> share.threads = share.cap);
		}
		Map<String, Integer> allocation = new LinkedHashMap<>();
		shares.forEach((share) -> allocation.put(share.demand.pool(), share.threads));
		return allocation;
	}

	/**
	 * Weighted water-filling: the highest level L (threads per unit of weight) at which Σ
	 * clamp(⌊L·w⌋, min, cap) fits the budget, then the few threads left by rounding to
	 * the pools below their cap, one each, heaviest first. Called only when the caps
	 * together exceed the budget, so the loop ends.
	 */
	private static void fill(List<Share> shares, int budget) {
		double low = 0;
		double high = shares.stream()
			.mapToDouble((share) -> (double) share.cap / share.demand.weight())
			.max()
			.orElse(0);
		for (int i = 0; i < 64; i++) {
			double level = (low + high) / 2;
			if (threadsAt(shares, level) <= budget) {
				low = level;
			}
			else {
				high = level;
			}
		}
		int used = 0;
		for (Share share : shares) {
			share.threads = share.at(low);
			used += share.threads;
		}
		List<Share> growable = new ArrayList<>(shares);
		growable.sort(Comparator.comparingInt((Share share) -> share.demand.weight()).reversed());
		// Rounding down left fewer threads than there are pools; hand them out one at a
		// time.
		while (used < budget) {
			for (Share share : growable) {
				if (used < budget && share.threads < share.cap) {
					share.threads++;
					used++;
				}
			}
		}
	}

	private static long threadsAt(List<Share> shares, double level) {
		long threads = 0;
		for (Share share : shares) {
			threads += share.at(level);
		}
		return threads;
	}

	/**
	 * What one pool asks of the budget.
	 *
	 * @param pool the pool's name
	 * @param minThreads the least it must have
	 * @param maxThreads the most it may have
	 * @param weight its share of the budget relative to the others
	 * @param threads how many threads it asks for now
	 * @param mayBorrow whether it may take more than its guaranteed share
	 */
	public record Demand(String pool, int minThreads, int maxThreads, int weight, int threads, boolean mayBorrow) {

		public Demand {
			if (weight < 1) {
				throw new IllegalArgumentException(
						"weight of pool '" + pool + "' must be at least 1 but was " + weight);
			}
		}

	}

	private static final class Share {

		private final Demand demand;

		private final int cap;

		private int threads;

		Share(Demand demand, int cap) {
			this.demand = demand;
			this.cap = cap;
		}

		int at(double level) {
			long threads = (long) Math.floor(level * this.demand.weight());
			return (int) Math.max(this.demand.minThreads(), Math.min(this.cap, threads));
		}

	}

}
