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

	/**
	 * Check a pool's core and maximum sizes against these bounds: both within them, a
	 * maximum of at least 1 and a core no greater than the maximum.
	 * @param pool the pool's name
	 * @param corePoolSize a core size
	 * @param maxPoolSize a maximum size
	 * @throws InvalidPoolSizeException naming the first violated bound
	 */
	void check(String pool, int corePoolSize, int maxPoolSize) {
		checkWithin(pool, "corePoolSize", corePoolSize);
		checkWithin(pool, "maxPoolSize", maxPoolSize);
		if (maxPoolSize < 1) {
			// A pool whose min-threads is 0 may have no core thread, never no thread.
			throw new InvalidPoolSizeException("maxPoolSize", "maxPoolSize " + maxPoolSize + " of pool '" + pool
					+ "' must be at least 1 (allowed: 1 to " + this.maxThreads + ")");
		}
		if (corePoolSize > maxPoolSize) {
			throw new InvalidPoolSizeException("corePoolSize",
					"corePoolSize " + corePoolSize + " of pool '" + pool + "' must not be greater than maxPoolSize "
							+ maxPoolSize + " (allowed: " + this.minThreads + " to " + maxPoolSize + ")");
		}
	}

	private void checkWithin(String pool, String field, int size) {
		if (size < this.minThreads || size > this.maxThreads) {
			String violated = (size < this.minThreads) ? "below its min-threads " + this.minThreads
					: "above its max-threads " + this.maxThreads;
			throw new InvalidPoolSizeException(field, field + " " + size + " of pool '" + pool + "' is " + violated
					+ " (allowed: " + this.minThreads + " to " + this.maxThreads + ")");
		}
	}

}
