package io.github.poolpilot.cluster;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.cluster.ClusterStore.Exchange;
import io.github.poolpilot.cluster.ClusterStore.Publication;
import io.github.poolpilot.measure.NanoClock;
import io.github.poolpilot.pool.ManagedPool;

/**
 * One pool's lease of its cluster-wide limit, and the one owner of its rules. Each
 * exchange asks for the share the water-filling gives this instance
 * ({@link LeasePlanner}); a smaller lease shrinks the pool first and is released in the
 * next exchange, once the store records what the pool still holds; a larger one is
 * granted only from what the others' leases leave. The lease caps the pool through its
 * door ({@link ManagedPool#setCeiling}). Without a successful exchange for the lease's
 * time to live the pool falls back to a share of its own ({@link LeasePlanner#fallback})
 * and rejoins at the next exchange that succeeds. An exchange that finds the store no
 * longer knew the lease only confirms it, and the pool does not grow until the instances
 * known before are back ({@link RejoinHold}).
 *
 * @author poolpilot authors
 */
public final class PoolLease {

	private static final long NEVER = Long.MIN_VALUE;

	private final ManagedPool pool;

	private final String instanceId;

	private final int limit;

	private final int localShare;

	private final long ttlNanos;

	private final long checkNanos;

	private final NanoClock clock;

	private final int beforeFirstExchange;

	private int lease;

	private long renewedAt = NEVER;

	private ClusterState state = ClusterState.DEGRADED;

	private boolean fallback;

	private int fallbackShare;

	private long fellBackAt;

	private boolean failing;

	private List<InstanceEntry> others = List.of();

	private @Nullable RejoinHold hold;

	private InstanceDemand demand;

	/**
	 * Create a pool's lease and cap the pool at its share before the first exchange: the
	 * local share if one is configured, else its min-threads (within the limit).
	 * @param pool the pool
	 * @param instanceId this instance's id
	 * @param limit the pool's cluster-wide limit
	 * @param localShare the share to fall back to, or 0 for the limit divided by the
	 * instances last known
	 * @param ttlNanos how long a lease lives without renewal
	 * @param clock the clock that times the lease
	 */
	public PoolLease(ManagedPool pool, String instanceId, int limit, int localShare, long ttlNanos, NanoClock clock) {
		this(pool, instanceId, limit, localShare, ttlNanos, 0, clock);
	}

	/**
	 * Create a pool's lease as
	 * {@link #PoolLease(ManagedPool, String, int, int, long, NanoClock)} does, for a
	 * lease whose expiry is checked ({@link #expire}) every {@code checkNanos}: it falls
	 * back that much before its time to live is over, so that a check that comes late
	 * still falls back before the others can take the lease.
	 * @param pool the pool
	 * @param instanceId this instance's id
	 * @param limit the pool's cluster-wide limit
	 * @param localShare the share to fall back to, or 0 for the limit divided by the
	 * instances last known
	 * @param ttlNanos how long a lease lives without renewal
	 * @param checkNanos how often {@link #expire} is called, below {@code ttlNanos}
	 * @param clock the clock that times the lease
	 */
	public PoolLease(ManagedPool pool, String instanceId, int limit, int localShare, long ttlNanos, long checkNanos,
			NanoClock clock) {
		if (limit < 1) {
			throw new IllegalArgumentException(
					"the cluster limit of pool '" + pool.getName() + "' must be at least 1 but was " + limit);
		}
		this.pool = pool;
		this.instanceId = instanceId;
		this.limit = limit;
		this.localShare = localShare;
		this.ttlNanos = ttlNanos;
		this.checkNanos = checkNanos;
		this.clock = clock;
		this.beforeFirstExchange = (localShare > 0) ? localShare
				: Math.max(1, Math.min(limit, pool.getBounds().minThreads()));
		this.demand = new InstanceDemand(pool.maxPoolSize(), pool.maxPoolSize());
		this.lease = this.beforeFirstExchange;
		pool.setCeiling(this.lease);
	}

	/**
	 * Return the pool.
	 * @return the pool
	 */
	public ManagedPool pool() {
		return this.pool;
	}

	/**
	 * Exchange with the others: publish the demand, renew the lease, read theirs. A
	 * failure keeps the lease until it expires ({@link #expire()}).
	 * @param store where the instances meet
	 * @param demand what the pool asks for now
	 * @param listener told when contact is lost or regained
	 */
	public void exchange(ClusterStore store, InstanceDemand demand, ClusterListener listener) {
		long started = this.clock.nanoTime();
		Publication publication;
		synchronized (this) {
			this.demand = demand;
			int request = LeasePlanner.target(this.limit, this.instanceId, demand, this.others);
			if (this.failing || this.fallback || this.hold != null) {
				// Rejoining: the store may have lost what it held (a restart, a
				// failover), and the others theirs: no growth until they are back.
				request = Math.min(request, this.lease);
			}
			if (request < this.lease && !this.fallback) {
				// Shrink first; the store hears of it as what the pool still holds. A
				// fallback share is no lease of the store's: it stays while cut off.
				this.pool.setCeiling(request);
				this.lease = request;
			}
			int held = Math.max(this.pool.maxPoolSize(), this.pool.liveThreads());
			publication = new Publication(this.instanceId, demand, request, held, this.ttlNanos / 1_000_000,
					this.limit);
		}
		Exchange exchange;
		try {
			exchange = store.exchange(this.pool.getName(), publication);
		}
		catch (RuntimeException ex) {
			failed(ex, listener);
			return;
		}
		long roundTrip = this.clock.nanoTime() - started;
		renewed(started, exchange, listener);
		listener.exchanged(this.pool.getName(), roundTrip);
	}

