package io.github.poolpilot.budget;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.budget.BudgetAllocator.Demand;
import io.github.poolpilot.budget.ThreadBudget.Cut;
import io.github.poolpilot.budget.ThreadBudget.Fit;
import io.github.poolpilot.budget.ThreadBudget.Held;
import io.github.poolpilot.budget.ThreadBudget.Loan;
import io.github.poolpilot.budget.ThreadBudget.Overrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link ThreadBudget}'s maximum, its check of a growing pool and its fit of
 * pools that joined late, on members that only hold their sizes.
 *
 * @author poolpilot authors
 */
class ThreadBudgetTests {

	@Test
	void theMaximumIsAtLeastOneAndNeverBelowWhatThePoolsMayGrowToNow() {
		assertThatIllegalArgumentException().isThrownBy(() -> new ThreadBudget(0, List::of))
			.withMessage("budget max-threads must be at least 1 but was 0");
		assertThat(new ThreadBudget(1, List::of).getConfiguredMaxThreads()).isEqualTo(1);
		SizedMember a = member("a", 1, 0, 1, 6, 4);
		ThreadBudget budget = new ThreadBudget(20, () -> List.of(a));
		assertThatIllegalArgumentException().isThrownBy(() -> budget.setMaxThreads(0))
			.withMessage("budget max-threads must be at least 1 but was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> budget.setMaxThreads(5))
			.withMessage(
					"budget max-threads 5 is below the 6 threads the pools may grow to now; lower their sizes first");
		assertThat(budget.getConfiguredMaxThreads()).isEqualTo(20);
		budget.setMaxThreads(6);
		assertThat(budget.getConfiguredMaxThreads()).isEqualTo(6);
		budget.setMaxThreads(null);
		assertThat(budget.getConfiguredMaxThreads()).isNull();
	}

	@Test
	void liveAndAllocatedThreadsSumThePools() {
		ThreadBudget budget = new ThreadBudget(20,
				() -> List.of(member("a", 1, 0, 1, 6, 4), member("b", 1, 0, 1, 3, 5)));
		assertThat(budget.allocatedThreads()).isEqualTo(9);
		assertThat(budget.liveThreads()).isEqualTo(9);
	}

	@Test
	void aPoolThatDoesNotGrowPassesTheCheckEvenOverTheBudget() {
		SizedMember a = member("a", 1, 0, 1, 8, 8);
		SizedMember b = member("b", 1, 0, 1, 5, 5);
		ThreadBudget budget = new ThreadBudget(10, () -> List.of(a, b));
		assertThat(budget.makeRoom(a, 8).overrun()).isNull();
		assertThat(budget.makeRoom(a, 9).overrun()).isEqualTo(new Overrun(14, 10, 5, 0));
	}

	@Test
	void threadsOfPoolsThatLeftHoldTheirRoomUntilTheyEnd() {
		SizedMember a = member("a", 1, 4, 1, 4, 4);
		SizedMember b = member("b", 1, 0, 1, 2, 0);
		List<BudgetMember> members = new ArrayList<>(List.of(a, b));
		int[] departed = { 3 };
		ThreadBudget budget = new ThreadBudget(10, () -> members, () -> departed[0]);
		assertThat(budget.liveThreads()).isEqualTo(7);
		assertThat(budget.makeRoom(b, 4).overrun()).isEqualTo(new Overrun(11, 10, 3, 0));
		assertThat(budget.threadsNow(List.of(new Demand("b", 1, 64, 1, 8, false)), List.of(new Held("b", 2, 0))))
			.containsEntry("b", 7);
		budget.fit();
		SizedMember later = member("later", 1, 0, 1, 6, 0);
		members.add(later);
		assertThat(budget.admit(later).cuts()).containsExactly(new Cut("later", 6, 1, 10));
		departed[0] = 0;
		assertThat(budget.liveThreads()).isEqualTo(4);
		assertThat(budget.makeRoom(b, 4).overrun()).isNull();
		assertThat(budget.threadsNow(List.of(new Demand("b", 1, 64, 1, 8, false)), List.of(new Held("b", 2, 0))))
			.containsEntry("b", 8);
	}

	@Test
	void fittingCutsThePoolWithTheMostThreadsPerWeightFirstAndNoneBelowItsMinimum() {
		SizedMember light = member("light", 1, 0, 10, 12, 0);
		SizedMember heavy = member("heavy", 4, 0, 1, 12, 0);
		SizedMember smallest = member("smallest", 1, 0, 1, 1, 0);
		ThreadBudget budget = new ThreadBudget(14, () -> List.of(heavy, smallest, light));
		Fit fit = budget.fit();
		// 25 threads for 14: "light" (12 per weight) gives 2 down to its min-threads,
		// "heavy" (3 per weight) the other 9, "smallest" has nothing to give.
		assertThat(fit.cuts()).containsExactly(new Cut("light", 12, 10, 14), new Cut("heavy", 12, 3, 14));
		assertThat(fit.shortBy()).isZero();
		assertThat(light.max).isEqualTo(10);
		assertThat(heavy.max).isEqualTo(3);
		assertThat(heavy.core).isEqualTo(0);
		ThreadBudget tight = new ThreadBudget(2, () -> List.of(smallest, light));
		Fit shortFit = tight.fit();
		assertThat(shortFit.cuts()).isEmpty();
		assertThat(shortFit.shortBy()).isEqualTo(9);
	}

	/**
	 * A pool that only holds its sizes, up to 64 threads.
	 */
	private static SizedMember member(String name, int weight, int core, int minThreads, int max, int live) {
		return new SizedMember(name, weight, minThreads, core, max, live, 64);
	}

	@Test
	void aPoolThatJoinsWhileTasksReachALenderGivesWayToWhatTheLenderStillLends() {
		// The lender holds 6 threads, 4 of them live: it may lend 2. From the second time
		// the budget asks it to lend, tasks have reached it and all 6 are live.
		SizedMember lender = new SizedMember("lender", 1, 1, 1, 6, 4);
		SizedMember later = new SizedMember("later", 1, 1, 8, 8, 0);
		List<BudgetMember> members = new ArrayList<>(List.of(lender));
		ThreadBudget budget = new ThreadBudget(10, () -> members);
		int[] asked = new int[1];
		budget.setLenders(new Lenders() {
			@Override
			public boolean mayLend(BudgetMember member) {
				if (++asked[0] >= 2) {
					lender.live = 6;
				}
				return member == lender;
			}

			@Override
			public void lent(Loan loan) {
			}
		});
		budget.fit();
		members.add(later);
		Fit fit = budget.admit(later);
		assertThat(lender.max + later.max).as("the threads the pools may hold, in a budget of 10").isEqualTo(10);
		assertThat(later.max).isEqualTo(4);
		assertThat(fit.cuts()).containsExactly(new Cut("later", 8, 4, 10));
	}

}
