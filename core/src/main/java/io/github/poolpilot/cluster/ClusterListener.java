package io.github.poolpilot.cluster;

/**
 * Told when a pool joins its cluster, when an instance loses or regains contact with its
 * cluster, once each time, and of each exchange's round trip.
 *
 * @author poolpilot authors
 */
public interface ClusterListener {

	/**
	 * A pool joined its cluster: its lease is exchanged from now on.
	 * @param pool the pool's name
	 */
	default void joined(String pool) {
	}

	/**
	 * The instance could not renew a pool's lease.
	 * @param pool the pool's name
	 * @param lease the lease it keeps until it expires
	 * @param cause why the exchange failed
	 */
	default void degraded(String pool, int lease, RuntimeException cause) {
	}

	/**
	 * A pool's lease expired while the instance could not reach the others: it holds a
	 * fallback share now.
	 * @param pool the pool's name
	 * @param share the fallback share
	 */
	default void fellBack(String pool, int share) {
	}

	/**
	 * An exchange with the others succeeded, on the control loop's thread.
	 * @param pool the pool's name
	 * @param roundTripNanos how long the exchange's round trip to the store took
	 */
	default void exchanged(String pool, long roundTripNanos) {
	}

	/**
	 * The instance reached the others again.
	 * @param pool the pool's name
	 * @param lease the lease granted
	 */
	default void rejoined(String pool, int lease) {
	}

}
