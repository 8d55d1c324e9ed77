package io.github.poolpilot.tuning;

import java.time.Duration;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.testsupport.FakeClock;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.AtKnee;
import io.github.poolpilot.tuning.Decision.Cause.Buffering;
import io.github.poolpilot.tuning.Decision.Cause.Buffering.Overflow;
import io.github.poolpilot.tuning.Decision.Cause.Busy;
import io.github.poolpilot.tuning.Decision.Cause.CpuBound;
import io.github.poolpilot.tuning.Decision.Cause.CutDidNotHelp;
import io.github.poolpilot.tuning.Decision.Cause.CutDraining;
import io.github.poolpilot.tuning.Decision.Cause.GrowthBlocked;
import io.github.poolpilot.tuning.Decision.Cause.ProbeFell;
import io.github.poolpilot.tuning.Decision.Cause.ProbingDown;
import io.github.poolpilot.tuning.Decision.Cause.Queueing;
import io.github.poolpilot.tuning.Decision.Cause.Surplus;
import io.github.poolpilot.tuning.Decision.Cause.Waiting;

import static io.github.poolpilot.tuning.PoolControllerTests.window;
import static io.github.poolpilot.tuning.PoolControllerTests.withRefusals;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * {@link PoolController} over sequences of windows and pulses: what one window or pulse
 * leaves for the next ones (the base service time, a knee, growth's rest, the count of
 * surplus windows, a probe or a cut being judged), and the staffing and saturation rules
 * at their edges.
 *
 * @author poolpilot authors
 */
class PoolControllerSequencesTests {

	private static final PoolBounds BOUNDS = new PoolBounds(1, 64);

	private final FakeClock clock = new FakeClock();

	private final PoolController controller = new PoolController(this.clock);

	@Test
	void aWindowInWhichNoTaskEndedLeavesTheBaseServiceTimeAsItWas() {
		hold(200, 200, 20, 6);
		// Tasks arrived, none ended: whatever service time the window reports, it is no
		// base.
		hold(200, 0, 5, 6);
		// 200/s of 20 ms: R = 4, ⌈4 + 2·2⌉ = 8 threads.
		assertThat(hold(200, 200, 20, 6).cause()).isEqualTo(new Busy(4.0, 8));
	}

	@Test
	void aWindowWithoutAServiceTimeLeavesTheBaseServiceTimeAsItWas() {
		hold(200, 200, 20, 6);
		hold(200, 200, 0, 6);
		assertThat(hold(200, 200, 20, 6).cause()).isEqualTo(new Busy(4.0, 8));
	}

	@Test
	void theWindowAfterAStepUpKeepsTheBaseServiceTimeOfTheWindowsBeforeTheCrowd() {
		// 10 ms at 10 threads with little load: the base.
		hold(200, 200, 10, 10);
		// Crowded at a downstream's limit past the last windows the base looks at:
		// saturated, so the least measured before them stays the base.
		for (int i = 0; i < PoolController.BASE_WINDOWS; i++) {
			decide(300, 240, 100, 24, 10);
		}
		// Stepped up to 36 at the last window's close: 312/s of 100 ms is 31.2 busy,
		// short of 0.9 × 36, as tasks begun before the step end in this window.
		// Saturated at the 24 threads the window began with, so the base stays 10 ms:
		// 400/s of 10 ms is R = 4, ⌈4 + 2·2⌉ = 8 threads, not the 53 of 100 ms.
		Decision afterStep = decide(400, 312, 100, 36, 10);
		assertThat(afterStep.cause()).isEqualTo(new Busy(31.2, 8));
	}

	@Test
	void aWindowThatRefusedWorkKeepsTheBaseServiceTimeThoughItsEndsKeptFewerThreadsBusy() {
		// 10 ms at 10 threads with little load: the base; then 36 threads crowded at a
		// downstream's limit.
		hold(200, 200, 10, 10);
		decide(239, 240, 150, 36, 10);
		// 240/s of 100 ms is 24 busy, short of 0.9 × 36, as the tasks that ended are
		// those begun earliest. It refused a task for want of room, so every thread was
		// busy then: congested, not the work's own time.
		this.controller.decide(withRefusals(window(239, 240, 100, 36, 10, null), 1), 36, BOUNDS, 0.2);
		// Saturated, all it is offered served, past the last windows the base looks at.
		for (int i = 0; i < PoolController.BASE_WINDOWS; i++) {
			decide(239, 240, 150, 36, 10);
		}
		// The base is still 10 ms: 358/s is R = 3.6, ⌈3.6 + 2·1.9⌉ = 8 threads, not the
		// 48 of 100 ms, which would let the base climb with the pool and ask for ever
		// more.
		assertThat(decide(358, 359, 100, 36, 10).cause()).isEqualTo(new Queueing(35.9, 8));
	}

