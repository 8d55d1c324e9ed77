package io.github.poolpilot.tuning;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.testsupport.FakeClock;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.Surplus;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link SurplusRule}: how far a pool with more threads than its load needs shrinks.
 *
 * @author poolpilot authors
 */
class SurplusRuleTests {

	private static final PoolBounds BOUNDS = new PoolBounds(1, 64);

	private final SurplusRule rule = new SurplusRule();

	private final ChangeBudget changes = new ChangeBudget(new FakeClock());

	@Test
	void aPoolShrinksToTheModelsNeedWhenNoPulseFoundMoreBusy() {
		Decision shrink = tenQuietWindows(0, Integer.MAX_VALUE);
		assertThat(shrink.action()).isEqualTo(Action.SHRINK);
		assertThat(shrink.threads()).isEqualTo(3);
	}

	@Test
	void aPoolShrinksToNoFewerThreadsThanAPulseFoundBusyAtOnce() {
		Decision shrink = tenQuietWindows(12, Integer.MAX_VALUE);
		assertThat(shrink.action()).isEqualTo(Action.SHRINK);
		assertThat(shrink.threads()).isEqualTo(12);
		assertThat(shrink.cause()).isEqualTo(new Surplus(12, PoolController.SHRINK_WINDOWS));
	}

	@Test
	void aKneeCapsTheThreadsABusyMomentKeeps() {
		Decision shrink = tenQuietWindows(16, 9);
		assertThat(shrink.threads()).isEqualTo(9);
	}

	@Test
	void aBusyMomentCountsForItsOwnWindowOnly() {
		this.rule.pulsed(12);
		this.rule.needed(3, Integer.MAX_VALUE);
		for (int i = 0; i < PoolController.SHRINK_WINDOWS; i++) {
			this.rule.needed(3, Integer.MAX_VALUE);
		}
		Decision shrink = null;
		for (int i = 0; i < PoolController.SHRINK_WINDOWS; i++) {
			shrink = this.rule.shrinkOrHold(quietWindow(), null, this.changes);
		}
		assertThat(shrink.threads()).isEqualTo(3);
	}

	/**
	 * Ten windows of 10 tasks a second of 100 ms on 20 threads (the model needs 3), a
	 * pulse in the fifth finding {@code busiest} threads busy at once.
	 */
	private Decision tenQuietWindows(int busiest, int cap) {
		Decision decision = null;
		for (int i = 1; i <= PoolController.SHRINK_WINDOWS; i++) {
			if (i == 5) {
				this.rule.pulsed(busiest);
			}
			ClosedWindow window = quietWindow();
			this.rule.needed(window.need, cap);
			decision = this.rule.shrinkOrHold(window, null, this.changes);
			if (i < PoolController.SHRINK_WINDOWS) {
				assertThat(decision.changed()).isFalse();
			}
		}
		return decision;
	}

	private static ClosedWindow quietWindow() {
		return new ClosedWindow(PoolControllerTests.window(10, 10, 100, 20, 0, null), 20, BOUNDS, 0.2, 100, 10);
	}

}
