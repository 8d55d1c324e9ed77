package io.github.poolpilot.tuning;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.measure.PoolSnapshot.TaskCounts;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.testsupport.FakeClock;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.ChangesSpent;
import io.github.poolpilot.tuning.Decision.Cause.Queueing;
import io.github.poolpilot.tuning.Decision.Cause.Buffering;
import io.github.poolpilot.tuning.Decision.Cause.Buffering.Overflow;
import io.github.poolpilot.tuning.Decision.Cause.Refusing;
import io.github.poolpilot.tuning.Decision.Cause.Slowdown;
import io.github.poolpilot.tuning.Decision.Cause.Surplus;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the {@link PoolController}'s budget of changes ({@link ChangeBudget}) and for
 * refusals, which are demand: a pool that spent its budget holds what can wait, but grows
 * for refusals; a window that refused work is no surplus.
 *
 * @author poolpilot authors
 */
class PoolControllerChangeBudgetTests {

	private static final PoolBounds BOUNDS = new PoolBounds(1, 64);

	private final FakeClock clock = new FakeClock();

	private final PoolController controller = new PoolController(this.clock);

	@Test
	void aPoolThatSpentItsBudgetCutsForASlowdownOnlyOnceTheOldestChangeIsAMinuteOld() {
		// 20 ms tasks on 8 threads, then eight changes a second apart, from 0 s.
		for (int i = 0; i < 3; i++) {
			this.controller.applied(8);
			decide(200, 200, 20, 8, 0);
		}
		for (int i = ChangeBudget.CHANGES - 1; i >= 0; i--) {
			this.controller.applied((i % 2 == 0) ? 12 : 13);
			this.clock.advance(Duration.ofSeconds(1));
		}
		// Three times the service time it had on 8 threads without more throughput, in
		// the first window at 12 throughout: a cut, which waits until the first of the
		// eight changes is a minute old.
		decide(400, 200, 60, 12, 40);
		this.controller.applied(12);
		Decision held = decide(400, 200, 60, 12, 40);
		assertThat(held.action()).isEqualTo(Action.HOLD);
		assertThat(held.cause()).isEqualTo(new ChangesSpent(8, Duration.ofSeconds(52)));
		this.clock.advance(Duration.ofSeconds(52));
		this.controller.applied(12);
		Decision cut = decide(400, 200, 60, 12, 40);
		assertThat(cut.action()).isEqualTo(Action.SHRINK);
		assertThat(cut.cause()).isEqualTo(new Slowdown(3.0, 20.0));
	}

	@Test
	void aPoolThatSpentItsBudgetGrowsForRefusalsOnly() {
		spendTheBudget(12);
		// 400/s of 50 ms offered to 12 threads serving 240/s: R = 20, the model's 29.
		Decision held = this.controller.decide(PoolControllerTests.withRefusals(window(400, 240, 50, 12, 50), 0), 12,
				BOUNDS, 0.2);
		assertThat(held.action()).isEqualTo(Action.HOLD);
		assertThat(held.cause()).isInstanceOf(ChangesSpent.class);
		// The next window turned 80 tasks away: growth meets them at once.
		Decision grow = this.controller.decide(PoolControllerTests.withRefusals(window(400, 240, 50, 12, 50), 80), 12,
				BOUNDS, 0.2);
		assertThat(grow.action()).isEqualTo(Action.GROW);
		assertThat(grow.threads()).isEqualTo(18);
		assertThat(grow.cause()).isEqualTo(new Queueing(12.0, 29));
	}

	@Test
	void aWindowThatRefusedWorkIsNoSurplus() {
		// 10/s of 100 ms: R = 1, needing 3 threads of 20; one window turns 5 tasks away.
		long refused = 0;
		for (int i = 1; i <= 10; i++) {
			refused += (i == 5) ? 5 : 0;
			Decision hold = this.controller
				.decide(PoolControllerTests.withRefusals(window(10, 10, 100, 20, 0), refused), 20, BOUNDS, 0.2);
			assertThat(hold.changed()).isFalse();
		}
		// Ten windows of surplus since the one that refused.
		for (int i = 1; i <= 4; i++) {
			assertThat(this.controller
				.decide(PoolControllerTests.withRefusals(window(10, 10, 100, 20, 0), refused), 20, BOUNDS, 0.2)
				.changed()).isFalse();
		}
		Decision shrink = this.controller.decide(PoolControllerTests.withRefusals(window(10, 10, 100, 20, 0), refused),
				20, BOUNDS, 0.2);
		assertThat(shrink.action()).isEqualTo(Action.SHRINK);
		assertThat(shrink.cause()).isEqualTo(new Surplus(3, 10));
	}

	@Test
	void aPoolThatSpentItsBudgetOffersItsSurplusAndShrinksOnceTheOldestChangeIsAMinuteOld() {
		spendTheBudget(20);
		// 10/s of 100 ms: R = 1, needing 3 threads of 20 for ten windows.
		for (int i = 1; i < PoolController.SHRINK_WINDOWS; i++) {
			assertThat(decide(10, 10, 100, 20, 0).changed()).isFalse();
		}
		// The shrink waits, but the pool still needs only 3 of its threads: the budget
		// may take the others for another pool meanwhile.
		Decision held = decide(10, 10, 100, 20, 0);
		assertThat(held.action()).isEqualTo(Action.HOLD);
		assertThat(held.cause()).isEqualTo(new ChangesSpent(8, Duration.ofSeconds(52)));
		assertThat(held.needed()).isEqualTo(3);
		// The surplus lasted: the pool shrinks as soon as the budget allows.
		this.clock.advance(Duration.ofSeconds(52));
		Decision shrink = decide(10, 10, 100, 20, 0);
		assertThat(shrink.action()).isEqualTo(Action.SHRINK);
		assertThat(shrink.threads()).isEqualTo(3);
		assertThat(shrink.cause()).isEqualTo(new Surplus(3, PoolController.SHRINK_WINDOWS));
	}