	@Test
	void beforeAnyServiceTimeIsKnownTheModelNeedsNothingItCanSay() {
		Decision first = hold(200, 0, 0, 6);
		assertThat(first.cause()).isEqualTo(new Busy(0.0, null));
		assertThat(first.needed()).isEqualTo(6);
		assertThat(first.limited()).isFalse();
	}

	@Test
	void anIdlePoolNeedsNoThreadsAndCountsAsASurplus() {
		Decision idle = hold(0, 0, 0, 6);
		assertThat(idle.cause()).isEqualTo(new Busy(0.0, 0));
		assertThat(idle.needed()).isZero();
		for (int i = 2; i < PoolController.SHRINK_WINDOWS; i++) {
			assertThat(hold(0, 0, 0, 6).changed()).isFalse();
		}
		Decision shrink = this.controller.decide(window(0, 0, 0, 6, 0, null), 6, BOUNDS, 0.2);
		assertThat(shrink.action()).isEqualTo(Action.SHRINK);
		assertThat(shrink.to()).isEqualTo(1);
		assertThat(shrink.cause()).isEqualTo(new Surplus(0, 10));
	}

	@Test
	void aPoolNeedingExactlyItsSizeLessADeadBandIsOverProvisioned() {
		// 200/s of 20 ms: R = 4, ⌈4 + 2·2⌉ = 8 threads, 10 less the dead band of 2: a
		// surplus.
		for (int i = 1; i < PoolController.SHRINK_WINDOWS; i++) {
			assertThat(hold(200, 200, 20, 10).changed()).isFalse();
		}
		Decision shrink = hold(200, 200, 20, 10);
		assertThat(shrink.action()).isEqualTo(Action.SHRINK);
		assertThat(shrink.to()).isEqualTo(8);
	}

	@Test
	void aPoolAtItsMinThreadsIsNotShrunkToItsOwnSize() {
		PoolBounds atLeast8 = new PoolBounds(8, 64);
		for (int i = 0; i < 2 * PoolController.SHRINK_WINDOWS; i++) {
			Decision decision = this.controller.decide(window(0, 0, 0, 8, 0, null), 8, atLeast8, 0.2);
			assertThat(decision.action()).as("window %d", i).isEqualTo(Action.HOLD);
		}
	}

	@Test
	void aSaturatedWindowStartsTheCountOfSurplusWindowsAgain() {
		// 100/s of 20 ms need 5 of 20 threads: nine windows of surplus.
		for (int i = 0; i < 9; i++) {
			assertThat(hold(100, 100, 20, 20).changed()).isFalse();
		}
		// Saturated, held by a busy CPU, needing only 5 (Goetz's size).
		Decision saturated = this.controller.decide(window(1200, 1000, 20, 20, 50, 5), 20, BOUNDS, 0.95);
		assertThat(saturated.cause()).isEqualTo(new CpuBound(0.95));
		for (int i = 0; i < 9; i++) {
			assertThat(hold(100, 100, 20, 20).changed()).as("window %d", i).isFalse();
		}
		assertThat(hold(100, 100, 20, 20).action()).isEqualTo(Action.SHRINK);
	}

	@Test
	void aStaffingStepStartsTheCountOfSurplusWindowsAgain() {
		for (int i = 0; i < 9; i++) {
			assertThat(hold(100, 100, 20, 20).changed()).isFalse();
		}
		// 800/s of 20 ms on 20 threads: 16 busy, not saturated, but tasks wait 5 ms.
		Decision staff = this.controller.decide(window(800, 800, 20, 5, 20, 0, null, null), 20, BOUNDS, 0.2);
		assertThat(staff.action()).isEqualTo(Action.GROW);
		assertThat(staff.cause()).isEqualTo(new Waiting(5, 24));
		// Set to 40 by hand since: the next window is a surplus, but only the first.
		assertThat(hold(100, 100, 20, 40).changed()).isFalse();
	}

	@Test
	void aPoolWhoseTasksWaitExactlyAWentiethOfTheBaseServiceTimeIsNotStaffed() {
		assertThat(staff(1.0, 0.2).action()).isEqualTo(Action.HOLD);
	}