	private void failed(RuntimeException ex, ClusterListener listener) {
		int lease;
		synchronized (this) {
			this.state = ClusterState.DEGRADED;
			if (this.failing) {
				return;
			}
			this.failing = true;
			lease = this.lease;
		}
		listener.degraded(this.pool.getName(), lease, ex);
	}

	private void renewed(long started, Exchange exchange, ClusterListener listener) {
		boolean rejoined;
		int granted;
		synchronized (this) {
			List<InstanceEntry> known = this.others;
			this.others = List.copyOf(exchange.others());
			// What the others asked for in the meantime may leave this instance less
			// than it was granted: it shrinks at once, and releases at the next exchange.
			int fair = LeasePlanner.target(this.limit, this.instanceId, this.demand, this.others);
			granted = Math.max(1, Math.min(exchange.granted(), fair));
			boolean forgotten = !exchange.known() && this.renewedAt != NEVER;
			if (forgotten) {
				// The store forgot this lease, and maybe the others' that still hold
				// theirs: confirm it only, and wait for them.
				granted = Math.min(granted, this.lease);
				this.hold = RejoinHold.after(known, started, started - this.renewedAt, this.ttlNanos);
			}
			if (this.hold != null && !this.hold.holds(this.others, started)) {
				this.hold = null;
			}
			this.pool.setCeiling(granted);
			this.lease = granted;
			this.renewedAt = started;
			rejoined = this.failing || this.fallback || forgotten;
			this.failing = false;
			this.fallback = false;
			this.state = ClusterState.OK;
		}
		if (rejoined) {
			listener.rejoined(this.pool.getName(), granted);
		}
	}

	/**
	 * Fall back to a share of the pool's own once its lease expired unrenewed; the others
	 * may take the lease then. A pool whose lease was above the share shrinks to it at
	 * once; one below it grows to it only a time to live later, when the others have
	 * fallen back too and their pools shrunk. Nothing happens while the lease is alive.
	 * @param listener told when the pool falls back
	 */
	public void expire(ClusterListener listener) {
		int share;
		synchronized (this) {
			long now = this.clock.nanoTime();
			if (this.fallback) {
				if (this.lease < this.fallbackShare && now - this.fellBackAt >= this.ttlNanos) {
					this.pool.setCeiling(this.fallbackShare);
					this.lease = this.fallbackShare;
				}
				return;
			}
			// The others may take the lease once its time to live is over: fall back at
			// the last check before that.
			if (this.renewedAt == NEVER || now - this.renewedAt < this.ttlNanos - this.checkNanos) {
				return;
			}
			share = LeasePlanner.fallback(this.limit, this.localShare, this.others.size() + 1,
					this.beforeFirstExchange);
			this.fallbackShare = share;
			this.fellBackAt = now;
			this.lease = Math.min(this.lease, share);
			this.pool.setCeiling(this.lease);
			this.fallback = true;
			this.state = ClusterState.DEGRADED;
		}
		listener.fellBack(this.pool.getName(), share);
	}

	/**
	 * Return what the pool's cluster looks like now.
	 * @return the status
	 */
	public synchronized ClusterStatus status() {
		List<ClusterStatus.Instance> instances = new ArrayList<>();
		instances.add(new ClusterStatus.Instance(this.instanceId, this.demand.threads(), this.lease, true));
		for (InstanceEntry other : this.others) {
			instances.add(new ClusterStatus.Instance(other.id(), other.demand(), other.lease(), false));
		}
		long age = (this.renewedAt != NEVER) ? (this.clock.nanoTime() - this.renewedAt) / 1_000_000 : -1;
		return new ClusterStatus(this.limit, this.lease, age, this.state, this.fallback, instances);
	}

	/**
	 * Return the lease: the most threads the pool may have now.
	 * @return the lease
	 */
	public synchronized int lease() {
		return this.lease;
	}

	/**
	 * Return whether the instance reaches the others now.
	 * @return the state
	 */
	public synchronized ClusterState state() {
		return this.state;
	}

	@Override
	public String toString() {
		return "PoolLease[" + this.pool.getName() + ", " + this.lease + " of " + this.limit + "]";
	}

}
