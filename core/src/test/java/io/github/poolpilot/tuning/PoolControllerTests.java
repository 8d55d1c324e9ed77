package io.github.poolpilot.tuning;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.measure.NanoClock;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.measure.PoolSnapshot.Latency;
import io.github.poolpilot.measure.PoolSnapshot.LittlesLaw;
import io.github.poolpilot.measure.PoolSnapshot.Sizes;
import io.github.poolpilot.measure.PoolSnapshot.TaskCounts;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.Busy;
import io.github.poolpilot.tuning.Decision.Cause.CpuBound;
import io.github.poolpilot.tuning.Decision.Cause.CutBelowKnee;
import io.github.poolpilot.tuning.Decision.Cause.CutDidNotHelp;
import io.github.poolpilot.tuning.Decision.Cause.CutDraining;
import io.github.poolpilot.tuning.Decision.Cause.GrowthBlocked;
import io.github.poolpilot.tuning.Decision.Cause.Judging;
import io.github.poolpilot.tuning.Decision.Cause.NoGain;
import io.github.poolpilot.tuning.Decision.Cause.AtMaxThreads;
import io.github.poolpilot.tuning.Decision.Cause.ProbeFell;
import io.github.poolpilot.tuning.Decision.Cause.ProbingDown;
import io.github.poolpilot.tuning.Decision.Cause.Queueing;
import io.github.poolpilot.tuning.Decision.Cause.Refusing;
import io.github.poolpilot.tuning.Decision.Cause.Slowdown;
import io.github.poolpilot.tuning.Decision.Cause.Surge;
import io.github.poolpilot.tuning.Decision.Cause.Surplus;
import io.github.poolpilot.tuning.Decision.Cause.WaitMoved;
import io.github.poolpilot.tuning.Decision.Cause.Waiting;
import io.github.poolpilot.tuning.Decision.KeptStep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Tests for {@link PoolController}, fed windows whose figures are chosen by hand.
 *
 * @author poolpilot authors
 */
class PoolControllerTests {

	private static final PoolBounds BOUNDS = new PoolBounds(1, 64);

	private final AtomicLong nanos = new AtomicLong();

	private final NanoClock clock = this.nanos::get;

	private final PoolController controller = new PoolController(this.clock);

	@Test
	void theModelIsSquareRootStaffingOfTheOfferedLoad() {
		// 120/s of 100 ms keep R = 12 threads busy: ⌈12 + 2·√12⌉ = 19.
		assertThat(SizingModel.staffed(12)).isEqualTo(19);
		assertThat(SizingModel.staffed(100)).isEqualTo(120);
		assertThat(SizingModel.staffed(0.5)).isEqualTo(2);
		assertThat(SizingModel.staffed(0)).isZero();
	}

	@Test
	void aSaturatedPoolGrowsTowardsTheModelByHalfItsSizeAtMost() {
		// 120/s offered, 80/s served by 8 threads of 100 ms, tasks queueing.
		Decision grow = decide(120, 80, 100, 8, 50);
		assertThat(grow.threads()).isEqualTo(12);
		assertThat(grow.action()).isEqualTo(Action.GROW);
		assertThat(grow.from()).isEqualTo(8);
		assertThat(grow.cause()).isEqualTo(new Queueing(8.0, 19));
		// The step paid in proportion: the next may be as large.
		Decision again = decide(120, 120, 100, 12, 30);
		assertThat(again.threads()).isEqualTo(18);
		assertThat(again.cause()).isEqualTo(new Queueing(12.0, 19));
		assertThat(again.kept()).isEqualTo(new KeptStep(8, 12, 0.5, false));
		// The queue drained: kept, and no further growth.
		Decision keep = decide(120, 125, 100, 18, 0);
		assertThat(keep.changed()).isFalse();
		assertThat(keep.action()).isEqualTo(Action.HOLD);
		assertThat(keep.cause()).isEqualTo(new Busy(12.5, 19));
		assertThat(keep.kept().from()).isEqualTo(12);
		assertThat(keep.kept().to()).isEqualTo(18);
		assertThat(keep.kept().queueDrained()).isTrue();
	}

	@Test
	void aPoolTurningMostOfItsWorkAwayFarBelowTheModelLeapsToTheModelsSize() {
		// 200/s offered to 2 threads of 100 ms that ran before this first window: its
		// refusals are not known yet, so its step is one of ×1.5.
		assertThat(decideRefusing(200, 20, 100, 2, 0).threads()).isEqualTo(3);
		// 3 threads serve 30/s and turn 170 away at their base service time: the model
		// needs ⌈20 + 2·√20⌉ = 29, which steps of ×1.5 would reach in six windows.
		Decision leap = decideRefusing(200, 30, 100, 3, 170);
		assertThat(leap.action()).isEqualTo(Action.GROW);
		assertThat(leap.threads()).isEqualTo(31);
		assertThat(leap.cause()).isEqualTo(new Queueing(3.0, 29));
		// Served at the base service time: kept.
		Decision kept = decideRefusing(200, 200, 100, 31, 170);
		assertThat(kept.changed()).isFalse();
		assertThat(kept.kept().to()).isEqualTo(31);
	}

