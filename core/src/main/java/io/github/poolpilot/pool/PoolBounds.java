package io.github.poolpilot.pool;

/**
 * The range of thread counts that the tuner and manual changes may give a pool.
 *
 * @param minThreads the smallest core or maximum pool size allowed; 0 lets the core size
 * reach 0, as a {@code ThreadPoolExecutor} allows
 * @param maxThreads the largest core or maximum pool size allowed
 * @author poolpilot authors
 */
public record PoolBounds(int minThreads, int maxThreads) {

	public PoolBounds {
		if (minThreads < 0) {
			throw new IllegalArgumentException("min-threads must not be negative but was " + minThreads);
		}
		if (maxThreads < Math.max(1, minThreads)) {
			throw new IllegalArgumentException("max-threads must be at least 1 and at least min-threads (" + minThreads
					+ ") but was " + maxThreads);
		}
	}

	/**
	 * Return the given thread count moved into these bounds.
	 * @param threads a thread count
	 * @return the nearest count within the bounds
	 */
	public int clamp(int threads) {
		return Math.max(this.minThreads, Math.min(this.maxThreads, threads));
	}

}