	@Test
	void aPoolWhoseTasksWaitLongerIsStaffedWhileTheCpuIsAtNineTenths() {
		assertThat(staff(1.01, 0.9).cause()).isEqualTo(new Waiting(1.01, 24));
		assertThat(
				new PoolController(this.clock).decide(window(800, 800, 20, 1.01, 20, 0, null, null), 20, BOUNDS, 0.91)
					.action())
			.isEqualTo(Action.HOLD);
	}

	@Test
	void aPoolWhoseTasksWaitAtItsMaxThreadsIsHeld() {
		Decision decision = this.controller.decide(window(800, 800, 20, 5, 20, 0, null, null), 20,
				new PoolBounds(1, 20), 0.2);
		assertThat(decision.action()).isEqualTo(Action.HOLD);
		assertThat(decision.changed()).isFalse();
	}

	@Test
	void aSaturatedPoolWithExactlyTheThreadsItsModelNeedsIsHeld() {
		Decision decision = this.controller.decide(window(120, 80, 100, 8, 50, 8), 8, BOUNDS, 0.2);
		assertThat(decision.action()).isEqualTo(Action.HOLD);
		assertThat(decision.cause()).isEqualTo(new Queueing(8.0, 8));
	}

	@Test
	void aSaturatedPoolAtHalfBeyondTheKneeIsHeldThere() {
		growTo17WithAKneeAt11();
		// The queue drained: the step is kept, and nothing grows.
		assertThat(this.controller.decide(window(1_440_000, 1_440_000, 0.008, 17, 0, null), 17, BOUNDS, 0.2).changed())
			.isFalse();
		// Saturated again, needing 34, serving what the knee's 11.52 threads serve at the
		// base service time, with the tasks waiting longer in the downstream: held at the
		// cap of 1.5 × 11.52.
		Decision held = decide(3_000_000, 1_440_000, 0.0118, 17, 50);
		assertThat(held.action()).isEqualTo(Action.HOLD);
		assertThat(held.cause()).isInstanceOfSatisfying(AtKnee.class, (atKnee) -> {
			assertThat(atKnee.kneeThreads()).isCloseTo(11.52, within(1e-9));
			assertThat(atKnee.need()).isEqualTo(34);
		});
		assertThat(held.limited()).isFalse();
	}

	@Test
	void aPoolAtTheKneesCapHoldsInThreadsWhatABurstOverflowed() {
		// Offered less than the 1 440 000 a window served at the knee, window after
		// window, then a burst of 2 000 000 that refused 100 000 on 17 threads busy at
		// the
		// knee's throughput: on average the pool was offered no more than it serves, so
		// threads that wait for the downstream hold what overflowed, past the knee's cap,
		// as 400 threads fixed would: 17 / 0.95, 18 threads.
		Decision burst = refusedAtTheKneesCapAfter(1_200_000, 1_200_000, 0.008, 0);
		assertThat(burst.action()).isEqualTo(Action.GROW);
		assertThat(burst.threads()).isEqualTo(18);
		assertThat(burst.cause()).isEqualTo(new Buffering(100_000, 2_000_000, Overflow.BURSTS));
	}

	@Test
	void aPoolAtTheKneesCapOverloadedWindowAfterWindowTakesNoThreadsToHoldWhatItRefused() {
		// Offered more than it serves, window after window: a buffer would only fill.
		Decision overload = refusedAtTheKneesCapAfter(2_000_000, 1_440_000, 0.0118, 100);
		assertThat(overload.threads()).isLessThanOrEqualTo(17);
		assertThat(overload.cause()).isNotInstanceOf(Buffering.class);
	}

	/**
	 * A pool at 17 threads, the cap of its knee of 11.52, nine windows offered and served
	 * so much, then one offered 2 000 000 that refused 100 000, with room for 400
	 * threads.
	 */
	private Decision refusedAtTheKneesCapAfter(double offered, double served, double serviceMs, int queued) {
		growTo17WithAKneeAt11();
		this.controller.applied(17);
		for (int i = 0; i < 9; i++) {
			this.controller.decide(window(offered, served, serviceMs, 17, queued, null), 17, BOUNDS, 0.2);
		}
		return this.controller.decide(
				PoolControllerTests.withRefusals(window(2_000_000, 1_440_000, 0.0118, 17, 100, null), 100_000), 17,
				new PoolBounds(1, 400), 0.2);
	}

