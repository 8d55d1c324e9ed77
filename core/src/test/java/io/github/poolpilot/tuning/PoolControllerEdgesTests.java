package io.github.poolpilot.tuning;

import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.measure.NanoClock;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.AtMaxThreads;
import io.github.poolpilot.tuning.Decision.Cause.Busy;
import io.github.poolpilot.tuning.Decision.Cause.CpuBound;
import io.github.poolpilot.tuning.Decision.Cause.Judging;
import io.github.poolpilot.tuning.Decision.Cause.Queueing;
import io.github.poolpilot.tuning.Decision.Cause.Slowdown;

import static io.github.poolpilot.tuning.PoolControllerTests.window;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * {@link PoolController} at the edges of its thresholds: each rule holds at its threshold
 * and turns just past it, and each decision says whether the pool was held back
 * ({@link Decision#limited()}).
 *
 * @author poolpilot authors
 */
class PoolControllerEdgesTests {

	private static final PoolBounds BOUNDS = new PoolBounds(1, 64);

	private final AtomicLong nanos = new AtomicLong();

	private final NanoClock clock = this.nanos::get;

	private final PoolController controller = new PoolController(this.clock);

	@Test
	void aPoolWhoseBusyThreadsAreNineTenthsOfItsSizeIsSaturated() {
		// 90/s of 100 ms on 10 threads: 9 busy, tasks queueing.
		assertThat(decide(200, 90, 100, 10, 50, 0.2).action()).isEqualTo(Action.GROW);
	}

	@Test
	void aPoolWhoseBusyThreadsAreJustUnderNineTenthsOfItsSizeIsNotSaturated() {
		Decision decision = decide(200, 89, 100, 10, 50, 0.2);
		assertThat(decision.action()).isEqualTo(Action.HOLD);
		assertThat(decision.cause()).isInstanceOf(Busy.class);
		assertThat(decision.limited()).isFalse();
	}

	@Test
	void aSaturatedPoolGrowsWhileTheProcessCpuIsAtNineTenths() {
		assertThat(decide(120, 80, 100, 8, 50, 0.9).action()).isEqualTo(Action.GROW);
	}

	@Test
	void aSaturatedPoolIsHeldAndLimitedOnceTheProcessCpuPassesNineTenths() {
		Decision decision = decide(120, 80, 100, 8, 50, 0.91);
		assertThat(decision.action()).isEqualTo(Action.HOLD);
		assertThat(decision.cause()).isEqualTo(new CpuBound(0.91));
		assertThat(decision.limited()).isTrue();
		assertThat(decision.mayBorrow()).isFalse();
	}

	@Test
	void aSaturatedPoolAtItsMaxThreadsIsLimitedButMayBorrow() {
		Decision decision = this.controller.decide(window(120, 80, 100, 8, 50, null), 8, new PoolBounds(1, 8), 0.2);
		assertThat(decision.action()).isEqualTo(Action.HOLD);
		assertThat(decision.cause()).isEqualTo(new AtMaxThreads(8));
		assertThat(decision.limited()).isTrue();
		assertThat(decision.mayBorrow()).isTrue();
	}

	@Test
	void aSaturatedPoolWithAsManyThreadsAsItsModelNeedsIsHeldUnlimited() {
		// Goetz caps the model at 5 threads, fewer than the 8 the pool has.
		Decision decision = this.controller.decide(window(120, 80, 100, 8, 50, 5), 8, BOUNDS, 0.2);
		assertThat(decision.action()).isEqualTo(Action.HOLD);
		assertThat(decision.cause()).isEqualTo(new Queueing(8.0, 5));
		assertThat(decision.limited()).isFalse();
	}

	@Test
	void aStepThatRaisedThroughputByExactlyFifteenHundredthsOfItsSizeIsKept() {
		growFrom8To12();
		// +7.5 % throughput for +50 % threads: an efficiency of exactly 0.15.
		Decision decision = decide(1_500_000, 1_075_000, 0.008, 12, 50, 0.2);
		assertThat(decision.cause()).isNotInstanceOf(Judging.class);
		assertThat(decision.action()).isNotEqualTo(Action.REVERT);
		assertThat(decision.kept()).isNotNull();
		assertThat(decision.kept().throughputGain()).isEqualTo(0.075, within(1e-12));
	}

	@Test
	void aStepThatRaisedThroughputByLessIsReverted() {
		growFrom8To12();
		Decision decision = decide(1_500_000, 1_070_000, 0.008, 12, 50, 0.2);
		assertThat(decision.action()).isEqualTo(Action.REVERT);
		assertThat(decision.threads()).isEqualTo(8);
		assertThat(decision.limited()).isTrue();
	}

	@Test
	void aStepWhoseEfficiencyIsExactlyNineTenthsDidNotCrossTheKnee() {
		growFrom8To12();
		// +45 % for +50 %: 0.9, not below it, so the next step is not limited by a knee.
		Decision decision = decide(3_000_000, 1_450_000, 0.008, 12, 50, 0.2);
		assertThat(decision.action()).isEqualTo(Action.GROW);
		assertThat(decision.threads()).isEqualTo(18);
	}

	@Test
	void aStepWhoseEfficiencyIsJustUnderNineTenthsCrossedTheKnee() {
		growFrom8To12();
		// +44 %: the next step stops at 1.5 × 8 × 1.44 = 17 threads.
		Decision decision = decide(3_000_000, 1_440_000, 0.008, 12, 50, 0.2);
		assertThat(decision.action()).isEqualTo(Action.GROW);
		assertThat(decision.threads()).isEqualTo(17);
	}

	@Test
	void aServiceTimeOfExactlyOneAndAHalfItsBaseIsNoSlowdown() {
		baseOf20MsOn4Threads();
		Decision decision = decideHeld(400, 200, 30, 6, 40, 0.2);
		assertThat(decision.cause()).isNotInstanceOf(Slowdown.class);
	}

	@Test
	void aServiceTimeJustOverOneAndAHalfItsBaseWithoutMoreThroughputIsASlowdown() {
		baseOf20MsOn4Threads();
		Decision decision = decideHeld(400, 200, 30.1, 6, 40, 0.2);
		assertThat(decision.cause()).isInstanceOf(Slowdown.class);
		assertThat(decision.limited()).isTrue();
	}

	@Test
	void throughputUpByExactlyFivePercentIsNotRising() {
		baseOf20MsOn4Threads();
		// 200/s in the last window, 210/s now: not rising, so a slower service is cut.
		Decision decision = decideHeld(400, 210, 60, 12, 40, 0.2);
		assertThat(decision.action()).isEqualTo(Action.SHRINK);
		assertThat(decision.cause()).isInstanceOf(Slowdown.class);
	}

	@Test
	void throughputUpByMoreThanFivePercentIsRising() {
		baseOf20MsOn4Threads();
		Decision decision = decideHeld(400, 211, 60, 12, 40, 0.2);
		assertThat(decision.cause()).isNotInstanceOf(Slowdown.class);
	}

	@Test
	void aCutThatShortenedTheServiceTimeByExactlyATenthStands() {
		cutAt60Ms();
		Decision decision = decide(400, 200, 54, 9, 40, 0.2);
		assertThat(decision.action()).isNotEqualTo(Action.RESTORE);
	}

	@Test
	void aCutThatShortenedTheServiceTimeByLessInTwoWindowsIsUndone() {
		cutAt60Ms();
		assertThat(decide(400, 200, 54.1, 9, 40, 0.2).action()).isEqualTo(Action.HOLD);
		Decision decision = decide(400, 200, 54.1, 9, 40, 0.2);
		assertThat(decision.action()).isEqualTo(Action.RESTORE);
		assertThat(decision.threads()).isEqualTo(12);
	}

	@Test
	void aWindowWithArrivalsAndNoTaskEndedIsNoSurplus() {
		baseOf20Ms();
		// Tasks arrive and none ends for many windows (they are stuck): the pool must not
		// shrink for a surplus it does not have.
		for (int i = 0; i < 20; i++) {
			Decision decision = this.controller.decide(window(50, 0, 0, 20, 0, null), 20, BOUNDS, 0.2);
			assertThat(decision.action()).as("window %d", i).isNotEqualTo(Action.SHRINK);
		}
	}

	/**
	 * A saturated window of 8 threads serving a million 8 µs tasks a second: a step to
	 * 12.
	 */
	private void growFrom8To12() {
		Decision grow = decide(1_500_000, 1_000_000, 0.008, 8, 50, 0.2);
		assertThat(grow.action()).isEqualTo(Action.GROW);
		assertThat(grow.threads()).isEqualTo(12);
	}

	/**
	 * Two windows of 20 ms tasks at 200/s on 6 threads, not saturated.
	 */
	private void baseOf20Ms() {
		decide(200, 200, 20, 6, 0, 0.2);
		decide(200, 200, 20, 6, 0, 0.2);
	}

	/**
	 * The service three times slower on 12 threads than on 4: cut to 9.
	 */
	private void cutAt60Ms() {
		baseOf20MsOn4Threads();
		Decision cut = decideHeld(400, 200, 60, 12, 40, 0.2);
		assertThat(cut.action()).isEqualTo(Action.SHRINK);
		assertThat(cut.threads()).isEqualTo(9);
	}

	/**
	 * Windows of 20 ms tasks at 200/s on 4 threads, which the pool had throughout them,
	 * not saturated: the service time a larger size is compared with.
	 */
	private void baseOf20MsOn4Threads() {
		for (int i = 0; i < 3; i++) {
			decideHeld(200, 200, 20, 4, 0, 0.2);
		}
	}

	/**
	 * A window at a size the pool had throughout it, as the tuner tells its controller.
	 */
	private Decision decideHeld(double arrivalRate, double throughput, double serviceMs, int size, int queued,
			double cpuLoad) {
		this.controller.applied(size);
		return decide(arrivalRate, throughput, serviceMs, size, queued, cpuLoad);
	}

	private Decision decide(double arrivalRate, double throughput, double serviceMs, int size, int queued,
			double cpuLoad) {
		return this.controller.decide(window(arrivalRate, throughput, serviceMs, size, queued, null), size, BOUNDS,
				cpuLoad);
	}

}
