package io.github.poolpilot.autoconfigure;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Checks the cluster's keys: {@code poolpilot.cluster.*} and each pool's
 * {@code cluster.*}, so that a bad value fails start-up with a message naming it.
 *
 * @author poolpilot authors
 */
final class ClusterPropertiesValidator {

	private ClusterPropertiesValidator() {
	}

	/**
	 * Check a pool's cluster keys.
	 * @param prefix the keys' prefix, ending with a dot
	 * @param cluster the pool's cluster keys
	 */
	static void validate(String prefix, PoolProperties.Cluster cluster) {
		Integer maxThreads = cluster.getMaxThreads();
		Integer localShare = cluster.getLocalShare();
		if (maxThreads != null && maxThreads < 1) {
			throw new InvalidPoolpilotPropertyException(prefix + "max-threads", maxThreads,
					"must be at least 1 (leave it out for no cluster-wide limit)");
		}
		if (localShare != null && maxThreads == null) {
			throw new InvalidPoolpilotPropertyException(prefix + "local-share", localShare,
					"needs " + prefix + "max-threads: a local share is a share of the cluster-wide limit");
		}
		if (localShare != null && maxThreads != null && (localShare < 1 || localShare > maxThreads)) {
			throw new InvalidPoolpilotPropertyException(prefix + "local-share", localShare,
					"must be between 1 and " + prefix + "max-threads (" + maxThreads + ")");
		}
	}

	/**
	 * Refuse a pool's cluster keys where a pool cannot have them, naming the key set.
	 * @param prefix the pool's keys' prefix, ending with a dot
	 * @param cluster the pool's cluster keys
	 * @param why why the pool cannot have them
	 */
	static void refuse(String prefix, PoolProperties.Cluster cluster, String why) {
		if (cluster.getMaxThreads() != null) {
			throw new InvalidPoolpilotPropertyException(prefix + "cluster.max-threads", cluster.getMaxThreads(), why);
		}
		if (cluster.getLocalShare() != null) {
			throw new InvalidPoolpilotPropertyException(prefix + "cluster.local-share", cluster.getLocalShare(), why);
		}
	}

	/**
	 * Check the keys that clustering needs once it is enabled.
	 * @param cluster the {@code poolpilot.cluster.*} keys
	 * @param applicationName {@code spring.application.name}, or {@code null}
	 * @param pools the declared pools
	 * @return the cluster group
	 */
	static String validate(PoolpilotClusterProperties cluster, @Nullable String applicationName,
			Map<String, PoolProperties> pools) {
		if (cluster.getLeaseHeartbeats() < 2) {
			throw new InvalidPoolpilotPropertyException("poolpilot.cluster.lease-heartbeats",
					cluster.getLeaseHeartbeats(),
					"must be at least 2, so that one late heartbeat does not expire a live instance's lease");
		}
		String group = (cluster.getGroup() != null) ? cluster.getGroup() : applicationName;
		if (group == null || group.isBlank()) {
			throw new InvalidPoolpilotPropertyException("poolpilot.cluster.group", String.valueOf(cluster.getGroup()),
					"must name the instances that share their limits: set poolpilot.cluster.group or "
							+ "spring.application.name");
		}
		if (pools.values().stream().noneMatch((pool) -> pool.getCluster().getMaxThreads() != null)) {
			throw new InvalidPoolpilotPropertyException("poolpilot.cluster.enabled", true,
					"needs at least one pool with a cluster-wide limit: set "
							+ "poolpilot.pools.<name>.cluster.max-threads (or leave clustering off)");
		}
		return group;
	}

}
