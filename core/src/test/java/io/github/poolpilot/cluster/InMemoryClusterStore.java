package io.github.poolpilot.cluster;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.poolpilot.measure.NanoClock;

/**
 * A {@link ClusterStore} in memory that follows the store's contract step for step, on a
 * given clock, and can be made unreachable, for every instance or for some, and lose what
 * it held, as a Redis restarted without persistence.
 *
 * @author poolpilot authors
 */
class InMemoryClusterStore implements ClusterStore {

	private final Map<String, Map<String, InstanceEntry>> pools = new LinkedHashMap<>();

	private final NanoClock clock;

	private volatile boolean reachable = true;

	private final Set<String> cutOff = ConcurrentHashMap.newKeySet();

	InMemoryClusterStore(NanoClock clock) {
		this.clock = clock;
	}

	void reachable(boolean reachable) {
		this.reachable = reachable;
	}

	/**
	 * Let one instance reach the store or not, as when its own client is still
	 * reconnecting while the others' are back.
	 */
	void reachable(String instanceId, boolean reachable) {
		if (reachable) {
			this.cutOff.remove(instanceId);
		}
		else {
			this.cutOff.add(instanceId);
		}
	}

	/**
	 * Forget every lease, as a Redis restarted without persistence.
	 */
	synchronized void lose() {
		this.pools.clear();
	}

	@Override
	public synchronized Exchange exchange(String pool, Publication publication) {
		if (!this.reachable || this.cutOff.contains(publication.instanceId())) {
			throw new IllegalStateException("store unreachable");
		}
		long now = this.clock.nanoTime() / 1_000_000;
		Map<String, InstanceEntry> entries = this.pools.computeIfAbsent(pool, (name) -> new LinkedHashMap<>());
		entries.values().removeIf((entry) -> now - entry.heartbeatMillis() > publication.ttlMillis());
		boolean known = entries.containsKey(publication.instanceId());
		List<InstanceEntry> others = new ArrayList<>();
		int othersLeases = 0;
		for (InstanceEntry entry : entries.values()) {
			if (!entry.id().equals(publication.instanceId())) {
				others.add(entry);
				othersLeases += entry.lease();
			}
		}
		int granted = Math.min(publication.request(), Math.max(0, publication.limit() - othersLeases));
		entries.put(publication.instanceId(),
				new InstanceEntry(publication.instanceId(), publication.demand().threads(),
						publication.demand().needed(), Math.max(granted, publication.held()), now));
		return new Exchange(granted, others, known);
	}

	@Override
	public synchronized void release(String pool, String instanceId) {
		this.pools.getOrDefault(pool, Map.of()).remove(instanceId);
	}

	synchronized int leases(String pool) {
		return this.pools.getOrDefault(pool, Map.of()).values().stream().mapToInt(InstanceEntry::lease).sum();
	}

	synchronized Map<String, InstanceEntry> entries(String pool) {
		return Map.copyOf(this.pools.getOrDefault(pool, Map.of()));
	}

}