	@Test
	void aPoolLeavingMostOfItsWorkWaitingFarBelowTheModelLeapsToTheModelsSize() {
		decide(200, 20, 100, 2, 20);
		// None refused, but 90 of the 200 offered left waiting in the queue: steps of
		// ×1.5 would pile a backlog up that the pool at its max-threads never has.
		Decision leap = decide(200, 30, 100, 3, 90);
		assertThat(leap.action()).isEqualTo(Action.GROW);
		assertThat(leap.threads()).isEqualTo(31);
	}

	@Test
	void aPoolLeavingAFewOfItsTasksWaitingStepsByHalf() {
		decide(200, 20, 100, 2, 20);
		// 40 of 200 waiting, a fifth: a step of ×1.5.
		assertThat(decide(200, 30, 100, 3, 40).threads()).isEqualTo(5);
	}

	@Test
	void aPoolsFirstWindowCountsItsRefusalsWhenThePoolBeganInIt() {
		// Every task the pool was ever offered came in this window: the 170 it refused
		// are the window's, and 3 threads serving 30/s of 200 leap at once.
		Decision leap = this.controller.decide(withCounts(window(200, 30, 100, 3, 50, null), 200, 170), 3, BOUNDS, 0.2);
		assertThat(leap.action()).isEqualTo(Action.GROW);
		assertThat(leap.threads()).isEqualTo(31);
	}

	@Test
	void aFirstWindowOfAPoolThatRanBeforeCountsNoRefusals() {
		// 500 refused of 5000 offered since the pool started: which of them fell in this
		// window is not known, so it grows by the model's step of ×1.5 alone.
		Decision step = this.controller.decide(withCounts(window(200, 30, 100, 3, 50, null), 5000, 500), 3, BOUNDS,
				0.2);
		assertThat(step.action()).isEqualTo(Action.GROW);
		assertThat(step.threads()).isEqualTo(5);
	}

	@Test
	void aPoolRefusingMostOfItsWorkWhileItsThreadsLookIdleLeapsToo() {
		// X·S counts the tasks that ended in the window only: long tasks that began in it
		// are not in it, so 2 threads look less than 1 busy while they turn most tasks
		// away (the refusals of the first window of a pool that ran before it are not
		// known).
		assertThat(decideRefusing(200, 6, 100, 2, 0).changed()).isFalse();
		Decision leap = decideRefusing(200, 8, 100, 2, 190);
		assertThat(leap.action()).isEqualTo(Action.GROW);
		assertThat(leap.threads()).isEqualTo(31);
		assertThat(leap.cause()).isEqualTo(new Refusing(190, 200, 31));
	}

	@Test
	void aLeapPastADownstreamsLimitIsTakenBackToTheThreadsItsThroughputKeepsBusy() {
		decideRefusing(200, 20, 100, 2, 0);
		assertThat(decideRefusing(200, 30, 100, 3, 170).threads()).isEqualTo(31);
		// A downstream admits 5 calls at a time: 50/s, each task waiting 600 ms. Judged
		// as a surge: the first window looks again, the second takes the pool to a tenth
		// beyond X·S₀ = 50/s × 100 ms.
		Decision look = decideRefusing(200, 50, 600, 31, 320);
		assertThat(look.action()).isEqualTo(Action.HOLD);
		assertThat(look.cause()).isEqualTo(new Slowdown(6.0, 100.0));
		Decision back = decideRefusing(200, 50, 600, 31, 470);
		assertThat(back.action()).isEqualTo(Action.SHRINK);
		assertThat(back.threads()).isEqualTo(6);
	}

	@Test
	void noLeapAfterAStepThatDidNotPay() {
		decideRefusing(200, 20, 100, 2, 0);
		// 2 → 3 served no more: judged over three windows, then undone.
		for (int i = 1; i < PoolController.JUDGING_WINDOWS; i++) {
			assertThat(decide(200, 20, 100, 3, 50).cause()).isInstanceOf(Judging.class);
		}
		assertThat(decide(200, 20, 100, 3, 50).cause()).isInstanceOf(NoGain.class);
		this.nanos.addAndGet(Duration.ofSeconds(31).toNanos());
		// Refusing most of the offered tasks far below the model's size: a small probe,
		// not a leap.
		Decision probe = decideRefusing(200, 20, 100, 2, 180);
		assertThat(probe.action()).isEqualTo(Action.GROW);
		assertThat(probe.threads()).isEqualTo(3);
	}

	@Test
	void theModelIsCappedByGoetz() {
		Decision grow = this.controller.decide(window(120, 80, 100, 8, 50, 10), 8, BOUNDS, 0.2);
		assertThat(grow.threads()).isEqualTo(11);
		assertThat(grow.cause()).isEqualTo(new Queueing(8.0, 10));
	}

	@Test
	void aStepThatPaidLessThanInProportionLimitsTheNextToHalfBeyondTheKnee() {
		decide(600, 300, 20, 6, 500);
		// +33 % throughput for +50 % threads: the knee is near 6 + 0.67·3 = 8.
		Decision next = decide(600, 400, 22.5, 9, 500);
		assertThat(next.threads()).isEqualTo(12);
		assertThat(next.kept().from()).isEqualTo(6);
		assertThat(next.kept().to()).isEqualTo(9);
		assertThat(next.kept().throughputGain()).isCloseTo(0.33, within(0.01));
	}

