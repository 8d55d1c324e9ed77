package io.github.poolpilot.cluster;

import java.util.List;

/**
 * A pool's view of its cluster at one moment, as the endpoint shows it.
 *
 * @param limit the cluster-wide limit
 * @param lease this instance's lease: the most threads its pool may have now
 * @param leaseAgeMs how long ago the lease was last renewed, or {@code -1} before the
 * first renewal
 * @param state whether the instance reaches the others
 * @param fallback whether the pool holds a fallback share because its lease expired
 * @param instances the live instances as last read, this one first
 * @author poolpilot authors
 */
public record ClusterStatus(int limit, int lease, long leaseAgeMs, ClusterState state, boolean fallback,
		List<Instance> instances) {

	/**
	 * One live instance.
	 *
	 * @param id its id
	 * @param demand the threads it asked for
	 * @param lease the threads it may hold
	 * @param self whether it is this instance
	 */
	public record Instance(String id, int demand, int lease, boolean self) {

	}

}
