package io.github.poolpilot.metrics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.cluster.ClusterCoordinator;
import io.github.poolpilot.cluster.ClusterListener;
import io.github.poolpilot.cluster.ClusterState;
import io.github.poolpilot.cluster.PoolLease;

/**
 * Meters of each clustered pool, tagged with its {@code name}: its lease and cluster-wide
 * limit, whether it is degraded now (1) or not (0), how often its lease expired unrenewed
 * and it fell back to a share of its own, and how long its exchanges with the others take
 * (the control loop's round trip to Redis, never on a task's path).
 *
 * @author poolpilot authors
 */
public class ClusterMetrics implements MeterBinder, ClusterListener {

	private final Supplier<ClusterCoordinator> coordinator;

	private final Map<String, Counter> fallbacks = new ConcurrentHashMap<>();

	private final Map<String, Timer> exchanges = new ConcurrentHashMap<>();

	private volatile @Nullable MeterRegistry registry;

	/**
	 * Create the meters.
	 * @param coordinator the instance's leases, read when the meters are bound and when a
	 * pool joins
	 */
	public ClusterMetrics(Supplier<ClusterCoordinator> coordinator) {
		this.coordinator = coordinator;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		this.registry = registry;
		this.coordinator.get().leases().keySet().forEach((pool) -> bind(registry, pool));
	}

	/**
	 * A pool joined its cluster, when the control loop starts, after the meters were
	 * bound: its meters are bound now.
	 */
	@Override
	public void joined(String pool) {
		MeterRegistry registry = this.registry;
		if (registry != null) {
			bind(registry, pool);
		}
	}

	/**
	 * Bind a pool's meters; binding them again finds those bound before.
	 */
	private void bind(MeterRegistry registry, String pool) {
		ClusterCoordinator coordinator = this.coordinator.get();
		Gauge.builder("executor.cluster.lease", coordinator, (c) -> leaseOf(c, pool, false))
			.tag("name", pool)
			.description("The most threads the pool may have now, its share of the cluster-wide limit")
			.register(registry);
		Gauge.builder("executor.cluster.degraded", coordinator, (c) -> leaseOf(c, pool, true))
			.tag("name", pool)
			.description("1 while the instance cannot reach the others through Redis, else 0")
			.register(registry);
		fallbacks(registry, pool);
		exchanges(registry, pool);
	}

	private static double leaseOf(ClusterCoordinator coordinator, String pool, boolean degraded) {
		PoolLease lease = coordinator.lease(pool);
		if (lease == null) {
			return Double.NaN;
		}
		if (degraded) {
			return (lease.state() == ClusterState.DEGRADED) ? 1 : 0;
		}
		return lease.lease();
	}

	private Counter fallbacks(MeterRegistry registry, String pool) {
		return this.fallbacks.computeIfAbsent(pool,
				(name) -> Counter.builder("executor.cluster.fallbacks")
					.tag("name", name)
					.description("Times the pool's lease expired unrenewed and it fell back to a share of its own")
					.register(registry));
	}

	private Timer exchanges(MeterRegistry registry, String pool) {
		return this.exchanges.computeIfAbsent(pool,
				(name) -> Timer.builder("executor.cluster.exchange")
					.tag("name", name)
					.description("Round trips of the pool's exchanges with the other instances through Redis, "
							+ "one per window on the control loop's thread")
					.publishPercentiles(0.5, 0.99)
					.register(registry));
	}

	@Override
	public void exchanged(String pool, long roundTripNanos) {
		MeterRegistry registry = this.registry;
		if (registry != null) {
			exchanges(registry, pool).record(roundTripNanos, TimeUnit.NANOSECONDS);
		}
	}

	@Override
	public void fellBack(String pool, int share) {
		MeterRegistry registry = this.registry;
		if (registry != null) {
			fallbacks(registry, pool).increment();
		}
	}

}
