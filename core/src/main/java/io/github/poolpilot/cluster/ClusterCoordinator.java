package io.github.poolpilot.cluster;

import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Function;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.pool.ManagedPool;

/**
 * The leases of every pool with a cluster-wide limit in this instance, and the control
 * loop's two steps for them: one exchange per pool with the store ({@link #exchange()}),
 * and the check of leases that expired unrenewed ({@link #expire()}). Neither runs on a
 * task's path; the second never waits on the store, so that a store that does not answer
 * cannot keep a pool on an expired lease.
 *
 * @author poolpilot authors
 */
public final class ClusterCoordinator {

	private static final Log logger = LogFactory.getLog(ClusterCoordinator.class);

	private final String instanceId;

	private final ClusterStore store;

	private final Function<ManagedPool, InstanceDemand> demands;

	private final ClusterListener listener;

	private final Map<String, PoolLease> leases = new ConcurrentSkipListMap<>();

	/**
	 * Create a coordinator.
	 * @param instanceId this instance's id, unique in its group
	 * @param store where the instances meet
	 * @param demands what each pool asks for now, as its tuner sees it
	 * @param listener told when contact is lost or regained
	 */
	public ClusterCoordinator(String instanceId, ClusterStore store, Function<ManagedPool, InstanceDemand> demands,
			ClusterListener listener) {
		this.instanceId = instanceId;
		this.store = store;
		this.demands = demands;
		this.listener = listener;
	}

	/**
	 * Add a pool's lease: it is exchanged from the next {@link #exchange()} on, and the
	 * listener is told.
	 * @param lease the lease
	 */
	public void join(PoolLease lease) {
		this.leases.put(lease.pool().getName(), lease);
		this.listener.joined(lease.pool().getName());
	}

	/**
	 * Return this instance's id.
	 * @return the id
	 */
	public String instanceId() {
		return this.instanceId;
	}

	/**
	 * Return a pool's lease.
	 * @param pool the pool's name
	 * @return its lease, or {@code null} when the pool has no cluster-wide limit
	 */
	public @Nullable PoolLease lease(String pool) {
		return this.leases.get(pool);
	}

	/**
	 * Return every lease, by pool name.
	 * @return the leases
	 */
	public Map<String, PoolLease> leases() {
		return Map.copyOf(this.leases);
	}

	/**
	 * Exchange every pool's demand and lease with the others: one round trip per pool.
	 * Never throws.
	 */
	public void exchange() {
		for (PoolLease lease : this.leases.values()) {
			try {
				lease.exchange(this.store, this.demands.apply(lease.pool()), this.listener);
			}
			catch (RuntimeException ex) {
				logger.warn("Could not apply the cluster lease of pool '" + lease.pool().getName() + "'", ex);
			}
		}
	}

	/**
	 * Let every lease that expired unrenewed fall back to its own share. Never throws and
	 * never waits on the store.
	 */
	public void expire() {
		for (PoolLease lease : this.leases.values()) {
			try {
				lease.expire(this.listener);
			}
			catch (RuntimeException ex) {
				logger.warn("Could not apply the fallback share of pool '" + lease.pool().getName() + "'", ex);
			}
		}
	}

	/**
	 * Give every lease back to the others, as when the instance stops. Never throws.
	 */
	public void release() {
		for (PoolLease lease : this.leases.values()) {
			try {
				this.store.release(lease.pool().getName(), this.instanceId);
			}
			catch (RuntimeException ex) {
				logger.debug("Could not release the cluster lease of pool '" + lease.pool().getName()
						+ "'; it expires by itself", ex);
			}
		}
	}

}