	@Test
	void aCutThatDidNotHelpIsUndoneAndTheKneeForgotten() {
		assertThat(decide(1_500_000, 1_000_000, 0.008, 8, 50).to()).isEqualTo(12);
		this.controller.applied(12);
		assertThat(decide(3_000_000, 1_440_000, 0.008, 12, 50).to()).isEqualTo(17);
		assertThat(this.controller.decide(window(1_440_000, 1_440_000, 0.008, 17, 0, null), 17, BOUNDS, 0.2).changed())
			.isFalse();
		// Twice as slow as on 12 threads with no more throughput: cut by a quarter.
		this.controller.applied(17);
		Decision cut = decide(3_000_000, 1_440_000, 0.016, 17, 50);
		assertThat(cut.action()).isEqualTo(Action.SHRINK);
		assertThat(cut.to()).isEqualTo(13);
		// Just as slow on 13, its 13 threads busy, in two windows: undone, and the knee,
		// seen under this slowdown, forgotten.
		assertThat(decide(3_000_000, 812_500, 0.016, 13, 50).cause()).isInstanceOf(CutDraining.class);
		Decision restore = decide(3_000_000, 812_500, 0.016, 13, 50);
		assertThat(restore.action()).isEqualTo(Action.RESTORE);
		assertThat(restore.cause()).isEqualTo(new CutDidNotHelp(0.016, 0.016));
		Decision grow = decide(3_000_000, 2_000_000, 0.008, 17, 50);
		assertThat(grow.action()).isEqualTo(Action.GROW);
		assertThat(grow.to()).isEqualTo(26);
	}

	@Test
	void aCutThatShortenedTheServiceTimeRestsGrowth() {
		cutFrom12To9();
		// 54 ms on 9: a tenth shorter, the cut stands; the service is still slow, and the
		// next cut goes to the 8 threads that took 20 ms.
		this.controller.applied(9);
		assertThat(decide(400, 200, 54, 9, 40).to()).isEqualTo(8);
		// Back at 20 ms and saturated, needing 19: the threads the cuts took only
		// waited, and more would wait too.
		this.controller.applied(8);
		Decision held = decide(600, 450, 20, 8, 40);
		assertThat(held.action()).isEqualTo(Action.HOLD);
		assertThat(held.cause()).isEqualTo(new GrowthBlocked(Duration.ofSeconds(30)));
	}

	@Test
	void aProbeThePoolDidNotTakeIsNotJudged() {
		PoolBounds upTo50 = new PoolBounds(1, 50);
		this.controller.decide(window(240, 160, 312.5, 50, 600, null), 50, upTo50, 0.2);
		Decision probe = this.controller.decide(window(240, 160, 312.5, 50, 600, null), 50, upTo50, 0.2);
		assertThat(probe.cause()).isInstanceOf(ProbingDown.class);
		// The budget (or a person) kept the pool at 50: a lower throughput then is no
		// fall of the probe's.
		this.controller.applied(50);
		Decision next = this.controller.decide(window(240, 120, 312.5, 50, 600, null), 50, upTo50, 0.2);
		assertThat(next.cause()).isNotInstanceOf(ProbeFell.class);
	}

	@Test
	void noSurgeIsMetWhileAProbeDownIsJudged() {
		// The threads the probe took were seen to wait: a burst of arrivals meanwhile
		// is not served faster by more of them.
		PoolBounds upTo50 = new PoolBounds(1, 50);
		this.controller.decide(window(240, 160, 312.5, 50, 600, null), 50, upTo50, 0.2);
		assertThat(this.controller.decide(window(240, 160, 312.5, 50, 600, null), 50, upTo50, 0.2).to()).isEqualTo(37);
		this.controller.applied(37);
		assertThat(surgePulses(37)).isNull();
		Decision next = this.controller.decide(window(240, 120, 312.5, 37, 600, null), 37, upTo50, 0.2);
		assertThat(next.cause()).isInstanceOf(ProbeFell.class);
		surge(next.to());
	}

	@Test
	void noSurgeIsMetWhileACutIsJudged() {
		cutFrom12To9();
		this.controller.applied(9);
		assertThat(surgePulses(9)).isNull();
		// Just as slow on 9 threads, all busy, in two windows: undone.
		assertThat(decide(400, 150, 60, 9, 40).action()).isEqualTo(Action.HOLD);
		assertThat(surgePulses(9)).isNull();
		assertThat(decide(400, 150, 60, 9, 40).action()).isEqualTo(Action.RESTORE);
		surge(12);
	}

