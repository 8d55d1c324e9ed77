package io.github.poolpilot.autoconfigure;

import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.poolpilot.cluster.ClusterListener;

/**
 * Logs one line when an instance loses contact with its cluster and one when it rejoins,
 * and passes every event on to the other listeners, such as the meters.
 *
 * @author poolpilot authors
 */
class ClusterEventLog implements ClusterListener {

	private static final Log logger = LogFactory.getLog(ClusterEventLog.class);

	private final String group;

	private final List<ClusterListener> listeners;

	ClusterEventLog(String group, List<ClusterListener> listeners) {
		this.group = group;
		this.listeners = listeners;
	}

	@Override
	public void joined(String pool) {
		this.listeners.forEach((listener) -> listener.joined(pool));
	}

	@Override
	public void degraded(String pool, int lease, RuntimeException cause) {
		logger.warn("Pool '" + pool + "' cannot reach cluster group '" + this.group + "' in Redis (" + cause
				+ "); it keeps its lease of " + lease + " threads until it expires, then a fallback share");
		this.listeners.forEach((listener) -> listener.degraded(pool, lease, cause));
	}

	@Override
	public void fellBack(String pool, int share) {
		logger.debug("Pool '" + pool + "': lease expired unrenewed, falling back to " + share + " threads");
		this.listeners.forEach((listener) -> listener.fellBack(pool, share));
	}

	@Override
	public void exchanged(String pool, long roundTripNanos) {
		this.listeners.forEach((listener) -> listener.exchanged(pool, roundTripNanos));
	}

	@Override
	public void rejoined(String pool, int lease) {
		logger.info("Pool '" + pool + "' rejoined cluster group '" + this.group + "' with a lease of " + lease
				+ " threads");
		this.listeners.forEach((listener) -> listener.rejoined(pool, lease));
	}

}
