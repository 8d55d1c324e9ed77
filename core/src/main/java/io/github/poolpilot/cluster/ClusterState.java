package io.github.poolpilot.cluster;

import java.util.Locale;

/**
 * Whether an instance shares a pool's cluster-wide limit with the others now.
 *
 * @author poolpilot authors
 */
public enum ClusterState {

	/**
	 * Its last exchange with the others succeeded: its lease is theirs to respect.
	 */
	OK,

	/**
	 * It cannot reach the others: it keeps its last lease until it expires, then a
	 * fallback share.
	 */
	DEGRADED;

	/**
	 * Return the state as the endpoint shows it.
	 * @return {@code ok} or {@code degraded}
	 */
	public String value() {
		return name().toLowerCase(Locale.ROOT);
	}

}