	@Test
	void aStepThatDoesNotRaiseThroughputIsRevertedThenGrowthIsBlockedWithBackoff() {
		decide(600, 400, 20, 8, 500);
		// 400 tasks a window: ±7 % of noise on the ratio of two windows, so a flat
		// reading is judged over up to three windows before the step is undone.
		Decision judging = decide(600, 400, 21, 12, 500);
		assertThat(judging.action()).isEqualTo(Action.HOLD);
		assertThat(judging.cause()).isEqualTo(new Judging(8, 12, 0.0));
		decide(600, 400, 21, 12, 500);
		Decision revert = decide(600, 400, 21, 12, 500);
		assertThat(revert.threads()).isEqualTo(8);
		assertThat(revert.action()).isEqualTo(Action.REVERT);
		assertThat(revert.from()).isEqualTo(12);
		assertThat(revert.cause()).isEqualTo(new NoGain(0.0, 0.5, Duration.ofSeconds(30)));
		assertThat(revert.mayBorrow()).isFalse();
		assertThat(decide(600, 400, 20, 8, 500).cause()).isEqualTo(new GrowthBlocked(Duration.ofSeconds(30)));
		this.nanos.addAndGet(Duration.ofSeconds(31).toNanos());
		// After the block, a small probe; the next block is twice as long.
		Decision probe = decide(600, 400, 20, 8, 500);
		assertThat(probe.threads()).isEqualTo(9);
		decide(600, 400, 20.5, 9, 500);
		decide(600, 400, 20.5, 9, 500);
		assertThat(decide(600, 400, 20.5, 9, 500).cause()).isInstanceOfSatisfying(NoGain.class,
				(noGain) -> assertThat(noGain.blocked()).isEqualTo(Duration.ofSeconds(60)));
	}

	@Test
	void aStepWhoseServiceTimeRoseWithItsThreadsIsRevertedAtOnce() {
		decide(600, 400, 20, 8, 500);
		// +50 % threads, +50 % service time, the same throughput: by Little's law the new
		// threads only waited, whatever the noise of the throughput says.
		Decision revert = decide(600, 400, 30, 12, 500);
		assertThat(revert.action()).isEqualTo(Action.REVERT);
		assertThat(revert.threads()).isEqualTo(8);
		assertThat(revert.cause()).isEqualTo(new NoGain(0.0, 0.5, Duration.ofSeconds(30)));
	}

	@Test
	void aStepIsNotTakenForThreadsThatOnlyWaitedOnTheServiceTimeOfTooFewEnds() {
		decideRefusing(200, 50, 100, 8, 0);
		// 8 threads refuse 40 of 200 tasks while the tasks that ended kept 5 busy: the
		// model needs 29, so the pool grows by half.
		assertThat(decideRefusing(200, 50, 100, 8, 40).threads()).isEqualTo(12);
		// +50 % threads, +50 % service time, the same throughput. But the pool turned
		// work away for want of a thread while the tasks that ended kept 7.5 of its 12
		// busy: longer tasks still running are not in the mean, which rises as they end.
		// Not a step whose threads only waited.
		Decision next = decideRefusing(200, 50, 150, 12, 80);
		assertThat(next.action()).isNotEqualTo(Action.REVERT);
		assertThat(next.kept().to()).isEqualTo(12);
	}

	@Test
	void aShortfallBeyondTheNoiseIsRevertedAtOnce() {
		// 10 000 tasks a window: the ratio of two windows is known within 1.4 %.
		decide(20000, 10000, 1, 10, 500);
		Decision revert = decide(20000, 10000, 1.5, 15, 500);
		assertThat(revert.threads()).isEqualTo(10);
		assertThat(revert.action()).isEqualTo(Action.REVERT);
		assertThat(revert.from()).isEqualTo(15);
		assertThat(revert.cause()).isInstanceOfSatisfying(NoGain.class, (noGain) -> {
			assertThat(noGain.throughputGain()).isZero();
			assertThat(noGain.threadsAdded()).isEqualTo(0.5);
		});
	}

	@Test
	void noGrowthWhileTheCpuIsBusy() {
		Decision decision = this.controller.decide(window(120, 80, 100, 8, 50, null), 8, BOUNDS, 0.95);
		assertThat(decision.changed()).isFalse();
		assertThat(decision.cause()).isEqualTo(new CpuBound(0.95));
		assertThat(decision.mayBorrow()).isFalse();
	}

	@Test
	void aSlowerServiceWithoutMoreThroughputGivesThreadsBack() {
		Decision decision = cutForAServiceThreeTimesSlower();
		assertThat(decision.threads()).isEqualTo(9);
		assertThat(decision.action()).isEqualTo(Action.SHRINK);
		assertThat(decision.cause()).isEqualTo(new Slowdown(3.0, 20.0));
		assertThat(decision.mayBorrow()).isFalse();
	}

	@Test
	void aCutThatShortensTheServiceTimeIsKeptAndTheNextMayFollow() {
		assertThat(cutForAServiceThreeTimesSlower().threads()).isEqualTo(9);
		// Fewer threads queue less at the downstream: 45 ms, a quarter shorter. The next
		// cut goes towards a tenth beyond X·S = 200/s · 20 ms = 4 threads, a quarter at
		// most, but not below the 8 threads that were measured at 20 ms.
		Decision next = decideHeld(400, 200, 45, 9, 40);
		assertThat(next.threads()).isEqualTo(8);
		assertThat(next.action()).isEqualTo(Action.SHRINK);
		assertThat(next.cause()).isEqualTo(new Slowdown(2.25, 20.0));
	}

