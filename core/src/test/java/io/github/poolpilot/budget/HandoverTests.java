package io.github.poolpilot.budget;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.budget.ThreadBudget.Held;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Handover}: an allocation turned into the threads each pool may have
 * now, the threads still running in a pool that shrank counted until they end.
 *
 * @author poolpilot authors
 */
class HandoverTests {

	@Test
	void growingPoolsShareOnlyWhatTheThreadsStillRunningLeave() {
		// 5 + 5 + 8 still running of 20: the first grower takes the 2 free, the second
		// none, the pool that shrank keeps its size.
		Map<String, Integer> threads = Handover.threads(
				List.of(new Held("first", 5, 5), new Held("second", 5, 5), new Held("finishing", 4, 8)),
				Map.of("first", 8, "second", 8, "finishing", 4), 20);
		assertThat(threads).containsExactly(Map.entry("first", 7), Map.entry("second", 5), Map.entry("finishing", 4));
	}

	@Test
	void aSecondGrowingPoolTakesWhatTheFirstLeft() {
		// 18 of 22 held: the first grower takes 3 of the 4 free, the second the last one.
		Map<String, Integer> threads = Handover.threads(
				List.of(new Held("first", 5, 5), new Held("second", 5, 5), new Held("finishing", 4, 8)),
				Map.of("first", 8, "second", 8, "finishing", 4), 22);
		assertThat(threads).containsExactly(Map.entry("first", 8), Map.entry("second", 6), Map.entry("finishing", 4));
	}

}
