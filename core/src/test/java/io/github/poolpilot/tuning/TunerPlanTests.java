package io.github.poolpilot.tuning;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.budget.ThreadBudget;
import io.github.poolpilot.measure.NanoClock;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.PoolState;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Tuner#plan}: what one tick gives several pools at once stays within the budget.
 *
 * @author poolpilot authors
 */
class TunerPlanTests {

	private final Tuner tuner = new Tuner(new io.github.poolpilot.pool.PoolRegistry(20), NanoClock.SYSTEM, () -> 0.1,
			(pool, decision) -> {
			});

	@Test
	void twoPoolsGrowingInOneTickDoNotBothTakeTheSameFreeThreads() {
		PoolBounds bounds = new PoolBounds(1, 40);
		// Two saturated pools of 5 that want 8 each, and a pool that shrank to 4 whose 8
		// threads still run their tasks: 5 + 5 + 8 = 18 of 20 held, 2 free.
		PoolState first = new PoolState("first", bounds, 1, TuningMode.AUTO, 5, 5,
				PoolControllerTests.window(120, 50, 100, 5, 50, null));
		PoolState second = new PoolState("second", bounds, 1, TuningMode.AUTO, 5, 5,
				PoolControllerTests.window(120, 50, 100, 5, 50, null));
		PoolState finishing = new PoolState("finishing", bounds, 1, TuningMode.MANUAL, 4, 8, null);
		Map<String, Decision> plan = this.tuner.plan(List.of(first, second, finishing), new ThreadBudget(20, List::of),
				0.1);
		int firstThreads = plan.get("first").threads();
		int secondThreads = plan.get("second").threads();
		assertThat(firstThreads + secondThreads + 8).as("threads the pools may have next window")
			.isLessThanOrEqualTo(20);
		assertThat(firstThreads + secondThreads).isEqualTo(12);
		assertThat(plan.get("first").action()).isEqualTo(Action.GROW);
		assertThat(plan.get("first").limited()).isTrue();
		assertThat(plan.get("second").limited()).isTrue();
	}

}