	@Test
	void aCutThatDoesNotShortenTheServiceTimeIsUndoneAndTheRuleRestsUntilTheSlowdownEnds() {
		assertThat(cutForAServiceThreeTimesSlower().threads()).isEqualTo(9);
		// Still 60 ms with 9 threads: the service is slower for everyone, not congested
		// by this pool, and fewer threads only serve less: undone on the second window.
		assertThat(decideHeld(400, 150, 60, 9, 100).cause()).isInstanceOf(CutDraining.class);
		Decision restore = decideHeld(400, 150, 60, 9, 100);
		assertThat(restore.threads()).isEqualTo(12);
		assertThat(restore.action()).isEqualTo(Action.RESTORE);
		assertThat(restore.cause()).isEqualTo(new CutDidNotHelp(60.0, 60.0));
		// The same slowdown does not cut again: the pool is judged as any saturated pool.
		Decision after = decideHeld(400, 200, 60, 12, 100);
		assertThat(after.threads()).isGreaterThanOrEqualTo(12);
		assertThat(after.action()).isNotEqualTo(Action.SHRINK);
		// Once the service time is back near what it was on 8 threads, a new slowdown is
		// cut again.
		decideHeld(400, 400, 20, after.threads(), 0);
		Decision again = decideHeld(400, 200, 60, 13, 40);
		assertThat(again.action()).isEqualTo(Action.SHRINK);
		assertThat(again.to()).isEqualTo(10);
		assertThat(again.cause()).isEqualTo(new Slowdown(3.0, 20.0));
	}

	@Test
	void aCutThatDidNotShortenTheServiceTimeMakesItTheBase() {
		assertThat(cutForAServiceThreeTimesSlower().threads()).isEqualTo(9);
		assertThat(decideHeld(400, 150, 60, 9, 100).action()).isEqualTo(Action.HOLD);
		assertThat(decideHeld(400, 150, 60, 9, 100).action()).isEqualTo(Action.RESTORE);
		// 60 ms is the work's own time, not threads waiting for one another: 400/s of it
		// need ⌈24 + 2·√24⌉ = 34 threads, not the 14 of 20 ms.
		Decision after = decideHeld(400, 200, 60, 12, 100);
		assertThat(after.cause()).isEqualTo(new Queueing(12.0, 34));
		assertThat(after.threads()).isEqualTo(18);
	}

	@Test
	void aCutUndoneWhileItsTasksStillEndedIsNoBase() {
		assertThat(cutForAServiceThreeTimesSlower().threads()).isEqualTo(9);
		// 12 threads busy for the 9 the pool has: tasks that began before the cut, and
		// waited behind the threads it took, ended in these windows.
		assertThat(decideHeld(400, 200, 60, 9, 100).cause()).isInstanceOf(CutDraining.class);
		assertThat(decideHeld(400, 200, 60, 9, 100).action()).isEqualTo(Action.RESTORE);
		// The base stays 20 ms: 400/s of it need ⌈8 + 2·√8⌉ = 14 threads.
		assertThat(decideHeld(400, 200, 60, 12, 100).cause()).isEqualTo(new Queueing(12.0, 14));
	}

	@Test
	void aSaturatedPoolThatCannotGrowProbesDownWhileItsThroughputHolds() {
		// 50 threads (its max-threads) in front of a downstream that admits 8 calls of
		// 50 ms: 160/s whatever the threads, each call 50/160 s = 312.5 ms long.
		PoolBounds upTo50 = new PoolBounds(1, 50);
		assertThat(decide(upTo50, 240, 160, 312.5, 50, 600).cause()).isEqualTo(new AtMaxThreads(50));
		Decision probe = decide(upTo50, 240, 160, 312.5, 50, 600);
		assertThat(probe.action()).isEqualTo(Action.SHRINK);
		assertThat(probe.threads()).isEqualTo(37);
		assertThat(probe.cause()).isEqualTo(new ProbingDown(160, 312.5));
		// The throughput held: fewer is better, and the next probe follows at once.
		Decision next = decide(upTo50, 240, 160, 37 * 1000 / 160.0, 37, 600);
		assertThat(next.threads()).isEqualTo(27);
		assertThat(next.kept()).isEqualTo(new KeptStep(50, 37, 0.0, false));
		// Two probes of the chain held: the next halves the pool, then, below 16
		// threads, a quarter again.
		Decision half = decide(upTo50, 240, 160, 27 * 1000 / 160.0, 27, 600);
		assertThat(half.cause()).isInstanceOf(ProbingDown.class);
		assertThat(half.threads()).isEqualTo(13);
		assertThat(decide(upTo50, 240, 160, 13 * 1000 / 160.0, 13, 600).threads()).isEqualTo(9);
		Decision below = decide(upTo50, 240, 160, 9 * 1000 / 160.0, 9, 600);
		assertThat(below.threads()).isEqualTo(6);
		// Below the knee: 6 threads of 50 ms serve 120/s, a quarter less. The knee is
		// X·S₀ = 160/s · 50 ms = 8 threads, measured now that S₀ was: back to a tenth
		// beyond it, at most where the probe started.
		Decision back = decide(upTo50, 240, 120, 50, 6, 600);
		assertThat(back.action()).isEqualTo(Action.REVERT);
		assertThat(back.threads()).isEqualTo(9);
		assertThat(back.cause()).isEqualTo(new ProbeFell(-0.25, 8.0, Duration.ofSeconds(30)));
		// At the knee: no probe again, and no growth either, for a while.
		for (int i = 0; i < 5; i++) {
			Decision hold = decide(upTo50, 240, 160, 9 * 1000 / 160.0, 9, 600);
			assertThat(hold.changed()).isFalse();
			assertThat(hold.cause()).isInstanceOf(GrowthBlocked.class);
		}
	}

