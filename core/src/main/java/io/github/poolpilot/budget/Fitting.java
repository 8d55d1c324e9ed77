package io.github.poolpilot.budget;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

import io.github.poolpilot.budget.ThreadBudget.Cut;

/**
 * Pools shrunk until their maximum sizes together fit the budget
 * ({@link ThreadBudget#fit}): the pools with the most threads per unit of weight give
 * first, each down to its min-threads at most, through its own door.
 *
 * @author poolpilot authors
 */
final class Fitting {

	private Fitting() {
	}

	/**
	 * Shrink the pools by the given excess; call it within the budget's lock.
	 * @return how many threads the budget is still short by, negative or zero when
	 * everything fits
	 */
	static int cut(Collection<? extends BudgetMember> members, int excess, int maxThreads, List<Cut> cuts) {
		List<BudgetMember> byShare = new ArrayList<>(members);
		byShare.sort(
				Comparator.comparingDouble((BudgetMember member) -> (double) member.maxPoolSize() / member.getWeight())
					.reversed());
		int left = excess;
		for (BudgetMember member : byShare) {
			if (left <= 0) {
				break;
			}
			int max = member.maxPoolSize();
			int cut = Math.min(left, max - Math.max(1, member.minThreads()));
			if (cut > 0) {
				int newMax = max - cut;
				member.resize(Math.min(member.corePoolSize(), newMax), newMax);
				cuts.add(new Cut(member.getName(), max, newMax, maxThreads));
				left -= cut;
			}
		}
		return left;
	}

}