	@Test
	void aSurgeStartsTheCountOfSurplusWindowsAgain() {
		for (int i = 0; i < 9; i++) {
			assertThat(hold(100, 100, 20, 20).changed()).isFalse();
		}
		surge(20);
		assertThat(hold(100, 100, 20, 20).changed()).isFalse();
	}

	@Test
	void aSurgeIsMetWhileTheLastWindowsCpuWasAtNineTenths() {
		this.controller.decide(window(100, 100, 20, 0, 3, 0, null, null), 3, BOUNDS, 0.9);
		assertThat(this.controller.pulse(pulse(0, 3, 0, 1000, 990))).isNull();
		assertThat(this.controller.pulse(pulse(100, 3, 45, 1060, 1005))).isNotNull();
		PoolController busy = new PoolController(this.clock);
		busy.decide(window(100, 100, 20, 0, 3, 0, null, null), 3, BOUNDS, 0.91);
		busy.pulse(pulse(0, 3, 0, 1000, 990));
		assertThat(busy.pulse(pulse(100, 3, 45, 1060, 1005))).isNull();
	}

	@Test
	void aPoolIsIdleSinceItsLastPulseOnlyWhenNothingArrived() {
		this.controller.decide(window(100, 100, 20, 0, 3, 0, null, null), 3, BOUNDS, 0.2);
		this.controller.pulse(pulse(0, 3, 0, 1000, 990));
		this.controller.pulse(pulse(100, 3, 0, 1010, 1000));
		assertThat(this.controller.idleSinceLastPulse()).isFalse();
		this.controller.pulse(pulse(200, 3, 0, 1010, 1010));
		assertThat(this.controller.idleSinceLastPulse()).isTrue();
	}

	/**
	 * A saturated window of 8 threads serving a million 8 µs tasks a second grows to 12;
	 * +44 % throughput on 12 crossed the knee at 8 · 1.44 = 11.52 threads: the next step
	 * stops at 17.
	 */
	/**
	 * 20 ms tasks at 200/s on 8 threads, then three times as long on 12 without more
	 * throughput: cut to 9.
	 */
	private void cutFrom12To9() {
		for (int i = 0; i < 2; i++) {
			this.controller.applied(8);
			decide(200, 200, 20, 8, 0);
		}
		this.controller.applied(12);
		assertThat(decide(400, 200, 60, 12, 40).to()).isEqualTo(9);
	}

	private void growTo17WithAKneeAt11() {
		assertThat(decide(1_500_000, 1_000_000, 0.008, 8, 50).to()).isEqualTo(12);
		assertThat(decide(3_000_000, 1_440_000, 0.008, 12, 50).to()).isEqualTo(17);
	}

	/**
	 * Pulses 100 ms apart on a pool of {@code size}, every thread busy, in which 600
	 * tasks arrived and 500 are queued: a surge whatever the last window's rate.
	 */
	private void surge(int size) {
		Decision surge = surgePulses(size);
		assertThat(surge).isNotNull();
		assertThat(surge.action()).isEqualTo(Action.GROW);
	}

	/**
	 * The pulses of {@link #surge}, returning what the second decided.
	 */
	private @Nullable Decision surgePulses(int size) {
		this.controller.pulse(new PoolPulse("talk", BOUNDS, 1, TuningMode.AUTO, size, size, size, 0, 100_000, 100_000,
				this.clock.nanoTime()));
		this.clock.advanceMillis(100);
		return this.controller.pulse(new PoolPulse("talk", BOUNDS, 1, TuningMode.AUTO, size, size, size, 500, 100_600,
				100_100, this.clock.nanoTime()));
	}

	private Decision staff(double queueWaitMs, double cpuLoad) {
		// 800/s of 20 ms on 20 threads: 16 busy, not saturated, needing 24.
		return this.controller.decide(window(800, 800, 20, queueWaitMs, 20, 0, null, null), 20, BOUNDS, cpuLoad);
	}

	private Decision hold(double arrivalRate, double throughput, double serviceMs, int size) {
		return decide(arrivalRate, throughput, serviceMs, size, 0);
	}

	private Decision decide(double arrivalRate, double throughput, double serviceMs, int size, int queued) {
		return this.controller.decide(window(arrivalRate, throughput, serviceMs, size, queued, null), size, BOUNDS,
				0.2);
	}

	private PoolPulse pulse(long atMillis, int size, int queued, long arrivals, long completions) {
		return new PoolPulse("talk", BOUNDS, 1, TuningMode.AUTO, size, size, size, queued, arrivals, completions,
				Duration.ofMillis(atMillis).toNanos());
	}

}