	@Test
	void aPoolThatRefusedWorkInAWindowDoesNotProbeDownInTheNext() {
		// The same pool at its max-threads, now turning 80 tasks away in each window:
		// fewer threads would refuse more, and nothing says its threads only wait.
		PoolBounds upTo50 = new PoolBounds(1, 50);
		for (int window = 1; window <= 5; window++) {
			Decision hold = this.controller.decide(refusing(50, 80L * window), 50, upTo50, 0.2);
			assertThat(hold.changed()).isFalse();
			assertThat(hold.cause()).isEqualTo(new AtMaxThreads(50));
		}
		// Windows without refusals: the probe comes once none of the windows it is
		// compared with refused work, as many as make its level.
		for (int window = 1; window < WindowNoise.LEVEL_WINDOWS; window++) {
			assertThat(this.controller.decide(refusing(50, 400), 50, upTo50, 0.2).changed()).isFalse();
		}
		Decision probe = this.controller.decide(refusing(50, 400), 50, upTo50, 0.2);
		assertThat(probe.cause()).isEqualTo(new ProbingDown(160, 312.5));
		assertThat(probe.threads()).isEqualTo(37);
	}

	/**
	 * A window of the pool at its max-threads in front of a downstream serving 160/s,
	 * offered 240/s, having refused so many tasks since it started.
	 */
	private static PoolSnapshot refusing(int size, long refusedSoFar) {
		PoolSnapshot window = window(240, 160, 312.5, size, 600, null);
		return new PoolSnapshot(window.pool(), window.windowSeconds(), window.sizes(),
				new TaskCounts(0, 0, 0, refusedSoFar, 0), window.windowArrivals(), window.windowCompletions(),
				window.queueWait(), window.serviceTime(), window.responseTime(), window.littlesLaw(), null);
	}

	@Test
	void noProbeGoesBelowTheThreadsTheCpuKeepsBusy() {
		// CPU-bound: 2 threads of 2 ms, nearly all of it CPU (W/C 0.02) on 2 cores.
		for (int i = 0; i < 5; i++) {
			Decision decision = this.controller.decide(window(1200, 1000, 2, 0, 2, 600, 3, 0.02), 2, BOUNDS, 0.99);
			assertThat(decision.changed()).isFalse();
			assertThat(decision.cause()).isEqualTo(new CpuBound(0.99));
		}
	}

	@Test
	void aPoolDrainingABacklogAfterItsLoadFellDoesNotProbe() {
		PoolBounds upTo50 = new PoolBounds(1, 50);
		for (int i = 0; i < 5; i++) {
			Decision decision = decide(upTo50, 10, 160, 312.5, 50, 600);
			assertThat(decision.changed()).isFalse();
		}
	}

	@Test
	void aPoolWhoseTasksWaitIsStaffedUpToTheModelAndKeepsTheStepWhenTheWaitIsGone() {
		// 100/s of 20 ms on 3 threads: R = 2, 67 % busy, tasks wait 9 ms on average.
		Decision staff = this.controller.decide(window(100, 100, 20, 9, 3, 0, null, null), 3, BOUNDS, 0.2);
		assertThat(staff.action()).isEqualTo(Action.GROW);
		assertThat(staff.threads()).isEqualTo(5);
		assertThat(staff.cause()).isEqualTo(new Waiting(9, 5));
		Decision kept = this.controller.decide(window(100, 100, 20, 0.4, 5, 0, null, null), 5, BOUNDS, 0.2);
		assertThat(kept.changed()).isFalse();
		assertThat(kept.kept()).isEqualTo(new KeptStep(3, 5, 0.0, true));
	}

	@Test
	void aStaffingStepThatOnlyMovedTheWaitIntoTheServiceTimeIsReverted() {
		this.controller.decide(window(100, 100, 20, 9, 3, 0, null, null), 3, BOUNDS, 0.2);
		// The tasks now wait at a downstream instead: the wait moved into the service
		// time.
		Decision revert = this.controller.decide(window(100, 100, 28, 1, 5, 0, null, null), 5, BOUNDS, 0.2);
		assertThat(revert.action()).isEqualTo(Action.REVERT);
		assertThat(revert.threads()).isEqualTo(3);
		assertThat(revert.cause()).isEqualTo(new WaitMoved(-8, 8, Duration.ofSeconds(30)));
	}

