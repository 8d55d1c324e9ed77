package io.github.poolpilot.budget;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.budget.BudgetAllocator.Demand;

/**
 * The thread budget: how many live threads all managed pools may have together, and the
 * one owner of its rules. Every size change of every pool passes its check under its one
 * lock ({@link #change}), so that two changes to different pools cannot together pass the
 * budget; a pool may always shrink. It also says what share each pool is guaranteed
 * ({@link #share}), shares the budget among the pools' demands ({@link #allocate}) and
 * brings pools that joined late within it ({@link #fit}).
 * <p>
 * Without a configured maximum the budget is the sum of the pools' max-threads: no limit
 * beyond each pool's own.
 *
 * @author poolpilot authors
 */
public final class ThreadBudget {

	private final Object lock = new Object();

	private final Supplier<? extends Collection<? extends BudgetMember>> members;

	private volatile @Nullable Integer maxThreads;

	/**
	 * Create a budget.
	 * @param maxThreads how many live threads the pools may have together, or
	 * {@code null} for no limit beyond each pool's own max-threads
	 * @param members the pools sharing it, as they are at each call
	 */
	public ThreadBudget(@Nullable Integer maxThreads, Supplier<? extends Collection<? extends BudgetMember>> members) {
		checkMaxThreads(maxThreads);
		this.maxThreads = maxThreads;
		this.members = members;
	}

	/**
	 * Return a budget that limits nothing, for a pool that shares none.
	 * @return a budget without members or maximum
	 */
	public static ThreadBudget none() {
		return new ThreadBudget(null, List::of);
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
	 * Run a change of pool sizes under the budget's lock, so that nothing else changes a
	 * pool between its checks and its resizes. Re-entrant: a resize within it takes the
	 * same lock.
	 * @param change the change
	 */
	public void change(Runnable change) {
		synchronized (this.lock) {
			change.run();
		}
	}

	/**
	 * Return the configured maximum.
	 * @return the maximum, or {@code null} when the budget is the sum of the pools'
	 * max-threads
	 */
	public @Nullable Integer getConfiguredMaxThreads() {
		return this.maxThreads;
	}

	/**
	 * Return how many live threads all pools may have together.
	 * @return the budget's maximum
	 */
	public int maxThreads() {
		return maxThreads(this.maxThreads, this.members.get().stream().mapToInt(BudgetMember::maxThreads));
	}

	/**
	 * Change the maximum.
	 * @param maxThreads how many live threads the pools may have together, or
	 * {@code null} for no limit beyond each pool's own max-threads
	 * @throws IllegalArgumentException if the pools may already grow past it; nothing
	 * changes then
	 */
	public void setMaxThreads(@Nullable Integer maxThreads) {
		checkMaxThreads(maxThreads);
		synchronized (this.lock) {
			int allocated = allocatedThreads();
			if (maxThreads != null && maxThreads < allocated) {
				throw new IllegalArgumentException("budget max-threads " + maxThreads + " is below the " + allocated
						+ " threads the pools may grow to now; lower their sizes first");
			}
			this.maxThreads = maxThreads;
		}
	}

	private static void checkMaxThreads(@Nullable Integer maxThreads) {
		if (maxThreads != null && maxThreads < 1) {
			throw new IllegalArgumentException("budget max-threads must be at least 1 but was " + maxThreads);
		}
	}

	/**
	 * Return the threads the pools may grow to, the sum of their maximum sizes.
	 * @return the allocated threads
	 */
	public int allocatedThreads() {
		return this.members.get().stream().mapToInt(BudgetMember::maxPoolSize).sum();
	}

	/**
	 * Return the live threads of all pools together.
	 * @return the live threads
	 */
	public int liveThreads() {
		return this.members.get().stream().mapToInt(BudgetMember::liveThreads).sum();
	}

	/**
	 * Check that a pool's new maximum size keeps the pools' threads within the budget, so
	 * that their live threads can never exceed it. Each other pool counts its maximum
	 * size, or its live threads while more than that are still finishing their tasks
	 * after it shrank. A pool that does not grow always passes: shrinking only helps.
	 * Call it within {@link #change}.
	 * @param member the pool to resize
	 * @param maxPoolSize its new maximum size
	 * @return what the change would break, or {@code null} when it fits
	 */
	public @Nullable Overrun check(BudgetMember member, int maxPoolSize) {
		Integer budget = this.maxThreads;
		if (budget == null || maxPoolSize <= member.maxPoolSize()) {
			return null;
		}
		int others = 0;
		for (BudgetMember other : this.members.get()) {
			if (other != member) {
				others += Math.max(other.maxPoolSize(), other.liveThreads());
			}
		}
		return (others + maxPoolSize > budget) ? new Overrun(others + maxPoolSize, budget, Math.max(0, budget - others))
				: null;
	}

	/**
	 * Share the budget among what the pools ask for ({@link BudgetAllocator}).
	 * @param demands what each pool asks for
	 * @return the threads each pool gets, by pool name, in the order given
	 */
	public Map<String, Integer> allocate(List<Demand> demands) {
		return BudgetAllocator.allocate(demands, maxThreads());
	}

	/**
	 * Shrink pools until their maximum sizes together fit the budget, as after start-up
	 * when the application's own executors have joined pools that were sized for the
	 * whole budget. The pools with the most threads per unit of weight give first, each
	 * down to its min-threads at most.
	 * @return the cuts made and how many threads the budget is still short by
	 */
	public Fit fit() {
		List<Cut> cuts = new ArrayList<>();
		int[] excess = new int[1];
		change(() -> {
			Integer budget = this.maxThreads;
			if (budget == null) {
				return;
			}
			excess[0] = allocatedThreads() - budget;
			List<BudgetMember> byShare = new ArrayList<>(this.members.get());
			byShare.sort(Comparator
				.comparingDouble((BudgetMember member) -> (double) member.maxPoolSize() / member.getWeight())
				.reversed());
			for (BudgetMember member : byShare) {
				if (excess[0] <= 0) {
					break;
				}
				int max = member.maxPoolSize();
				int cut = Math.min(excess[0], max - Math.max(1, member.minThreads()));
				if (cut > 0) {
					int newMax = max - cut;
					member.resize(Math.min(member.corePoolSize(), newMax), newMax);
					cuts.add(new Cut(member.getName(), max, newMax, budget));
					excess[0] -= cut;
				}
			}
		});
		return new Fit(cuts, Math.max(0, excess[0]));
	}

	/**
	 * A size change that would take the pools past the budget.
	 *
	 * @param threads the threads the pools would have together
	 * @param maxThreads the budget's maximum
	 * @param allowed the largest maximum size the pool may have now
	 */
	public record Overrun(int threads, int maxThreads, int allowed) {

	}

	/**
	 * The outcome of fitting the pools to the budget.
	 *
	 * @param cuts the pools that were shrunk
	 * @param shortBy how many threads the budget is still short by: 0 when everything
	 * fits
	 */
	public record Fit(List<Cut> cuts, int shortBy) {

	}

	/**
	 * A pool shrunk to fit the budget.
	 *
	 * @param pool the pool's name
	 * @param from its maximum size before
	 * @param to its maximum size now
	 * @param maxThreads the budget's maximum
	 */
	public record Cut(String pool, int from, int to, int maxThreads) {

	}

}
