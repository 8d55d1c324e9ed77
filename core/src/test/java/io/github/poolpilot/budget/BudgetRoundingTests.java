package io.github.poolpilot.budget;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.budget.BudgetAllocator.Demand;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * How the budget rounds: shares are rounded down after multiplying, and the threads
 * rounding leaves go to the heaviest pools first.
 *
 * @author poolpilot authors
 */
class BudgetRoundingTests {

	@Test
	void threadsLeftByRoundingGoWhereTheWaterLevelReachesFirst() {
		// Weights 3 and 4 sharing 4: at a level of 2/3 each has 2 threads; the heavier
		// pool is no closer to its share with 3 and the lighter with 1.
		assertThat(BudgetAllocator
			.allocate(List.of(new Demand("light", 1, 100, 3, 100, true), new Demand("heavy", 1, 100, 4, 100, true)), 4))
			.containsExactly(entry("light", 2), entry("heavy", 2));
	}

	@Test
	void aShareIsTheBudgetTimesTheWeightOverTheTotalRoundedDown() {
		assertThat(BudgetSizing.share(10, 2, 3)).isEqualTo(6);
		assertThat(BudgetSizing.share(10, 1, 3)).isEqualTo(3);
		assertThat(BudgetSizing.share(400, 6, 8)).isEqualTo(300);
		assertThat(BudgetSizing.share(Integer.MAX_VALUE, 3, 4)).isEqualTo(1610612735);
	}

	@Test
	void theThreadsRoundingLeavesGoToTheHeaviestPoolsFirst() {
		// 10 threads at weights 1 and 2: 3⅓ and 6⅔, rounded down to 3 and 6; the one left
		// goes to the heavier pool, whichever order the pools come in.
		assertThat(BudgetAllocator.allocate(
				List.of(new Demand("light", 1, 100, 1, 100, true), new Demand("heavy", 1, 100, 2, 100, true)), 10))
			.containsExactly(entry("light", 3), entry("heavy", 7));
		assertThat(BudgetAllocator.allocate(
				List.of(new Demand("heavy", 1, 100, 2, 100, true), new Demand("light", 1, 100, 1, 100, true)), 10))
			.containsExactly(entry("heavy", 7), entry("light", 3));
	}

	@Test
	void aThreadRoundingLeavesOverGoesToTheHeaviestPoolEvenWhenItComesSecond() {
		// 10 threads at weights 1, 2 and 1: 2½, 5 and 2½ rounded down leave one thread,
		// which the heaviest pool gets, not the first.
		assertThat(BudgetAllocator.allocate(List.of(new Demand("first", 1, 100, 1, 100, true),
				new Demand("heavy", 1, 100, 2, 100, true), new Demand("last", 1, 100, 1, 100, true)), 10))
			.containsExactly(entry("first", 2), entry("heavy", 6), entry("last", 2));
	}

}
