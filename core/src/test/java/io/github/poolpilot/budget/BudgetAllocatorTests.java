package io.github.poolpilot.budget;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.github.poolpilot.budget.BudgetAllocator.Demand;
import io.github.poolpilot.testsupport.Draw;
import io.github.poolpilot.testsupport.Seeds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link BudgetAllocator}.
 *
 * @author poolpilot authors
 */
class BudgetAllocatorTests {

	@Test
	void everyPoolGetsWhatItAsksWhenTheBudgetAllowsIt() {
		Map<String, Integer> allocation = BudgetAllocator.allocate(List.of(new Demand("start", 10, 300, 6, 120, true),
				new Demand("talk", 5, 50, 1, 40, true), new Demand("stop", 5, 50, 1, 2, true)), 400);
		assertThat(allocation).containsExactly(Map.entry("start", 120), Map.entry("talk", 40), Map.entry("stop", 5));
	}

	@Test
	void whenEveryPoolWantsMoreThanItsShareTheBudgetIsSharedByWeight() {
		Map<String, Integer> allocation = BudgetAllocator.allocate(List.of(new Demand("start", 10, 400, 6, 400, true),
				new Demand("talk", 5, 400, 1, 400, true), new Demand("stop", 5, 400, 1, 400, true)), 400);
		assertThat(allocation).containsExactly(Map.entry("start", 300), Map.entry("talk", 50), Map.entry("stop", 50));
	}

	@Test
	void aPoolBorrowsWhatOthersLeaveIdle() {
		Map<String, Integer> allocation = BudgetAllocator.allocate(List.of(new Demand("start", 10, 300, 6, 20, true),
				new Demand("talk", 5, 300, 1, 300, true), new Demand("stop", 5, 50, 1, 5, true)), 400);
		assertThat(allocation).containsExactly(Map.entry("start", 20), Map.entry("talk", 300), Map.entry("stop", 5));
	}

	@Test
	void aPoolThatMayNotBorrowIsHeldToItsGuaranteedShare() {
		Map<String, Integer> allocation = BudgetAllocator.allocate(List.of(new Demand("start", 10, 300, 6, 20, true),
				new Demand("talk", 5, 300, 1, 300, false), new Demand("stop", 5, 50, 1, 5, true)), 400);
		assertThat(allocation).containsExactly(Map.entry("start", 20), Map.entry("talk", 50), Map.entry("stop", 5));
	}

	@Test
	void idleThreadsAreTheFirstToGoWhenAnotherPoolNeedsThem() {
		// "start" keeps 200 threads of which its load needs 20; "talk" needs 300.
		Map<String, Integer> allocation = BudgetAllocator
			.allocate(List.of(new Demand("start", 10, 300, 6, 200, 20, true),
					new Demand("talk", 5, 300, 1, 300, 300, true), new Demand("stop", 5, 50, 1, 5, true)), 400);
		assertThat(allocation).containsExactly(Map.entry("start", 95), Map.entry("talk", 300), Map.entry("stop", 5));
	}

	@Test
	void minimumsOverTheBudgetAreRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> BudgetAllocator
				.allocate(List.of(new Demand("a", 30, 40, 1, 40, true), new Demand("b", 20, 40, 1, 40, true)), 40))
			.withMessage("The pools' min-threads add up to 50, more than the budget of 40");
	}

	@ParameterizedTest(name = "seed {0}")
	@MethodSource("seeds")
	void allocationsRespectTheBudgetTheBoundsAndTheWeights(long seed) {
		Draw draw = new Draw(seed);
		List<Demand> demands = demands(draw);
		int spare = draw.between(0, 400);
		Seeds.check(seed,
				"./mvnw -pl core test -Dtest='BudgetAllocatorTests#allocations*' -Dsurefire.failIfNoSpecifiedTests=false",
				() -> allocationRespectsTheBudgetTheBoundsAndTheWeights(demands, spare));
	}

	private static void allocationRespectsTheBudgetTheBoundsAndTheWeights(List<Demand> demands, int spare) {
		int budget = demands.stream().mapToInt(Demand::minThreads).sum() + spare;
		Map<String, Integer> allocation = BudgetAllocator.allocate(demands, budget);
		int totalNeeded = demands.stream().mapToInt((demand) -> needed(demand, budget, demands)).sum();
		int total = allocation.values().stream().mapToInt(Integer::intValue).sum();
		assertThat(allocation.keySet()).as("%s within %d", demands, budget)
			.containsExactlyInAnyOrderElementsOf(demands.stream().map(Demand::pool).toList());
		assertThat(total).isLessThanOrEqualTo(budget);
		int totalWeight = demands.stream().mapToInt(Demand::weight).sum();
		boolean allSatisfied = true;
		boolean minimumsWithinShares = demands.stream()
			.allMatch((demand) -> demand.minThreads() <= (long) budget * demand.weight() / totalWeight);
		for (Demand demand : demands) {
			int threads = allocation.get(demand.pool());
			int wanted = Math.max(demand.minThreads(), Math.min(demand.maxThreads(), demand.threads()));
			int guaranteed = Math.max(demand.minThreads(), (int) ((long) budget * demand.weight() / totalWeight));
			assertThat(threads).isBetween(demand.minThreads(), Math.max(demand.minThreads(), demand.maxThreads()));
			assertThat(threads).isLessThanOrEqualTo(wanted);
			if (!demand.mayBorrow()) {
				assertThat(threads).isLessThanOrEqualTo(Math.max(guaranteed, demand.minThreads()));
			}
			// Nobody's load is kept below its guaranteed share (or what it needs, if
			// less), give or take rounding, unless other pools' min-threads already take
			// more than their shares. Idle threads may go to other pools' needs.
			if (minimumsWithinShares) {
				assertThat(threads)
					.isGreaterThanOrEqualTo(Math.min(needed(demand, budget, demands), guaranteed) - demands.size());
			}
			int cap = demand.mayBorrow() ? wanted : Math.min(wanted, guaranteed);
			allSatisfied &= threads >= Math.max(cap, demand.minThreads());
			// What the pools' loads need comes before anybody's idle threads.
			if (totalNeeded <= budget) {
				assertThat(threads).isGreaterThanOrEqualTo(needed(demand, budget, demands));
			}
		}
		// Work-conserving: threads are left over only when every pool has all it may get.
		if (total < budget) {
			assertThat(allSatisfied).isTrue();
		}
	}

	/**
	 * What a demand's load needs, within what it may get.
	 */
	private static int needed(Demand demand, int budget, List<Demand> demands) {
		int totalWeight = demands.stream().mapToInt(Demand::weight).sum();
		int wanted = Math.max(demand.minThreads(), Math.min(demand.maxThreads(), demand.threads()));
		int guaranteed = Math.max(demand.minThreads(), (int) ((long) budget * demand.weight() / totalWeight));
		int cap = demand.mayBorrow() ? wanted : Math.min(wanted, guaranteed);
		return Math.max(demand.minThreads(), Math.min(cap, demand.needed()));
	}

	static LongStream seeds() {
		return Seeds.first(3000);
	}

	/**
	 * One to six pools with drawn bounds, weights and loads, named p0, p1...
	 */
	private static List<Demand> demands(Draw draw) {
		int count = draw.between(1, 6);
		List<Demand> demands = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			int min = draw.between(0, 20);
			int threads = draw.between(0, 400);
			demands.add(new Demand("p" + i, min, min + draw.between(0, 300), draw.between(1, 8), threads,
					threads * draw.between(0, 100) / 100, draw.oneOf(true, true, false)));
		}
		return demands;
	}

}
