package io.github.poolpilot.cluster;

import java.util.ArrayList;
import java.util.List;

import io.github.poolpilot.budget.BudgetAllocator;
import io.github.poolpilot.budget.BudgetAllocator.Demand;

/**
 * Shares a pool's cluster-wide limit among the live instances' demands with the same
 * weighted water-filling as the local budget ({@link BudgetAllocator}), every instance of
 * weight 1: each is guaranteed {@code limit ÷ instances} when it asks for that much, and
 * what idle instances leave is lent to the busy ones.
 *
 * @author poolpilot authors
 */
public final class LeasePlanner {

	private LeasePlanner() {
	}

	/**
	 * Return the lease one instance should ask for.
	 * @param limit the pool's cluster-wide limit
	 * @param instanceId this instance's id
	 * @param demand this instance's demand now
	 * @param others the other live instances, as last read
	 * @return the lease to ask for, at least 1 (a pool keeps one thread)
	 */
	public static int target(int limit, String instanceId, InstanceDemand demand, List<InstanceEntry> others) {
		List<Demand> demands = new ArrayList<>();
		demands.add(demand(instanceId, demand.threads(), demand.needed(), limit));
		for (InstanceEntry other : others) {
			demands.add(demand(other.id(), other.demand(), other.needed(), limit));
		}
		return Math.max(1, BudgetAllocator.allocate(demands, limit).get(instanceId));
	}

	private static Demand demand(String id, int threads, int needed, int limit) {
		int asked = Math.min(limit, Math.max(threads, needed));
		return new Demand(id, 0, limit, 1, asked, Math.min(asked, needed), true);
	}

	/**
	 * Return the share an instance falls back to when it cannot reach the others and its
	 * lease expired: the configured local share, else the limit divided by the instances
	 * last known.
	 * @param limit the pool's cluster-wide limit
	 * @param localShare the configured local share, or 0 for none
	 * @param lastKnownInstances the instances alive at the last exchange, this one
	 * included; 0 before the first
	 * @param beforeFirstExchange the share before any exchange succeeded
	 * @return the fallback share, at least 1
	 */
	public static int fallback(int limit, int localShare, int lastKnownInstances, int beforeFirstExchange) {
		if (localShare > 0) {
			return localShare;
		}
		if (lastKnownInstances == 0) {
			return Math.max(1, beforeFirstExchange);
		}
		return Math.max(1, limit / lastKnownInstances);
	}

}
