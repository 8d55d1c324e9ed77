package io.github.poolpilot.budget;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.budget.BudgetAllocator.Demand;

/**
 * The thread budget: how many live threads all managed pools may have together, and the
 * one owner of its rules. Every size change of every pool passes its check under its one
 * lock ({@link #change}), so that two changes to different pools cannot together pass the
 * budget; a pool may always shrink. It also says what share each pool is guaranteed
 * ({@link BudgetSizing#share}), shares the budget among the pools' demands and says what
 * each may have now ({@link #threadsNow}), applies a new configuration in an order that
 * stays within it ({@link #reconfigure}) and brings pools that joined late within it
 * ({@link #fit}). Nothing outside this package computes with the budget.
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
	 * Return how many threads a pool holds against the budget: its maximum size, or its
	 * live threads while more than that are still finishing their tasks after it shrank.
	 * The one way the budget counts a pool's threads.
	 */
	static int holds(int maxPoolSize, int liveThreads) {
		return Math.max(maxPoolSize, liveThreads);
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
		return BudgetSizing.maxThreads(this.maxThreads, this.members.get().stream().mapToInt(BudgetMember::maxThreads));
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
				others += holds(other.maxPoolSize(), other.liveThreads());
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
	 * Share the budget among what the pools ask for, and return what each may have now:
	 * threads a pool gives back count until they ended, so a growing pool gets only what
	 * the others' live threads leave, up to its allocation.
	 * @param demands what each pool asks for
	 * @param pools each pool's size and live threads now, in the order of the demands
	 * @return the threads each pool may have now, by pool name, in the order given
	 */
	public Map<String, Integer> threadsNow(List<Demand> demands, List<Held> pools) {
		int maxThreads = maxThreads();
		return Handover.threads(pools, BudgetAllocator.allocate(demands, maxThreads), maxThreads);
	}

	/**
	 * Apply a new maximum and new pool settings all together or not at all, in an order
	 * in which every step stays within the budget of its moment: a larger maximum first
	 * and a smaller one last, the pools that shrink before those that grow. Call it
	 * within {@link #change}.
	 * @param maxThreads the new maximum, or {@code null} for no limit beyond each pool's
	 * own max-threads
	 * @param maxPoolSizes every pool's maximum size once its new settings apply
	 * @param apply applies one pool's new settings
	 * @return what the new settings would break, nothing being applied then, or
	 * {@code null} once they are applied
	 */
	public <M extends BudgetMember> @Nullable Overrun reconfigure(@Nullable Integer maxThreads,
			Map<M, Integer> maxPoolSizes, Consumer<M> apply) {
		checkMaxThreads(maxThreads);
		int allocated = maxPoolSizes.values().stream().mapToInt(Integer::intValue).sum();
		if (maxThreads != null && allocated > maxThreads) {
			return new Overrun(allocated, maxThreads, maxThreads);
		}
		Integer current = this.maxThreads;
		boolean larger = maxThreads == null || (current != null && maxThreads >= current);
		if (larger) {
			setMaxThreads(maxThreads);
		}
		List<M> byGrowth = new ArrayList<>(maxPoolSizes.keySet());
		byGrowth.sort(Comparator.comparingInt((member) -> maxPoolSizes.get(member) - member.maxPoolSize()));
		byGrowth.forEach(apply);
		if (!larger) {
			setMaxThreads(maxThreads);
		}
		return null;
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
		int shortBy = Math.max(0, excess[0]);
		return new Fit(cuts, shortBy, maxThreads() + shortBy);
	}

	/**
	 * A size change that would take the pools past the budget.
	 *
	 * @param threads the threads the pools would have together
	 * @param maxThreads the budget's maximum
	 * @param allowed the largest maximum size the pool may have now
	 */
	public record Overrun(int threads, int maxThreads, int allowed) {

		/**
		 * Say why a pool may not grow to a maximum size.
		 * @param pool the pool's name
		 * @param maxPoolSize the maximum size it asked for
		 * @return the sentence
		 */
		public String describe(String pool, int maxPoolSize) {
			return "maxPoolSize " + maxPoolSize + " of pool '" + pool + "' would bring the pools' threads to "
					+ this.threads + ", over the budget of " + this.maxThreads + " threads (allowed: at most "
					+ this.allowed + ")";
		}

	}

	/**
	 * The outcome of fitting the pools to the budget.
	 *
	 * @param cuts the pools that were shrunk
	 * @param shortBy how many threads the budget is still short by: 0 when everything
	 * fits
	 * @param neededMaxThreads the smallest budget that gives every pool its min-threads
	 * and keeps what the others may grow to
	 */
	public record Fit(List<Cut> cuts, int shortBy, int neededMaxThreads) {

	}

	/**
	 * A pool's size and live threads, as the budget counts them when it shares itself.
	 *
	 * @param name the pool's name
	 * @param size its maximum size
	 * @param liveThreads its live threads, which may exceed its size for a while after it
	 * shrank
	 */
	public record Held(String name, int size, int liveThreads) {

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
