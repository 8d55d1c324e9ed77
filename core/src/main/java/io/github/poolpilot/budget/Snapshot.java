package io.github.poolpilot.budget;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The pools' sizes at one moment, to put back when a change of several pools turns out
 * not to fit once made. Tasks start threads without the budget's lock, so a pool that was
 * idle when a change was checked may be busy when it lends; once a pool is resized its
 * threads can only end, so what the pools hold after a change is checked for good.
 *
 * @author poolpilot authors
 */
final class Snapshot {

	private final Map<BudgetMember, int[]> sizes = new LinkedHashMap<>();

	Snapshot(Collection<? extends BudgetMember> members) {
		members.forEach((member) -> this.sizes.put(member, new int[] { member.corePoolSize(), member.maxPoolSize() }));
	}

	/**
	 * Return the threads the pools hold now, each its maximum size or its live threads
	 * when more are still finishing their tasks.
	 */
	static int held(Collection<? extends BudgetMember> members) {
		return members.stream()
			.mapToInt((member) -> ThreadBudget.holds(member.maxPoolSize(), member.liveThreads()))
			.sum();
	}

	/**
	 * Return the threads the pools other than the given one hold now, whether or not it
	 * is among them.
	 */
	static int held(Collection<? extends BudgetMember> members, BudgetMember except) {
		return members.stream()
			.filter((member) -> member != except)
			.mapToInt((member) -> ThreadBudget.holds(member.maxPoolSize(), member.liveThreads()))
			.sum();
	}

	/**
	 * Put every pool back to its size, those that grew since first so that the others
	 * find room again: {@code settings} runs for each pool before its size is put back,
	 * through its door. A pool whose door refuses to grow back, because threads started
	 * meanwhile in a pool that grew hold the room it had until their tasks end, keeps the
	 * smaller size it has, within the budget, and the others are still put back.
	 */
	void restore(Consumer<BudgetMember> settings) {
		List<BudgetMember> order = new ArrayList<>(this.sizes.keySet());
		order.sort(Comparator.comparingInt((member) -> this.sizes.get(member)[1] - member.maxPoolSize()));
		for (BudgetMember member : order) {
			settings.accept(member);
			int[] size = this.sizes.get(member);
			if (member.corePoolSize() != size[0] || member.maxPoolSize() != size[1]) {
				try {
					member.resize(size[0], size[1]);
				}
				catch (RuntimeException ex) {
					if (size[1] <= member.maxPoolSize()) {
						throw ex;
					}
				}
			}
		}
	}

}
