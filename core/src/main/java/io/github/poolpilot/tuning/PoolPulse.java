package io.github.poolpilot.tuning;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.Settling;

/**
 * A pool as the tuner's fast path reads it between two measurement windows: its sizes,
 * its queue and its cumulative counts, figures that cost no clock read on the task path.
 *
 * @param name the pool's name
 * @param bounds the range its size must stay in
 * @param weight its share of the budget relative to the others
 * @param mode who decides its size
 * @param size its size (maximum pool size)
 * @param liveThreads its live threads, which may exceed its size for a while after it
 * shrank
 * @param activeThreads its threads running a task now
 * @param queued its tasks waiting now
 * @param arrivals tasks offered to it so far, rejected ones included
 * @param completions tasks it finished so far, normally or not
 * @param atNanos when it was read, on the tuner's clock
 * @param ceiling the most threads it may have now whatever its bounds, such as its lease
 * of a cluster-wide limit
 * @param settling how it settles after a resize that restarted its workers, {@code null}
 * when it does not
 * @author poolpilot authors
 */
public record PoolPulse(String name, PoolBounds bounds, int weight, TuningMode mode, int size, int liveThreads,
		int activeThreads, int queued, long arrivals, long completions, long atNanos, int ceiling,
		@Nullable Settling settling) {

	/**
	 * A pool that does not settle.
	 * @param name the pool's name
	 * @param bounds the range its size must stay in
	 * @param weight its share of the budget relative to the others
	 * @param mode who decides its size
	 * @param size its size (maximum pool size)
	 * @param liveThreads its live threads
	 * @param activeThreads its threads running a task now
	 * @param queued its tasks waiting now
	 * @param arrivals tasks offered to it so far, rejected ones included
	 * @param completions tasks it finished so far, normally or not
	 * @param atNanos when it was read, on the tuner's clock
	 * @param ceiling the most threads it may have now whatever its bounds
	 */
	public PoolPulse(String name, PoolBounds bounds, int weight, TuningMode mode, int size, int liveThreads,
			int activeThreads, int queued, long arrivals, long completions, long atNanos, int ceiling) {
		this(name, bounds, weight, mode, size, liveThreads, activeThreads, queued, arrivals, completions, atNanos,
				ceiling, null);
	}

	/**
	 * A pool with no ceiling beyond its bounds.
	 * @param name the pool's name
	 * @param bounds the range its size must stay in
	 * @param weight its share of the budget relative to the others
	 * @param mode who decides its size
	 * @param size its size (maximum pool size)
	 * @param liveThreads its live threads
	 * @param activeThreads its threads running a task now
	 * @param queued its tasks waiting now
	 * @param arrivals tasks offered to it so far, rejected ones included
	 * @param completions tasks it finished so far, normally or not
	 * @param atNanos when it was read, on the tuner's clock
	 */
	public PoolPulse(String name, PoolBounds bounds, int weight, TuningMode mode, int size, int liveThreads,
			int activeThreads, int queued, long arrivals, long completions, long atNanos) {
		this(name, bounds, weight, mode, size, liveThreads, activeThreads, queued, arrivals, completions, atNanos,
				Integer.MAX_VALUE);
	}

}
