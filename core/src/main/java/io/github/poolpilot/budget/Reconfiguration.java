package io.github.poolpilot.budget;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.budget.ThreadBudget.Loan;
import io.github.poolpilot.budget.ThreadBudget.Overrun;
import io.github.poolpilot.budget.ThreadBudget.Reconfigured;

/**
 * A new maximum and new pool settings applied all together or not at all, in an order in
 * which every step stays within the budget of its moment
 * ({@link ThreadBudget#reconfigure}): the check of what the pools really use first, then
 * the larger maximum, the pools that shrink before those that grow, and a lower maximum
 * last, once the pools hold no more than it; else every pool gets its old settings and
 * sizes back.
 *
 * @author poolpilot authors
 */
final class Reconfiguration {

	private Reconfiguration() {
	}

	/**
	 * Apply the settings; the budget's maximum changes only through its door. When a
	 * pool's door throws, every pool gets its old settings and sizes back before the
	 * exception leaves: the budget puts back its old maximum then.
	 */
	static <M extends BudgetMember> @Nullable Overrun apply(ThreadBudget budget,
			Collection<? extends BudgetMember> members, Lenders lenders, @Nullable Integer maxThreads,
			Map<M, Reconfigured> sizes, Consumer<M> apply, Consumer<M> restore) {
		int held = 0;
		int lendable = 0;
		for (Map.Entry<M, Reconfigured> entry : sizes.entrySet()) {
			M member = entry.getKey();
			Reconfigured after = entry.getValue();
			held += ThreadBudget.holds(after.maxPoolSize(), member.liveThreads());
			if (Lending.mayLend(lenders, member)) {
				lendable += Math.max(0, after.maxPoolSize() - Math.max(after.minThreads(), member.liveThreads()));
			}
		}
		if (maxThreads != null && held - lendable > maxThreads) {
			return new Overrun(held, maxThreads, maxThreads, lendable);
		}
		Integer current = budget.getConfiguredMaxThreads();
		boolean larger = maxThreads == null || (current != null && maxThreads >= current);
		Snapshot before = new Snapshot(members);
		List<M> byGrowth = new ArrayList<>(sizes.keySet());
		byGrowth.sort(Comparator.comparingInt((member) -> sizes.get(member).maxPoolSize() - member.maxPoolSize()));
		try {
			if (larger) {
				budget.setMaxThreads(maxThreads);
			}
			byGrowth.forEach(apply);
		}
		catch (RuntimeException ex) {
			restore(before, sizes, restore);
			throw ex;
		}
		if (larger) {
			return null;
		}
		// Lowered: the pools that shrank may still finish tasks on more threads, and
		// idle pools may have started some since the check; what they hold now counts.
		int heldNow = Snapshot.held(members);
		int lendableNow = budget.lendableThreads();
		@Nullable List<Loan> loans = (heldNow > maxThreads) ? Lending.reclaim(members, heldNow - maxThreads, lenders) : List.of();
		if (loans == null || Snapshot.held(members) > maxThreads) {
			restore(before, sizes, restore);
			return new Overrun(heldNow, maxThreads, maxThreads, lendableNow);
		}
		loans.forEach(lenders::lent);
		budget.setMaxThreads(maxThreads);
		return null;
	}

	private static <M extends BudgetMember> void restore(Snapshot before, Map<M, Reconfigured> sizes,
			Consumer<M> restore) {
		Map<BudgetMember, M> reconfigured = new HashMap<>();
		sizes.keySet().forEach((member) -> reconfigured.put(member, member));
		before.restore((member) -> {
			M pool = reconfigured.get(member);
			if (pool != null) {
				restore.accept(pool);
			}
		});
	}

}
