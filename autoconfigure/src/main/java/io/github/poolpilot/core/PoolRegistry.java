package io.github.poolpilot.core;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

import org.jspecify.annotations.Nullable;

/**
 * The one registry of managed pools, by name, and the thread budget they share.
 *
 * @author poolpilot authors
 */
public class PoolRegistry {

	private final Map<String, ManagedPool> pools = new ConcurrentSkipListMap<>();

	private volatile @Nullable Integer budget;

	private volatile boolean tuningEnabled = true;

	/**
	 * Create a registry.
	 * @param budget how many live threads all pools may have together, or {@code null}
	 * for no budget beyond each pool's own max-threads
	 */
	public PoolRegistry(@Nullable Integer budget) {
		if (budget != null && budget < 1) {
			throw new IllegalArgumentException("budget max-threads must be at least 1 but was " + budget);
		}
		this.budget = budget;
	}

	/**
	 * Register a pool under its name.
	 * @param pool the pool
	 * @throws IllegalStateException if a pool of that name is registered already
	 */
	public void register(ManagedPool pool) {
		ManagedPool previous = this.pools.putIfAbsent(pool.getName(), pool);
		if (previous != null && previous != pool) {
			throw new IllegalStateException("A pool named '" + pool.getName() + "' is registered already");
		}
	}

	/**
	 * Remove a pool, as when it shuts down.
	 * @param pool the pool
	 */
	public void unregister(ManagedPool pool) {
		this.pools.remove(pool.getName(), pool);
	}

	/**
	 * Return the pool of the given name.
	 * @param name the pool's name
	 * @return the pool, or {@code null} if there is none of that name
	 */
	public @Nullable ManagedPool get(String name) {
		return this.pools.get(name);
	}

	/**
	 * Return every registered pool, ordered by name.
	 * @return the pools
	 */
	public Collection<ManagedPool> pools() {
		return Collections.unmodifiableCollection(this.pools.values());
	}

	/**
	 * Return the budget: how many live threads all pools may have together. Without a
	 * configured budget, the sum of the pools' max-threads.
	 * @return the budget's maximum
	 */
	public int budgetMaxThreads() {
		return (this.budget != null) ? this.budget
				: this.pools.values().stream().mapToInt((pool) -> pool.getBounds().maxThreads()).sum();
	}

	/**
	 * Change the budget.
	 * @param budget how many live threads all pools may have together, or {@code null}
	 * for no budget beyond each pool's own max-threads
	 * @throws IllegalArgumentException if the pools may already grow past the new budget
	 */
	public synchronized void setBudget(@Nullable Integer budget) {
		if (budget != null && budget < Math.max(1, allocatedThreads())) {
			throw new IllegalArgumentException("budget max-threads " + budget + " is below the " + allocatedThreads()
					+ " threads the pools may grow to now; lower their sizes first");
		}
		this.budget = budget;
	}

	/**
	 * Resize a pool after checking its bounds and the budget, under the registry's lock
	 * so that two changes to different pools cannot together pass the budget. Changes to
	 * several pools at once (the tuner's, a configuration refresh) hold the same lock by
	 * synchronizing on the registry.
	 * @param pool the pool
	 * @param corePoolSize its new core size
	 * @param maxPoolSize its new maximum size
	 * @throws InvalidPoolSizeException naming the violated bound; nothing changes then
	 */
	public synchronized void resize(ManagedPool pool, int corePoolSize, int maxPoolSize) {
		pool.checkSizes(corePoolSize, maxPoolSize);
		checkBudget(pool, maxPoolSize);
		pool.resize(corePoolSize, maxPoolSize);
	}

	/**
	 * Return whether self-tuning is switched on ({@code poolpilot.tuning.enabled}).
	 * @return whether pools may be in auto mode
	 */
	public boolean isTuningEnabled() {
		return this.tuningEnabled;
	}

	/**
	 * Switch self-tuning on or off for every pool: pools in auto mode go off, and back.
	 * @param enabled whether pools may be in auto mode
	 */
	public synchronized void setTuningEnabled(boolean enabled) {
		this.tuningEnabled = enabled;
		for (ManagedPool pool : this.pools.values()) {
			if (!enabled && pool.getTuningMode() == TuningMode.AUTO) {
				pool.setTuningMode(TuningMode.OFF);
			}
			else if (enabled && pool.getTuningMode() == TuningMode.OFF) {
				pool.setTuningMode(TuningMode.AUTO);
			}
		}
	}

	/**
	 * Return the threads the pools may grow to, the sum of their maximum sizes.
	 * @return the allocated threads
	 */
	public int allocatedThreads() {
		return this.pools.values().stream().mapToInt((pool) -> pool.getExecutor().getMaximumPoolSize()).sum();
	}

	/**
	 * Return the live threads of all pools together.
	 * @return the live threads
	 */
	public int liveThreads() {
		return this.pools.values().stream().mapToInt((pool) -> pool.getExecutor().getPoolSize()).sum();
	}

	/**
	 * Shrink pools until their maximum sizes together fit the budget, as after start-up
	 * when the application's own executors have joined pools that were sized for the
	 * whole budget. The pools with the most threads per unit of weight give first, each
	 * down to its min-threads at most.
	 * @return how many threads the budget is still short by: 0 when everything fits
	 */
	public synchronized int fitToBudget() {
		Integer budget = this.budget;
		if (budget == null) {
			return 0;
		}
		int excess = allocatedThreads() - budget;
		List<ManagedPool> byShare = new ArrayList<>(this.pools.values());
		byShare.sort(Comparator
			.comparingDouble((ManagedPool pool) -> (double) pool.getExecutor().getMaximumPoolSize() / pool.getWeight())
			.reversed());
		for (ManagedPool pool : byShare) {
			if (excess <= 0) {
				break;
			}
			int max = pool.getExecutor().getMaximumPoolSize();
			int cut = Math.min(excess, max - Math.max(1, pool.getBounds().minThreads()));
			if (cut > 0) {
				int newMax = max - cut;
				int core = pool.getExecutor().getCorePoolSize();
				pool.resize(Math.min(core, newMax), newMax);
				pool.recordDecision("shrink " + max + "→" + newMax
						+ ": the pools' maximum sizes exceeded the budget of " + budget + " threads");
				excess -= cut;
			}
		}
		return Math.max(0, excess);
	}

	/**
	 * Check that giving a pool a new maximum size keeps the pools' threads together
	 * within the budget, so that their live threads can never exceed it. Each other pool
	 * counts its maximum size, or its live threads while more than that are still
	 * finishing their tasks after it shrank.
	 * @param pool the pool to resize
	 * @param maxPoolSize its new maximum size
	 * @throws InvalidPoolSizeException if the budget would be exceeded
	 */
	public synchronized void checkBudget(ManagedPool pool, int maxPoolSize) {
		int others = 0;
		for (ManagedPool other : this.pools.values()) {
			if (other != pool) {
				others += Math.max(other.getExecutor().getMaximumPoolSize(), other.getExecutor().getPoolSize());
			}
		}
		int budget = budgetMaxThreads();
		if (others + maxPoolSize > budget) {
			throw new InvalidPoolSizeException("maxPoolSize",
					"maxPoolSize " + maxPoolSize + " of pool '" + pool.getName()
							+ "' would bring the pools' threads to " + (others + maxPoolSize) + ", over the budget of "
							+ budget + " threads (allowed: at most " + Math.max(0, budget - others) + ")");
		}
	}

}
