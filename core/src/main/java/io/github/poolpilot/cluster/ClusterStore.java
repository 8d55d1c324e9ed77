package io.github.poolpilot.cluster;

import java.util.List;

/**
 * Where the instances of a cluster meet, such as Redis. Each call is one atomic round
 * trip.
 *
 * @author poolpilot authors
 */
public interface ClusterStore {

	/**
	 * In one atomic step: drop the instances whose heartbeat is older than the lease's
	 * time to live, tell whether this instance's lease was among those left, grant this
	 * instance at most what the others' leases leave of the limit
	 * ({@code min(request, limit - Σ others' leases)}, at least 0), record it with a
	 * heartbeat as holding {@code max(granted, held)}, and read the others.
	 * @param pool the pool's name
	 * @param publication what this instance publishes
	 * @return what was granted and the other live instances
	 * @throws RuntimeException when the store cannot be reached
	 */
	Exchange exchange(String pool, Publication publication);

	/**
	 * Remove this instance from a pool's cluster, as when it stops.
	 * @param pool the pool's name
	 * @param instanceId the instance's id
	 */
	void release(String pool, String instanceId);

	/**
	 * What an instance publishes in an exchange.
	 *
	 * @param instanceId its id
	 * @param demand what its pool asks for
	 * @param request the lease it asks for
	 * @param held the threads its pool may hold now: its maximum size, or its live
	 * threads while more are still running
	 * @param ttlMillis how long a lease lives without a heartbeat
	 * @param limit the pool's cluster-wide limit
	 */
	record Publication(String instanceId, InstanceDemand demand, int request, int held, long ttlMillis, int limit) {

	}

	/**
	 * The answer of an exchange.
	 *
	 * @param granted the lease granted to this instance
	 * @param others the other live instances
	 * @param known whether the store held a live lease of this instance before the
	 * exchange: {@code false} for its first exchange, after its lease expired, and when
	 * the store lost what it held (a restart without persistence, a failover)
	 */
	record Exchange(int granted, List<InstanceEntry> others, boolean known) {

	}

}
