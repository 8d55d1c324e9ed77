package io.github.poolpilot.budget;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.jspecify.annotations.Nullable;

/**
 * The budget's rules that hold before any pool exists: its maximum, each pool's
 * guaranteed share, the size each pool starts at, and whether the pools' floors fit. The
 * configuration's check and the registrar of declared pools ask these, so that what
 * start-up checks is what the running budget keeps.
 *
 * @author poolpilot authors
 */
public final class BudgetSizing {

	private BudgetSizing() {
	}

	/**
	 * Return a budget's maximum: the configured one, else the sum of the pools'
	 * max-threads.
	 * @param configured the configured maximum, or {@code null}
	 * @param poolsMaxThreads each pool's max-threads
	 * @return the maximum, at least 1
	 */
	public static int maxThreads(@Nullable Integer configured, IntStream poolsMaxThreads) {
		return (configured != null) ? configured : Math.max(1, poolsMaxThreads.sum());
	}

	/**
	 * Return the share of a budget a pool is guaranteed by its weight: weight / Σ weights
	 * of it, rounded down.
	 * @param budget the budget's maximum
	 * @param weight the pool's weight
	 * @param totalWeight the sum of every pool's weight
	 * @return the pool's share in threads
	 */
	public static int share(int budget, int weight, int totalWeight) {
		return (int) ((long) budget * weight / totalWeight);
	}

	/**
	 * Return the size each pool starts at: its initial threads where it sets them, else,
	 * when the tuner sizes the pools, its min-threads, so that the budget is not spent
	 * before any work arrives (a pool grows with its load from there: the tuner's fast
	 * path meets a step within a pulse or two, borrowing what the others leave idle).
	 * With tuning off nothing would grow a pool, so it starts at its weighted share of
	 * the budget within its bounds, as a fixed pool of that size.
	 * @param configured the configured budget, or {@code null}
	 * @param pools the pools, as configured
	 * @param tuned whether the tuner sizes the pools
	 * @return each pool's size by name, in the order given
	 */
	public static Map<String, Integer> initialSizes(@Nullable Integer configured, List<Planned> pools, boolean tuned) {
		int budget = maxThreads(configured, pools.stream().mapToInt(Planned::maxThreads));
		int totalWeight = pools.stream().mapToInt(Planned::weight).sum();
		Map<String, Integer> sizes = new LinkedHashMap<>();
		for (Planned pool : pools) {
			Integer initial = pool.initialThreads();
			int size = (initial != null) ? initial
					: tuned ? pool.minThreads() : share(budget, pool.weight(), Math.max(1, totalWeight));
			sizes.put(pool.name(), Math.max(pool.minThreads(), Math.min(pool.maxThreads(), size)));
		}
		return sizes;
	}

	/**
	 * Check that a configured budget gives every pool its floor.
	 * @param configured the configured maximum, or {@code null} for none
	 * @param floors each pool's min-threads by name
	 * @return what is short, or {@code null} when the floors fit
	 */
	public static @Nullable FloorsOverBudget checkFloors(@Nullable Integer configured, Map<String, Integer> floors) {
		int sum = floors.values().stream().mapToInt(Integer::intValue).sum();
		if (configured == null || configured >= Math.max(1, sum)) {
			return null;
		}
		return new FloorsOverBudget(configured, sum, floors);
	}

	/**
	 * A pool as configured, before it exists.
	 *
	 * @param name its name
	 * @param minThreads its min-threads
	 * @param maxThreads its max-threads
	 * @param weight its weight
	 * @param initialThreads the size it starts at, or {@code null} for the budget's rule
	 */
	public record Planned(String name, int minThreads, int maxThreads, int weight, @Nullable Integer initialThreads) {

	}

	/**
	 * A budget below the pools' floors.
	 *
	 * @param maxThreads the budget's maximum
	 * @param minThreads the pools' min-threads together
	 * @param floors each pool's min-threads by name
	 */
	public record FloorsOverBudget(int maxThreads, int minThreads, Map<String, Integer> floors) {

		/**
		 * Return the floors as a sum of terms, such as {@code talk 5 + stop 5}.
		 * @return the terms, empty when there are none
		 */
		public String terms() {
			return this.floors.entrySet()
				.stream()
				.map((floor) -> floor.getKey() + " " + floor.getValue())
				.collect(Collectors.joining(" + "));
		}

	}

}
