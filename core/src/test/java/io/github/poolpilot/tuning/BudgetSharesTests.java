package io.github.poolpilot.tuning;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.BudgetReclaimed;
import io.github.poolpilot.tuning.Decision.Cause.GrowthBlocked;
import io.github.poolpilot.tuning.Decision.Cause.LoanReturned;
import io.github.poolpilot.tuning.Decision.Cause.Queueing;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link BudgetShares}: a decision as the budget lets it be carried out.
 *
 * @author poolpilot authors
 */
class BudgetSharesTests {

	@Test
	void aDecisionTheBudgetAllowsIsKeptAsItIs() {
		Decision grow = grow(5, 8);
		assertThat(BudgetShares.withinBudget(grow, 5, 8, 4)).isSameAs(grow);
	}

	@Test
	void givenLessThanItHasThePoolShrinksForTheOthers() {
		Decision shrink = BudgetShares.withinBudget(grow(5, 8), 5, 4, 4);
		assertThat(shrink.action()).isEqualTo(Action.SHRINK);
		assertThat(shrink.from()).isEqualTo(5);
		assertThat(shrink.to()).isEqualTo(4);
		assertThat(shrink.cause()).isEqualTo(new BudgetReclaimed(grow(5, 8)));
		assertThat(shrink.limited()).isTrue();
	}

	@Test
	void aPoolThatMayNotBorrowGivesBackWhatItBorrowedBeyondItsShare() {
		// Growth blocked: more threads did not help, so the pool may not borrow.
		Decision blocked = Decision.hold(252, new GrowthBlocked(Duration.ofSeconds(11)), null, false);
		Decision toShare = BudgetShares.withinBudget(blocked, 252, 40, 40);
		assertThat(toShare.action()).isEqualTo(Action.SHRINK);
		assertThat(toShare.to()).isEqualTo(40);
		assertThat(toShare.cause()).isEqualTo(new LoanReturned(blocked, 40));
		assertThat(BudgetShares.cut(blocked, 252, 40, 40).cause()).isEqualTo(new LoanReturned(blocked, 40));
		// Below its share, other pools took threads it was guaranteed.
		assertThat(BudgetShares.withinBudget(blocked, 252, 30, 40).cause()).isEqualTo(new BudgetReclaimed(blocked));
		// A pool that may borrow and is cut to its share lost its loan to the others.
		Decision queueing = Decision.hold(252, new Queueing(252, 252), null, true);
		assertThat(BudgetShares.cut(queueing, 252, 40, 40).cause()).isEqualTo(new BudgetReclaimed(queueing));
	}

	@Test
	void givenWhatItHasOrLessThanItAskedThePoolGrowsAsFarAsAllowedAndIsLimited() {
		Decision kept = BudgetShares.withinBudget(grow(5, 8), 5, 5, 4);
		assertThat(kept.action()).isEqualTo(Action.GROW);
		assertThat(kept.to()).isEqualTo(5);
		assertThat(kept.budgetAllows()).isEqualTo(5);
		assertThat(kept.limited()).isTrue();
		Decision partly = BudgetShares.withinBudget(grow(5, 8), 5, 7, 4);
		assertThat(partly.to()).isEqualTo(7);
		assertThat(partly.budgetAllows()).isEqualTo(7);
		assertThat(partly.cause()).isEqualTo(new Queueing(5, 8));
		assertThat(partly.limited()).isTrue();
	}

	@Test
	void givenMoreThanItAskedThePoolIsNotLimited() {
		Decision hold = Decision.hold(5, new Queueing(5, 5), null, true);
		Decision more = BudgetShares.withinBudget(hold, 5, 6, 4);
		assertThat(more.to()).isEqualTo(6);
		assertThat(more.budgetAllows()).isNull();
		assertThat(more.limited()).isFalse();
	}

	private static Decision grow(int from, int to) {
		return Decision.change(Action.GROW, from, to, new Queueing(from, to), null, true);
	}

}
