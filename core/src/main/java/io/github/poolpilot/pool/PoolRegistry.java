package io.github.poolpilot.pool;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.budget.ThreadBudget;

/**
 * The one registry of managed pools, by name, and the thread budget they share: a pool
 * that joins it is resized within that budget from then on. Pools join and leave while
 * the application runs (a listener container's when it starts and stops); a
 * {@link Watcher} is told of each.
 *
 * @author poolpilot authors
 */
public class PoolRegistry {

	private static final Log logger = LogFactory.getLog(PoolRegistry.class);

	private final Map<String, ManagedPool> pools = new ConcurrentSkipListMap<>();

	/**
	 * The pools that left while their threads still ran: those threads count against the
	 * budget until they have finished their tasks.
	 */
	private final Set<ManagedPool> departed = ConcurrentHashMap.newKeySet();

	private final ThreadBudget budget;

	private final List<Watcher> watchers = new CopyOnWriteArrayList<>();

	/**
	 * Create a registry.
	 * @param maxThreads how many live threads all pools may have together, or
	 * {@code null} for no budget beyond each pool's own max-threads
	 */
	public PoolRegistry(@Nullable Integer maxThreads) {
		this.budget = new ThreadBudget(maxThreads, this.pools::values, this::departedThreads);
	}

	private int departedThreads() {
		this.departed.removeIf((pool) -> pool.liveThreads() == 0);
		return this.departed.stream().mapToInt(ManagedPool::liveThreads).sum();
	}

	/**
	 * Register a pool under its name; it shares the registry's budget from now on. A pool
	 * that joins once the pools were fitted to the budget is brought within it
	 * ({@link ThreadBudget#admit}).
	 * @param pool the pool
	 * @throws PoolNameTakenException if a pool of that name is registered already
	 * @throws InvalidPoolSizeException if the pool's min-threads do not fit the budget;
	 * it is not registered then, nor when its executor refuses the size it is cut to,
	 * whose exception is thrown
	 */
	public synchronized void register(ManagedPool pool) {
		this.budget.change(() -> {
			ManagedPool previous = this.pools.putIfAbsent(pool.getName(), pool);
			if (previous != null && previous != pool) {
				throw new PoolNameTakenException(pool.getName());
			}
			pool.shareBudget(this.budget);
			if (previous == null) {
				this.departed.remove(pool);
				admit(pool);
				this.watchers.forEach((watcher) -> watcher.registered(pool));
			}
		});
	}

	private void admit(ManagedPool pool) {
		ThreadBudget.Fit fit;
		try {
			fit = this.budget.admit(pool);
		}
		catch (RuntimeException ex) {
			// Its cut failed (an executor that refused the size): it never joined.
			leave(pool);
			throw ex;
		}
		if (fit.shortBy() > 0) {
			leave(pool);
			int maxThreads = fit.neededMaxThreads() - fit.shortBy();
			int floor = Math.max(1, pool.minThreads());
			throw new InvalidPoolSizeException("minThreads",
					"minThreads " + floor + " of pool '" + pool.getName() + "' would bring the pools' threads to "
							+ (maxThreads + fit.shortBy()) + ", over the budget of " + maxThreads
							+ " threads (allowed: at most " + (floor - fit.shortBy()) + ")");
		}
		fit.cuts()
			.forEach((cut) -> logger
				.info("Pool '" + cut.pool() + "' joined with its maximum size cut from " + cut.from() + " to "
						+ cut.to() + " threads, what the budget of " + cut.maxThreads() + " threads has left"));
	}

	private void leave(ManagedPool pool) {
		this.pools.remove(pool.getName(), pool);
		pool.shareBudget(ThreadBudget.none());
	}

	/**
	 * Remove a pool, as when it shuts down. Its threads still running count against the
	 * budget until they have finished their tasks.
	 * @param pool the pool
	 */
	public synchronized void unregister(ManagedPool pool) {
		if (this.pools.remove(pool.getName(), pool)) {
			if (pool.liveThreads() > 0) {
				this.departed.add(pool);
			}
			pool.shareBudget(ThreadBudget.none());
			this.watchers.forEach((watcher) -> watcher.unregistered(pool));
		}
	}

	/**
	 * Tell a watcher of every pool registered now, at once, and of every pool that is
	 * registered or unregistered from now on, each once.
	 * @param watcher the watcher
	 */
	public synchronized void watch(Watcher watcher) {
		this.watchers.add(watcher);
		this.pools.values().forEach(watcher::registered);
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
	 * Return the budget the pools share.
	 * @return the budget
	 */
	public ThreadBudget budget() {
		return this.budget;
	}

	/**
	 * Told when a pool joins the registry and when it leaves, while the registry is
	 * locked: no pool joins or leaves meanwhile.
	 */
	public interface Watcher {

		/**
		 * A pool joined the registry.
		 * @param pool the pool
		 */
		void registered(ManagedPool pool);

		/**
		 * A pool left the registry.
		 * @param pool the pool
		 */
		void unregistered(ManagedPool pool);

	}

}
