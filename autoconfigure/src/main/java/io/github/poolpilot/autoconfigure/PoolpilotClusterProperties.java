package io.github.poolpilot.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties for the limits the instances of an application share through
 * Redis.
 *
 * @author poolpilot authors
 */
@ConfigurationProperties("poolpilot.cluster")
public class PoolpilotClusterProperties {

	/**
	 * Whether the pools with a cluster.max-threads share it with the other instances of
	 * their group through Redis (spring.data.redis.*).
	 */
	private boolean enabled;

	/**
	 * Name of the instances that share their limits. Defaults to spring.application.name.
	 */
	private @Nullable String group;

	/**
	 * Measurement windows a lease lives without renewal: an instance that stops renewing
	 * keeps its share this long, and the others may take it only after.
	 */
	private int leaseHeartbeats = 3;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable String getGroup() {
		return this.group;
	}

	public void setGroup(@Nullable String group) {
		this.group = group;
	}

	public int getLeaseHeartbeats() {
		return this.leaseHeartbeats;
	}

	public void setLeaseHeartbeats(int leaseHeartbeats) {
		this.leaseHeartbeats = leaseHeartbeats;
	}

}