	@Test
	void aPoolThatRefusedAMaterialShareGrowsByItThoughTheModelNeedsNoMore() {
		// 100/s of 150 ms offered to 20 threads: R = 15, busy 12 of 20; then a burst's
		// 20 refusals, a fifth of the offered tasks: 20 / 0.8 = 25 threads.
		decideRefusing(0, 0.2, BOUNDS);
		Decision grow = decideRefusing(20, 0.2, BOUNDS);
		assertThat(grow.action()).isEqualTo(Action.GROW);
		assertThat(grow.threads()).isEqualTo(25);
		// It names the size the refusals ask for, not the model's 15.
		assertThat(grow.cause()).isEqualTo(new Refusing(20, 100, 25));
	}

	@Test
	void aPoolWithItsCpuSaturatedGrowsForRefusalsWhileTheThreadsItMayAddHoldAQuarterMoreTasks() {
		// 20 threads and a queue of 100 hold 120 tasks; 44 threads more of 64 would hold
		// 44 more, as the pool fixed at 64 does, which refuses fewer.
		decideRefusing(0, 0.95, BOUNDS);
		Decision grow = decideRefusing(20, 0.95, BOUNDS);
		assertThat(grow.action()).isEqualTo(Action.GROW);
		assertThat(grow.threads()).isEqualTo(25);
		assertThat(grow.cause()).isEqualTo(new Buffering(20, 100, Overflow.CORES));
		// Up to 50 threads: 30 more would hold a quarter as many again, not more.
		assertThat(refusingTwice(new PoolBounds(1, 50)).changed()).isFalse();
		assertThat(refusingTwice(new PoolBounds(1, 51)).threads()).isEqualTo(25);
	}

	@Test
	void aPoolOnSaturatedCoresThatSpentItsBudgetBuffersOnlyForMoreThanAQuarterOfItsTasksRefused() {
		spendTheBudget(20);
		decideRefusing(0, 0.95, BOUNDS);
		// A fifth of the offered tasks refused: the buffer waits for the budget.
		Decision held = decideRefusing(20, 0.95, BOUNDS);
		assertThat(held.changed()).isFalse();
		// Three tenths: the pool grows by them though its budget is spent, to 20 / 0.7.
		Decision grow = decideRefusing(50, 0.95, BOUNDS);
		assertThat(grow.action()).isEqualTo(Action.GROW);
		assertThat(grow.threads()).isEqualTo(29);
		assertThat(grow.cause()).isEqualTo(new Buffering(30, 100, Overflow.CORES));
	}

	private Decision refusingTwice(PoolBounds bounds) {
		PoolController controller = new PoolController(this.clock);
		controller.decide(PoolControllerTests.withRefusals(window(100, 80, 150, 20, 0), 0), 20, bounds, 0.95);
		return controller.decide(PoolControllerTests.withRefusals(window(100, 80, 150, 20, 0), 20), 20, bounds, 0.95);
	}

	@Test
	void aPoolOnSaturatedCoresHoldsWhatItRefusedInThreadsThoughTheyOnlyWaitForTheCores() {
		PoolBounds wide = new PoolBounds(1, 400);
		this.controller.decide(PoolControllerTests.withRefusals(window(100, 80, 150, 20, 0), 0), 20, wide, 0.95);
		// The service time doubled with the cores shared by more tasks: the threads wait
		// for the cores, but a fifth of the offered tasks was refused.
		Decision grow = this.controller.decide(PoolControllerTests.withRefusals(window(100, 80, 300, 20, 0), 20), 20,
				wide, 0.95);
		assertThat(grow.action()).isEqualTo(Action.GROW);
		assertThat(grow.threads()).isEqualTo(25);
		assertThat(grow.cause()).isEqualTo(new Buffering(20, 100, Overflow.CORES));
		this.controller.applied(25);
		// No more throughput and a longer service time on 25 threads: the step is kept.
		Decision after = this.controller.decide(PoolControllerTests.withRefusals(window(100, 80, 375, 25, 0), 20), 25,
				wide, 0.95);
		assertThat(after.action()).isNotEqualTo(Action.REVERT);
		assertThat(after.kept()).isNotNull();
	}

	private Decision decideRefusing(long refusedSoFar, double cpuLoad, PoolBounds bounds) {
		return this.controller.decide(PoolControllerTests.withRefusals(window(100, 80, 150, 20, 0), refusedSoFar), 20,
				bounds, cpuLoad);
	}

	/**
	 * Change the pool's size eight times, a second apart from 1 s to 8 s, ending at
	 * {@code size}; the clock reads 9 s after.
	 */
	private void spendTheBudget(int size) {
		for (int i = ChangeBudget.CHANGES; i >= 0; i--) {
			this.controller.applied((i % 2 == 0) ? size : size + 1);
			this.clock.advance(Duration.ofSeconds(1));
		}
	}

	private Decision decide(double arrivalRate, double throughput, double serviceMs, int size, int queued) {
		return this.controller.decide(window(arrivalRate, throughput, serviceMs, size, queued), size, BOUNDS, 0.2);
	}

	private static PoolSnapshot window(double arrivalRate, double throughput, double serviceMs, int size, int queued) {
		return PoolControllerTests.window(arrivalRate, throughput, serviceMs, size, queued, null);
	}

	/**
	 * The same window, the pool having turned so many tasks away since it started.
	 */

}