	@Test
	void aStepTakenAsALoadsFirstWindowClosesIsNotUndoneForTheLongerTasksTheNextWindowEnds() {
		// Every task of a load's first window began in it: those that ended are the
		// short ones, and the next window's mean rises with the longer ones it ends.
		PoolSnapshot first = withCounts(window(100, 100, 20, 9, 3, 0, null, null), 100, 0);
		assertThat(this.controller.decide(first, 3, BOUNDS, 0.2).threads()).isEqualTo(5);
		Decision next = this.controller.decide(window(100, 100, 40, 12, 5, 0, null, null), 5, BOUNDS, 0.2);
		assertThat(next.action()).isNotEqualTo(Action.REVERT);
		// The first window after one that offered nothing is a load's first too.
		PoolController afterIdle = new PoolController(this.clock);
		afterIdle.decide(window(0, 0, 0, 0, 3, 0, null, null), 3, BOUNDS, 0.2);
		assertThat(afterIdle.decide(window(100, 100, 20, 9, 3, 0, null, null), 3, BOUNDS, 0.2).threads()).isEqualTo(5);
		assertThat(afterIdle.decide(window(100, 100, 40, 12, 5, 0, null, null), 5, BOUNDS, 0.2).action())
			.isNotEqualTo(Action.REVERT);
		// After a window of the same load, the same rise says the threads only waited.
		PoolController loaded = new PoolController(this.clock);
		loaded.decide(window(100, 100, 20, 0, 3, 0, null, null), 3, BOUNDS, 0.2);
		assertThat(loaded.decide(window(100, 100, 20, 9, 3, 0, null, null), 3, BOUNDS, 0.2).threads()).isEqualTo(5);
		assertThat(loaded.decide(window(100, 100, 40, 12, 5, 0, null, null), 5, BOUNDS, 0.2).action())
			.isEqualTo(Action.REVERT);
	}

	@Test
	void aSurgeBetweenWindowsIsMetWithTheModelsSizeForTheShortIntervalsRate() {
		this.controller.decide(window(100, 100, 20, 0, 3, 0, null, null), 3, BOUNDS, 0.2);
		assertThat(this.controller.pulse(pulse(0, 3, 3, 0, 1000, 990))).isNull();
		// 60 arrivals in 100 ms: 600/s, six times the window's rate; 45 tasks queued.
		Decision surge = this.controller.pulse(pulse(100, 3, 3, 45, 1060, 1005));
		assertThat(surge.action()).isEqualTo(Action.GROW);
		// R = 600/s · 20 ms = 12: ⌈12 + 2·√12⌉ = 19, a tenth beyond it 20.
		assertThat(surge.threads()).isEqualTo(20);
		assertThat(surge.cause()).isEqualTo(new Surge(600, 100, 45, 19));
		assertThat(this.controller.standing()).isEqualTo(surge);
		// Kept at the next window: the queue drained.
		Decision window = this.controller.decide(window(580, 580, 20, 1, 20, 0, null, null), 20, BOUNDS, 0.2);
		assertThat(window.changed()).isFalse();
		assertThat(window.kept()).isEqualTo(new KeptStep(3, 20, 4.8, true));
	}

	@Test
	void aSurgesCutBelowTheKneeOnTheBaseOfCheaperWorkGoesBackToTheKnee() {
		// A base of cheap work, 20 ms, then a surge to 20 threads for calls of 100 ms to
		// a downstream that admits 8 (80 a second): its review cuts the pool back to
		// where the surge began, 3, a tenth beyond X·S₀ of the cheap work's base.
		PoolBounds bounds = new PoolBounds(1, 64);
		this.controller.decide(window(100, 100, 20, 0, 3, 0, null, null), 3, bounds, 0.2);
		this.controller.decide(window(100, 100, 20, 0, 3, 0, null, null), 3, bounds, 0.2);
		this.controller.pulse(pulse(0, 3, 3, 0, 1000, 990));
		assertThat(this.controller.pulse(pulse(100, 3, 3, 45, 1060, 1005)).threads()).isEqualTo(20);
		this.controller.applied(20);
		assertThat(this.controller.decide(window(600, 80, 250, 0, 20, 100, null, null), 20, bounds, 0.2).action())
			.isEqualTo(Action.HOLD);
		Decision cut = this.controller.decide(window(600, 80, 250, 0, 20, 100, null, null), 20, bounds, 0.2);
		assertThat(cut.action()).isEqualTo(Action.SHRINK);
		assertThat(cut.threads()).isEqualTo(3);
		this.controller.applied(3);
		// The calls' own 100 ms on 3 threads, 30 a second: the service time shortened and
		// the throughput fell with the threads. The knee is 80 a second at 100 ms.
		Decision back = this.controller.decide(window(600, 30, 100, 0, 3, 100, null, null), 3, bounds, 0.2);
		assertThat(back.action()).isEqualTo(Action.REVERT);
		assertThat(back.threads()).isEqualTo(9);
		assertThat(back.cause()).isEqualTo(new CutBelowKnee(30.0 / 80 - 1, 8));
		this.controller.applied(9);
		// The knee stays: growth stops half beyond it, at 12, however many the model
		// needs for what the pool refuses.
		Decision next = this.controller.decide(window(600, 80, 112.5, 0, 9, 100, null, null), 9, bounds, 0.2);
		assertThat(next.threads()).isLessThanOrEqualTo(12);
	}

	@Test
	void aSurgeOnTheBaseOfOneWindowProbesDownWhileItRefusesAtItsMaxThreads() {
		// One window measured the base (a load's first, cold calls, say): the surge made
		// on it is checked by probes down even while the pool refuses.
		Decision once = afterSurgeRefusingAtMax(1);
		assertThat(once.action()).as("%s", once).isEqualTo(Action.SHRINK);
		assertThat(once.cause()).isInstanceOf(ProbingDown.class);
		// Two windows measured it: a pool that refuses does not probe down.
		Decision twice = afterSurgeRefusingAtMax(2);
		assertThat(twice.action()).as("%s", twice).isEqualTo(Action.HOLD);
	}

