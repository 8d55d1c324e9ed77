package io.github.poolpilot.pool;

/**
 * The most threads something outside a pool lets it have now, such as its lease of a
 * cluster-wide limit or the partitions of a listener's topics, with what it is in words
 * for a refusal. A pool may grow up to its ceiling, never beyond it; a ceiling below the
 * pool's min-threads lets it shrink to the ceiling.
 *
 * @param threads the most threads, at least 1; {@link Integer#MAX_VALUE} for none
 * @param reason what the ceiling is, as in "maxPoolSize 5 is above {@code reason}"
 * @author poolpilot authors
 */
record Ceiling(int threads, String reason) {

	/**
	 * What a ceiling set without a reason is: a lease of a cluster-wide limit.
	 */
	static final String LEASE = "its lease of the cluster-wide limit";

	/**
	 * No ceiling.
	 */
	static final Ceiling NONE = new Ceiling(Integer.MAX_VALUE, LEASE);

	/**
	 * Return the bounds a pool's sizes must stay in under this ceiling: its own, with the
	 * ceiling as their least size when it is below their min-threads.
	 * @param bounds the pool's bounds
	 * @return the bounds under the ceiling
	 */
	PoolBounds lower(PoolBounds bounds) {
		return (this.threads < bounds.minThreads()) ? new PoolBounds(this.threads, bounds.maxThreads()) : bounds;
	}

	/**
	 * Check a pool's new maximum size against this ceiling: it may not grow beyond it.
	 * @param pool the pool's name
	 * @param maxPoolSize the new maximum size
	 * @param currentMaxPoolSize the pool's maximum size now
	 * @throws InvalidPoolSizeException if the pool would grow beyond the ceiling
	 */
	void check(String pool, int maxPoolSize, int currentMaxPoolSize) {
		if (maxPoolSize > this.threads && maxPoolSize > currentMaxPoolSize) {
			throw new InvalidPoolSizeException("maxPoolSize", "maxPoolSize " + maxPoolSize + " of pool '" + pool
					+ "' is above " + this.reason + " (allowed: at most " + this.threads + ")");
		}
	}

}
