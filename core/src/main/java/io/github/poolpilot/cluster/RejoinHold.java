package io.github.poolpilot.cluster;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What an instance owes the others once the store no longer knew its lease (after an
 * outage, a restart of the store without persistence, a failover): the store may have
 * forgotten theirs too, while they still hold them or their fallback shares and their
 * clients are still reconnecting. Until each instance it knew before is back in the
 * store, the instance does not grow; one that stays away longer than the instance itself
 * was away (a client backing off as long again), and at least a lease's time to live, is
 * taken for gone.
 *
 * @author poolpilot authors
 */
final class RejoinHold {

	private final Set<String> awaited;

	private final long until;

	private RejoinHold(Set<String> awaited, long until) {
		this.awaited = awaited;
		this.until = until;
	}

	/**
	 * Start a hold.
	 * @param known the other instances as last read before the store forgot this one
	 * @param now when the exchange that found this instance forgotten started
	 * @param away how long since this instance's last exchange that the store knew
	 * @param ttlNanos a lease's time to live
	 * @return the hold
	 */
	static RejoinHold after(List<InstanceEntry> known, long now, long away, long ttlNanos) {
		Set<String> awaited = new HashSet<>();
		known.forEach((entry) -> awaited.add(entry.id()));
		return new RejoinHold(awaited, now + Math.max(ttlNanos, away));
	}

	/**
	 * Note the instances the store holds now and tell whether the hold goes on.
	 * @param others the other live instances, as just read
	 * @param now when that exchange started
	 * @return whether the instance may still not grow
	 */
	boolean holds(List<InstanceEntry> others, long now) {
		others.forEach((entry) -> this.awaited.remove(entry.id()));
		return !this.awaited.isEmpty() && now - this.until < 0;
	}

}
