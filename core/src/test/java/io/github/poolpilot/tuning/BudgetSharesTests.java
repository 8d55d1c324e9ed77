package io.github.poolpilot.tuning;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.tuning.BudgetShares.Held;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.BudgetReclaimed;
import io.github.poolpilot.tuning.Decision.Cause.Queueing;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link BudgetShares}: an allocation turned into the threads each pool may
 * have now, and a decision as the budget lets it be carried out.
 *
 * @author poolpilot authors
 */
class BudgetSharesTests {

	@Test
	void growingPoolsShareOnlyWhatTheThreadsStillRunningLeave() {
		// 5 + 5 + 8 still running of 20: the first grower takes the 2 free, the second
		// none, the pool that shrank keeps its size.
		Map<String, Integer> threads = BudgetShares.threads(
				List.of(new Held("first", 5, 5), new Held("second", 5, 5), new Held("finishing", 4, 8)),
				Map.of("first", 8, "second", 8, "finishing", 4), 20);
		assertThat(threads).containsExactly(Map.entry("first", 7), Map.entry("second", 5), Map.entry("finishing", 4));
	}

	@Test
	void aSecondGrowingPoolTakesWhatTheFirstLeft() {
		// 18 of 22 held: the first grower takes 3 of the 4 free, the second the last one.
		Map<String, Integer> threads = BudgetShares.threads(
				List.of(new Held("first", 5, 5), new Held("second", 5, 5), new Held("finishing", 4, 8)),
				Map.of("first", 8, "second", 8, "finishing", 4), 22);
		assertThat(threads).containsExactly(Map.entry("first", 8), Map.entry("second", 6), Map.entry("finishing", 4));
	}

	@Test
	void aDecisionTheBudgetAllowsIsKeptAsItIs() {
		Decision grow = grow(5, 8);
		assertThat(BudgetShares.withinBudget(grow, 5, 8)).isSameAs(grow);
	}

	@Test
	void givenLessThanItHasThePoolShrinksForTheOthers() {
		Decision shrink = BudgetShares.withinBudget(grow(5, 8), 5, 4);
		assertThat(shrink.action()).isEqualTo(Action.SHRINK);
		assertThat(shrink.from()).isEqualTo(5);
		assertThat(shrink.to()).isEqualTo(4);
		assertThat(shrink.cause()).isEqualTo(new BudgetReclaimed(grow(5, 8)));
		assertThat(shrink.limited()).isTrue();
	}

	@Test
	void givenWhatItHasOrLessThanItAskedThePoolGrowsAsFarAsAllowedAndIsLimited() {
		Decision kept = BudgetShares.withinBudget(grow(5, 8), 5, 5);
		assertThat(kept.action()).isEqualTo(Action.GROW);
		assertThat(kept.to()).isEqualTo(5);
		assertThat(kept.budgetAllows()).isEqualTo(5);
		assertThat(kept.limited()).isTrue();
		Decision partly = BudgetShares.withinBudget(grow(5, 8), 5, 7);
		assertThat(partly.to()).isEqualTo(7);
		assertThat(partly.budgetAllows()).isEqualTo(7);
		assertThat(partly.cause()).isEqualTo(new Queueing(5, 8));
		assertThat(partly.limited()).isTrue();
	}

	@Test
	void givenMoreThanItAskedThePoolIsNotLimited() {
		Decision hold = Decision.hold(5, new Queueing(5, 5), null, true);
		Decision more = BudgetShares.withinBudget(hold, 5, 6);
		assertThat(more.to()).isEqualTo(6);
		assertThat(more.budgetAllows()).isNull();
		assertThat(more.limited()).isFalse();
	}

	private static Decision grow(int from, int to) {
		return Decision.change(Action.GROW, from, to, new Queueing(from, to), null, true);
	}

}
