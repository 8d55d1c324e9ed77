package io.github.poolpilot.autoconfigure;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.cluster.ClusterCoordinator;
import io.github.poolpilot.cluster.PoolLease;
import io.github.poolpilot.measure.NanoClock;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;

import org.springframework.context.SmartLifecycle;

/**
 * Runs the cluster's control loop once every pool exists: each pool with a cluster-wide
 * limit joins the coordinator, exchanges once at start, then once every window on a
 * thread of its own, so that neither a task nor the tuner ever waits on Redis; a second
 * thread lets leases that expired unrenewed fall back, however long Redis takes to
 * answer. On stop, the leases are released to the others.
 *
 * @author poolpilot authors
 */
class ClusterControlLoop implements SmartLifecycle {

	private final ClusterCoordinator coordinator;

	private final PoolRegistry registry;

	private final Map<String, PoolProperties.Cluster> limits;

	private final Duration window;

	private final int leaseHeartbeats;

	private @Nullable ScheduledExecutorService scheduler;

	ClusterControlLoop(ClusterCoordinator coordinator, PoolRegistry registry,
			Map<String, PoolProperties.Cluster> limits, Duration window, int leaseHeartbeats) {
		this.coordinator = coordinator;
		this.registry = registry;
		this.limits = limits;
		this.window = window;
		this.leaseHeartbeats = leaseHeartbeats;
	}

	@Override
	public synchronized void start() {
		if (this.scheduler != null) {
			return;
		}
		long ttl = this.window.toNanos() * this.leaseHeartbeats;
		this.limits.forEach((name, cluster) -> {
			ManagedPool pool = this.registry.get(name);
			Integer maxThreads = cluster.getMaxThreads();
			if (pool != null && maxThreads != null && this.coordinator.lease(name) == null) {
				Integer localShare = cluster.getLocalShare();
				this.coordinator.join(new PoolLease(pool, this.coordinator.instanceId(), maxThreads,
						(localShare != null) ? localShare : 0, ttl, expiryCheck(), NanoClock.SYSTEM));
			}
		});
		this.coordinator.exchange();
		ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2, (task) -> {
			Thread thread = new Thread(task, "poolpilot-cluster");
			thread.setDaemon(true);
			return thread;
		});
		long window = this.window.toNanos();
		// Each task runs on one thread at a time: an exchange that waits on Redis holds
		// one thread, and the other still expires leases.
		scheduler.scheduleWithFixedDelay(this.coordinator::exchange, window, window, TimeUnit.NANOSECONDS);
		scheduler.scheduleWithFixedDelay(this.coordinator::expire, expiryCheck(), expiryCheck(), TimeUnit.NANOSECONDS);
		this.scheduler = scheduler;
	}

	/**
	 * How often leases that expired unrenewed are looked for: a lease falls back this
	 * much before its time to live is over, so that it has fallen back when the others
	 * may take it.
	 */
	private long expiryCheck() {
		return this.window.toNanos() / 4;
	}

	@Override
	public void stop() {
		ScheduledExecutorService scheduler = halt();
		if (scheduler != null) {
			try {
				// An exchange under way would record the lease again after its release.
				scheduler.awaitTermination(5, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			this.coordinator.release();
		}
	}

	/**
	 * Stop exchanging without releasing the leases, as a process that was killed: the
	 * others take them once they expired. An exchange under way ends first, without
	 * interruption, so that the Redis connection stays sound.
	 * @return the stopped scheduler, or {@code null} when the loop was not running
	 */
	synchronized @Nullable ScheduledExecutorService halt() {
		ScheduledExecutorService scheduler = this.scheduler;
		if (scheduler == null) {
			return null;
		}
		scheduler.shutdown();
		this.scheduler = null;
		return scheduler;
	}

	@Override
	public synchronized boolean isRunning() {
		return this.scheduler != null;
	}

	/**
	 * Start before the embedded web server (Spring Boot's starts it in phase
	 * {@code DEFAULT_PHASE - 2048}), so that a clustered pool holds its lease before the
	 * first request reaches it, and stop after the server stopped, so that its lease is
	 * released once no more requests come in. The pools exist by then: they join the
	 * registry as their beans are created.
	 */
	@Override
	public int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE - 3072;
	}

}