	/**
	 * A fresh controller's decision after {@code measured} windows at 3 threads, a surge
	 * to its max-threads of 20, and up to four windows there refusing a third of the
	 * offered tasks at the base service time, until one does not hold.
	 */
	private Decision afterSurgeRefusingAtMax(int measured) {
		PoolController controller = new PoolController(this.clock);
		PoolBounds bounds = new PoolBounds(1, 20);
		for (int i = 0; i < measured; i++) {
			controller.decide(window(100, 100, 20, 0, 3, 0, null, null), 3, bounds, 0.2);
		}
		controller.pulse(pulse(0, 3, 3, 0, 1000, 990));
		assertThat(controller.pulse(pulse(100, 3, 3, 45, 1060, 1005)).threads()).isEqualTo(20);
		controller.applied(20);
		Decision decision = null;
		for (int i = 1; i <= 4 && (decision == null || decision.action() == Action.HOLD); i++) {
			decision = controller.decide(withRefusals(window(1500, 1000, 20, 20, 100, null), 500L * i), 20, bounds,
					0.2);
		}
		return decision;
	}

	@Test
	void noSurgeWithoutAStepInTheLoad() {
		this.controller.decide(window(600, 400, 20, 0, 8, 600, null, null), 8, BOUNDS, 0.2);
		this.controller.pulse(pulse(0, 8, 8, 600, 10000, 9000));
		// 65 arrivals in 100 ms against the window's 600/s: a steady overload, left to
		// the judged steps of the windows.
		assertThat(this.controller.pulse(pulse(100, 8, 8, 600, 10065, 9040))).isNull();
	}

	@Test
	void noSurgeWhileTheProcessCpuIsBusy() {
		this.controller.decide(window(100, 100, 20, 0, 3, 0, null, null), 3, BOUNDS, 0.95);
		this.controller.pulse(pulse(0, 3, 3, 0, 1000, 990));
		assertThat(this.controller.pulse(pulse(100, 3, 3, 45, 1060, 1005))).isNull();
	}

	@Test
	void aSurgeIsMetWhileOtherThreadsKeepTheCpuBusy() {
		// The pool's tasks spend 1 ms of 300 on the CPU: two busy threads use 0.7 % of
		// a core, and the process's 97 % is other threads'.
		assertThat(surgeAfter(window(100, 100, 20, 0, 3, 0, null, 299.0), 0.97)).isNotNull();
		// Tasks all on the CPU: two busy threads keep a core of two busy.
		assertThat(surgeAfter(window(100, 100, 20, 0, 3, 0, null, 0.0), 0.97)).isNull();
		// Their CPU time unknown: held as CPU-bound.
		assertThat(surgeAfter(window(100, 100, 20, 0, 3, 0, null, null), 0.97)).isNull();
	}

	@Test
	void aSurgeIsMetAfterAnIdleWindowWhileOtherThreadsKeepTheCpuBusy() {
		// Idle before the load, its tasks' CPU time never measured: they used no CPU.
		assertThat(surgeAfter(window(0, 0, 20, 0, 3, 0, null, null), 0.97)).isNotNull();
	}

	/**
	 * The pulse of a 600/s surge on 2 cores after a window at 100/s with a base of 20 ms,
	 * then the given window at the given CPU load.
	 */
	private @Nullable Decision surgeAfter(PoolSnapshot last, double cpuLoad) {
		PoolController controller = new PoolController(this.clock, 2);
		controller.decide(window(100, 100, 20, 0, 3, 0, null, null), 3, BOUNDS, 0.2);
		controller.decide(last, 3, BOUNDS, cpuLoad);
		controller.pulse(pulse(0, 3, 3, 0, 1000, 990));
		return controller.pulse(pulse(100, 3, 3, 45, 1060, 1005));
	}

	@Test
	void noSurgeBeforeTheFirstWindow() {
		assertThat(this.controller.pulse(pulse(0, 3, 3, 0, 0, 0))).isNull();
		assertThat(this.controller.pulse(pulse(100, 3, 3, 45, 60, 15))).isNull();
	}

	@Test
	void aSurgeStopsHalfBeyondAKneeAlreadySeen() {
		decide(600, 300, 20, 6, 500);
		// +33 % throughput for +50 % threads: the knee is near 8, the cap 12.
		decide(600, 400, 22.5, 9, 500);
		this.controller.pulse(pulse(0, 12, 12, 500, 10000, 9000));
		Decision surge = this.controller.pulse(pulse(100, 12, 12, 600, 10200, 9040));
		assertThat(surge).isNull();
	}

	@Test
	void anOverProvisionedPoolShrinksAfterTenWindowsToTheMostItNeededInThem() {
		// 10/s of 100 ms: R = 1, needing ⌈1 + 2⌉ = 3 threads of 20; once 40/s: 8.
		for (int i = 1; i < 10; i++) {
			double rate = (i == 5) ? 40 : 10;
			Decision hold = decide(rate, rate, 100, 20, 0);
			assertThat(hold.changed()).isFalse();
			assertThat(hold.needed()).isEqualTo((i == 5) ? 8 : 3);
		}
		Decision shrink = decide(10, 10, 100, 20, 0);
		assertThat(shrink.threads()).isEqualTo(8);
		assertThat(shrink.action()).isEqualTo(Action.SHRINK);
		assertThat(shrink.cause()).isEqualTo(new Surplus(8, 10));
	}

