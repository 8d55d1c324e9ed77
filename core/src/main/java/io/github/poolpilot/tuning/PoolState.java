package io.github.poolpilot.tuning;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.Settling;

/**
 * A pool as the tuner sees it at the end of a window.
 *
 * @param name the pool's name
 * @param bounds the range its size must stay in
 * @param weight its share of the budget relative to the others
 * @param mode who decides its size
 * @param size its size (maximum pool size)
 * @param liveThreads its live threads, which may exceed its size for a while after it
 * shrank
 * @param snapshot its last closed window, or {@code null} before the first
 * @param ceiling the most threads it may have now whatever its bounds, such as its lease
 * of a cluster-wide limit ({@link ManagedPool#ceiling()})
 * @param settling how it settles after a resize that restarted its workers
 * ({@link ManagedPool#settling()}), {@code null} when it does not
 * @author poolpilot authors
 */
public record PoolState(String name, PoolBounds bounds, int weight, TuningMode mode, int size, int liveThreads,
		@Nullable PoolSnapshot snapshot, int ceiling, @Nullable Settling settling) {

	/**
	 * A pool that does not settle.
	 * @param name the pool's name
	 * @param bounds the range its size must stay in
	 * @param weight its share of the budget relative to the others
	 * @param mode who decides its size
	 * @param size its size (maximum pool size)
	 * @param liveThreads its live threads
	 * @param snapshot its last closed window, or {@code null} before the first
	 * @param ceiling the most threads it may have now whatever its bounds
	 */
	public PoolState(String name, PoolBounds bounds, int weight, TuningMode mode, int size, int liveThreads,
			@Nullable PoolSnapshot snapshot, int ceiling) {
		this(name, bounds, weight, mode, size, liveThreads, snapshot, ceiling, null);
	}

	/**
	 * A pool with no ceiling beyond its bounds.
	 * @param name the pool's name
	 * @param bounds the range its size must stay in
	 * @param weight its share of the budget relative to the others
	 * @param mode who decides its size
	 * @param size its size (maximum pool size)
	 * @param liveThreads its live threads
	 * @param snapshot its last closed window, or {@code null} before the first
	 */
	public PoolState(String name, PoolBounds bounds, int weight, TuningMode mode, int size, int liveThreads,
			@Nullable PoolSnapshot snapshot) {
		this(name, bounds, weight, mode, size, liveThreads, snapshot, Integer.MAX_VALUE, null);
	}

}
