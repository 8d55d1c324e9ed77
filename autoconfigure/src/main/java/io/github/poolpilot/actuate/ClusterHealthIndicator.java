package io.github.poolpilot.actuate;

import java.util.Map;
import java.util.TreeMap;

import io.github.poolpilot.cluster.ClusterCoordinator;
import io.github.poolpilot.cluster.ClusterState;
import io.github.poolpilot.cluster.ClusterStatus;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Contributes each clustered pool's state to the application's health: always {@code UP},
 * for an instance that cannot reach Redis still serves within its lease or its fallback
 * share; the details say which pools are {@code degraded}.
 *
 * @author poolpilot authors
 */
public class ClusterHealthIndicator implements HealthIndicator {

	private final ClusterCoordinator coordinator;

	/**
	 * Create an indicator.
	 * @param coordinator the instance's leases
	 */
	public ClusterHealthIndicator(ClusterCoordinator coordinator) {
		this.coordinator = coordinator;
	}

	@Override
	public Health health() {
		Map<String, Object> pools = new TreeMap<>();
		boolean degraded = false;
		for (var entry : this.coordinator.leases().entrySet()) {
			ClusterStatus status = entry.getValue().status();
			degraded |= status.state() == ClusterState.DEGRADED;
			pools.put(entry.getKey(), Map.of("state", status.state().value(), "lease", status.lease(), "limit",
					status.limit(), "fallback", status.fallback()));
		}
		return Health.up()
			.withDetail("state", degraded ? ClusterState.DEGRADED.value() : ClusterState.OK.value())
			.withDetail("pools", pools)
			.build();
	}

}