	@Test
	void aShortSurgeStartsTheCountOfSurplusWindowsAgain() {
		for (int i = 0; i < 9; i++) {
			decide(10, 10, 100, 20, 0);
		}
		// 150/s needs ⌈15 + 2·√15⌉ = 23 threads: not a surplus.
		decide(150, 150, 100, 20, 0);
		for (int i = 0; i < 9; i++) {
			assertThat(decide(10, 10, 100, 20, 0).changed()).isFalse();
		}
		// Ten windows on, the surge is out of sight.
		assertThat(decide(10, 10, 100, 20, 0).threads()).isEqualTo(3);
	}

	@Test
	void aPoolWithNoWorkStaysAtItsMinimum() {
		for (int i = 0; i < 20; i++) {
			Decision decision = this.controller.decide(window(0, 0, 0, 1, 0, null), 1, BOUNDS, 0);
			assertThat(decision.changed()).isFalse();
		}
	}

	/**
	 * Two windows of 20 ms tasks on 12 threads, then the service 3× slower, as behind a
	 * saturated downstream: 12 threads serve 200/s, which needs ⌈4 + 2·2⌉ = 8 threads at
	 * the base service time, and a quarter at most goes per window.
	 */
	/**
	 * 20 ms tasks at 200/s on 8 threads, then 60 ms on 12 without more throughput: the
	 * service time grew with the threads.
	 */
	private Decision cutForAServiceThreeTimesSlower() {
		for (int i = 0; i < 3; i++) {
			decideHeld(200, 200, 20, 8, 0);
		}
		return decideHeld(400, 200, 60, 12, 40);
	}

	/**
	 * A window at a size the pool had throughout it, as the tuner tells its controller.
	 */
	private Decision decideHeld(double arrivalRate, double throughput, double serviceMs, int size, int queued) {
		this.controller.applied(size);
		return decide(arrivalRate, throughput, serviceMs, size, queued);
	}

	/**
	 * A window of a pool at its size throughout, 50 tasks queued, having refused so many
	 * tasks since it started.
	 */
	private Decision decideRefusing(double arrivalRate, double throughput, double serviceMs, int size,
			long refusedSoFar) {
		return this.controller.decide(
				withRefusals(window(arrivalRate, throughput, serviceMs, size, 50, null), refusedSoFar), size, BOUNDS,
				0.2);
	}

	private Decision decide(double arrivalRate, double throughput, double serviceMs, int size, int queued) {
		return decide(BOUNDS, arrivalRate, throughput, serviceMs, size, queued);
	}

	private Decision decide(PoolBounds bounds, double arrivalRate, double throughput, double serviceMs, int size,
			int queued) {
		return this.controller.decide(window(arrivalRate, throughput, serviceMs, size, queued, null), size, bounds,
				0.2);
	}

	private static PoolPulse pulse(long atMillis, int size, int active, int queued, long arrivals, long completions) {
		return new PoolPulse("talk", BOUNDS, 1, TuningMode.AUTO, size, size, active, queued, arrivals, completions,
				Duration.ofMillis(atMillis).toNanos());
	}

	static PoolSnapshot window(double arrivalRate, double throughput, double serviceMs, int size, int queued,
			Integer goetz) {
		return window(arrivalRate, throughput, serviceMs, 0, size, queued, goetz, null);
	}

	static PoolSnapshot window(double arrivalRate, double throughput, double serviceMs, double queueWaitMs, int size,
			int queued, Integer goetz, Double waitCompute) {
		double busy = throughput * serviceMs / 1000;
		Latency service = new Latency(serviceMs, serviceMs, serviceMs, serviceMs, serviceMs);
		LittlesLaw law = new LittlesLaw(arrivalRate, throughput, serviceMs, queueWaitMs, serviceMs + queueWaitMs,
				serviceMs, busy, busy, 0, busy / 2, waitCompute, goetz);
		return new PoolSnapshot("talk", 1, new Sizes(size, size, size, (int) Math.round(busy), queued, 100, 1, 64),
				new TaskCounts(0, 0, 0, 0, 0), (long) arrivalRate, (long) throughput, Latency.NONE, service, service,
				law);
	}

	/**
	 * The same window, with the pool's refusals for want of room so far.
	 */
	static PoolSnapshot withRefusals(PoolSnapshot window, long refusedSoFar) {
		return withCounts(window, 0, refusedSoFar);
	}

	/**
	 * The same window, with the pool's tasks offered and refused for want of room so far.
	 */
	static PoolSnapshot withCounts(PoolSnapshot window, long submittedSoFar, long refusedSoFar) {
		return new PoolSnapshot(window.pool(), window.windowSeconds(), window.sizes(),
				new TaskCounts(submittedSoFar, 0, 0, refusedSoFar, 0), window.windowArrivals(),
				window.windowCompletions(), window.queueWait(), window.serviceTime(), window.responseTime(),
				window.littlesLaw(), null);
	}

}
