package io.github.poolpilot.core;

import java.util.Collection;
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

	private final int maxThreads;

	/**
	 * Create a registry.
	 * @param maxThreads the budget: how many live threads all pools may have together
	 */
	public PoolRegistry(int maxThreads) {
		if (maxThreads < 1) {
			throw new IllegalArgumentException("budget max-threads must be at least 1 but was " + maxThreads);
		}
		this.maxThreads = maxThreads;
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
	 * Return the budget: how many live threads all pools may have together.
	 * @return the budget's maximum
	 */
	public int budgetMaxThreads() {
		return this.maxThreads;
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

}
