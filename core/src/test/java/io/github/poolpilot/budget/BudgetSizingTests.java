package io.github.poolpilot.budget;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.budget.BudgetSizing.Planned;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * Tests for {@link BudgetSizing}'s sizes that pools start at.
 *
 * @author poolpilot authors
 */
class BudgetSizingTests {

	private static final List<Planned> POOLS = List.of(new Planned("start", 10, 300, 6, null),
			new Planned("talk", 5, 50, 1, null), new Planned("stop", 5, 50, 1, 20));

	@Test
	void tunedPoolsStartAtTheirMinThreadsOrTheirInitialThreads() {
		assertThat(BudgetSizing.initialSizes(400, POOLS, true)).containsExactly(entry("start", 10), entry("talk", 5),
				entry("stop", 20));
	}

	@Test
	void withTuningOffPoolsStartAtTheirShareWithinTheirBoundsForNothingWouldGrowThem() {
		// Shares of 400 at weights 6/1/1: 300, 50, 50; stop's initial-threads still win.
		assertThat(BudgetSizing.initialSizes(400, POOLS, false)).containsExactly(entry("start", 300), entry("talk", 50),
				entry("stop", 20));
		// A small budget: shares of 16 are 12, 2, 2, each raised to its min-threads.
		assertThat(BudgetSizing.initialSizes(16, POOLS, false)).containsExactly(entry("start", 12), entry("talk", 5),
				entry("stop", 20));
	}

	@Test
	void initialThreadsOutsideTheBoundsAreClampedToThem() {
		List<Planned> pools = List.of(new Planned("low", 4, 8, 1, 1), new Planned("high", 4, 8, 1, 99));
		assertThat(BudgetSizing.initialSizes(null, pools, true)).containsExactly(entry("low", 4), entry("high", 8));
	}

}
