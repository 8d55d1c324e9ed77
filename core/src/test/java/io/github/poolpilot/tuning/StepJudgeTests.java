package io.github.poolpilot.tuning;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.testsupport.FakeClock;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.Judging;
import io.github.poolpilot.tuning.Decision.Cause.NoGain;
import io.github.poolpilot.tuning.Decision.Cause.WaitMoved;
import io.github.poolpilot.tuning.Decision.KeptStep;
import io.github.poolpilot.tuning.Step.Kind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Tests for {@link StepJudge} at the edges of its rules: where a staffing step's wait
 * went, when a step's slower service says its threads only waited, how many windows a
 * shortfall within the noise is judged, when growth's rest starts again from its first
 * length, when a knee is forgotten, and the small probe after a step that did not pay.
 *
 * @author poolpilot authors
 */
class StepJudgeTests {

	private static final PoolBounds BOUNDS = new PoolBounds(1, 64);

	private final FakeClock clock = new FakeClock();

	private final Knee knee = new Knee(this.clock);

	/**
	 * A judge whose windows' noise was measured, and found none: two windows in a row at
	 * one size with the same service time.
	 */
	private final StepJudge judge = new StepJudge(this.clock, this.knee, new WindowNoise(), steady());

	@Test
	void aStaffingStepIsKeptWhileTheServiceTimeRoseByAtMostHalfTheWaitItTookOffPlusATenth() {
		// 20 ms tasks that waited 10 ms; now they wait 2 ms: 8 ms off the queue, so the
		// service time may rise by 0.5 · 8 + 0.1 · 20 = 6 ms.
		this.judge.take(new Step(Kind.STAFFING, 6, 8, 200, 200, 20, 10));
		StepJudge.Verdict kept = this.judge.judge(window(200, 200, 26, 2, 8, 0));
		assertThat(kept.undone()).isNull();
		assertThat(kept.kept()).isEqualTo(new KeptStep(6, 8, 0.0, true));
	}

	@Test
	void aStaffingStepWhoseServiceTimeRoseByMoreIsRevertedAndGrowthRests() {
		this.judge.take(new Step(Kind.STAFFING, 6, 8, 200, 200, 20, 10));
		Decision revert = this.judge.judge(window(200, 200, 26.5, 2, 8, 0)).undone();
		assertThat(revert.action()).isEqualTo(Action.REVERT);
		assertThat(revert.from()).isEqualTo(8);
		assertThat(revert.to()).isEqualTo(6);
		assertThat(revert.cause()).isEqualTo(new WaitMoved(-8, 6.5, Duration.ofSeconds(30)));
		assertThat(this.judge.resting()).isTrue();
	}

	@Test
	void aStaffingStepAfterWhichTheWaitGrewIsUndoneOnlyWhenItsThreadsOnlyWaited() {
		// The wait rose from 2 to 10 ms (a backlog draining, a burst): no wait moved, and
		// only a service time up by half the threads' share, 0.5 · 2/6 · 20 ms = 3.3 ms,
		// says the threads only waited elsewhere.
		this.judge.take(new Step(Kind.STAFFING, 6, 8, 200, 200, 20, 2));
		assertThat(this.judge.judge(window(200, 200, 23, 10, 8, 0)).undone()).isNull();
		this.judge.take(new Step(Kind.STAFFING, 6, 8, 200, 200, 20, 2));
		assertThat(this.judge.judge(window(200, 200, 23.5, 10, 8, 0)).undone().action()).isEqualTo(Action.REVERT);
	}

	@Test
	void aStepWhoseServiceTimeRoseByExactlyHalfItsAddedThreadsOnlyWaitedAndIsRevertedAtOnce() {
		// +50 % threads, 1 % more throughput, the service time up from 20 to 25 ms: +25
		// %.
		this.judge.take(new Step(Kind.SATURATED, 10, 15, 100, 100, 20, 0));
		Decision revert = this.judge.judge(window(120, 101, 25, 0, 15, 5)).undone();
		assertThat(revert.action()).isEqualTo(Action.REVERT);
		assertThat(revert.to()).isEqualTo(10);
		assertThat(revert.cause()).isInstanceOf(NoGain.class);
	}

	@Test
	void aStepWhoseServiceTimeRoseByLessIsJudgedAgain() {
		this.judge.take(new Step(Kind.SATURATED, 10, 15, 100, 100, 20, 0));
		Decision judging = this.judge.judge(window(120, 101, 24.9, 0, 15, 5)).undone();
		assertThat(judging.action()).isEqualTo(Action.HOLD);
		assertThat(judging.cause()).isInstanceOf(Judging.class);
	}

	@Test
	void aStepWithoutAServiceTimeBeforeItIsNotTakenForWaitingThreads() {
		this.judge.take(new Step(Kind.SATURATED, 10, 15, 100, 100, 0, 0));
		Decision judging = this.judge.judge(window(120, 101, 25, 0, 15, 5)).undone();
		assertThat(judging.cause()).isInstanceOf(Judging.class);
	}

	@Test
	void aShortfallWithinTheNoiseIsJudgedInThreeWindowsAtMost() {
		this.judge.take(new Step(Kind.SATURATED, 10, 15, 100, 100, 20, 0));
		assertThat(this.judge.judge(window(120, 101, 20, 0, 15, 5)).undone().cause())
			.isEqualTo(new Judging(10, 15, 0.01));
		assertThat(this.judge.judge(window(120, 101, 20, 0, 15, 5)).undone().cause()).isInstanceOf(Judging.class);
		Decision third = this.judge.judge(window(120, 101, 20, 0, 15, 5)).undone();
		assertThat(third.action()).isEqualTo(Action.REVERT);
		assertThat(third.to()).isEqualTo(10);
		assertThat(this.judge.judge(window(120, 101, 20, 0, 15, 5))).isNull();
	}

	@Test
	void aKeptStepStartsGrowthsRestFromItsFirstLengthAgain() {
		// A million tasks a second: a step that gained nothing is beyond the noise.
		this.judge.take(new Step(Kind.SATURATED, 10, 15, 1_000_000, 1_000_000, 20, 0));
		assertThat(this.judge.judge(window(1_200_000, 1_000_000, 20, 0, 15, 5)).undone().cause())
			.isEqualTo(new NoGain(0, 0.5, Duration.ofSeconds(30)));
		this.clock.advance(Duration.ofSeconds(30));
		this.judge.take(new Step(Kind.SATURATED, 10, 15, 1_000_000, 1_000_000, 20, 0));
		assertThat(this.judge.judge(window(2_000_000, 1_500_000, 20, 0, 15, 5)).undone()).isNull();
		this.judge.take(new Step(Kind.SATURATED, 15, 22, 1_500_000, 1_500_000, 20, 0));
		assertThat(this.judge.judge(window(2_000_000, 1_500_000, 20, 0, 22, 5)).undone().cause())
			.isEqualTo(new NoGain(0, 7 / 15.0, Duration.ofSeconds(30)));
	}

	@Test
	void aKneeIsKeptByAStepThatPaidUpToItAndForgottenByOneThatPaidBeyondIt() {
		this.knee.learn(15, 1500);
		this.judge.take(new Step(Kind.SATURATED, 10, 15, 1000, 1000, 2, 0));
		assertThat(this.judge.judge(window(2000, 1500, 2, 0, 15, 5)).undone()).isNull();
		assertThat(this.knee.threads()).isEqualTo(15.0);
		this.judge.take(new Step(Kind.SATURATED, 10, 16, 1000, 1000, 2, 0));
		assertThat(this.judge.judge(window(2000, 1600, 2, 0, 16, 5)).undone()).isNull();
		assertThat(this.knee.known()).isFalse();
	}

	@Test
	void aStepBeyondTheKneeThatPaidOnlyWithinTheNoiseKeepsIt() {
		// 100 tasks against 160: a standard error of 13 %, so +60 % for +60 % threads
		// does not show a step that paid 0.9 of its share beyond the noise.
		this.knee.learn(15, 1500);
		this.judge.take(new Step(Kind.SATURATED, 10, 16, 100, 100, 20, 0));
		assertThat(this.judge.judge(window(200, 160, 20, 0, 16, 5)).undone()).isNull();
		assertThat(this.knee.threads()).isEqualTo(15.0);
	}

	@Test
	void aStepThatDidNotPayWhileThePoolRefusesWorkIsKeptAndTeachesTheKnee() {
		// +33 % threads, throughput 2 % lower, the service time as before: the threads
		// did
		// not wait elsewhere, so the step stays, but growth must stop half beyond 50.
		this.judge.take(new Step(Kind.SATURATED, 51, 68, 66, 66, 300, 0));
		StepJudge.Verdict verdict = this.judge.judge(refusing(240, 64.7, 300, 68, 100, 150));
		assertThat(verdict.undone()).isNull();
		assertThat(verdict.kept()).isNotNull();
		assertThat(this.knee.known()).isTrue();
		assertThat(this.knee.threads()).isCloseTo(51 * 64.7 / 66, within(0.5));
		assertThat(this.knee.cap()).isLessThan(80);
	}

	@Test
	void aStepWhoseThroughputRoseBeyondItsNoiseCrossedTheKneeFromBelowAndFoundIt() {
		// S3: 6 → 9 threads on a downstream that admits 8, +33 % for +50 % threads: the
		// step began below the knee, which lies near 8, and no probe down starts near it.
		this.judge.take(new Step(Kind.SATURATED, 6, 9, 3000, 3000, 20, 0));
		assertThat(this.judge.judge(window(6000, 4000, 20, 0, 9, 5)).undone()).isNull();
		assertThat(this.knee.threads()).isCloseTo(8, within(0.01));
		assertThat(this.knee.bound()).isFalse();
		assertThat(this.knee.near(9)).isTrue();
	}

	@Test
	void aStepWhoseThroughputRoseWithinItsNoiseTeachesOnlyABound() {
		// 100 tasks a window: a standard error of 14 %, so +10 % may be a step that
		// began above the knee.
		this.judge.take(new Step(Kind.SATURATED, 40, 60, 100, 100, 20, 0));
		assertThat(this.judge.judge(refusing(200, 110, 20, 60, 100, 50)).undone()).isNull();
		assertThat(this.knee.threads()).isCloseTo(44, within(0.01));
		assertThat(this.knee.bound()).isTrue();
		assertThat(this.knee.near(44)).isFalse();
	}

	@Test
	void aStepFromAboveAKneeThatIsOnlyABoundThatDidNotPayKeepsTheLowerKnee() {
		this.knee.atMost(40, 1000, false);
		// The same step from 51, above a bound of 40: it says the knee is below 50,
		// which was known.
		this.judge.take(new Step(Kind.SATURATED, 51, 68, 66, 66, 300, 0));
		StepJudge.Verdict verdict = this.judge.judge(refusing(240, 64.7, 300, 68, 100, 150));
		assertThat(verdict.kept()).isNotNull();
		assertThat(this.knee.threads()).isEqualTo(40);
		assertThat(this.knee.bound()).isTrue();
	}

	@Test
	void aStepFromBeyondAFoundKneeThatDidNotPayIsUndoneThoughThePoolRefusesWork() {
		// A probe found a knee of 20 and left the pool at 23, a tenth beyond it; 23 → 30
		// served as much, on a thousand tasks a window (a standard error of 4.5 %).
		this.knee.learn(20, 1000);
		this.judge.take(new Step(Kind.SATURATED, 23, 30, 1000, 1000, 300, 0));
		Decision revert = this.judge.judge(refusing(2000, 1000, 300, 30, 100, 900)).undone();
		assertThat(revert.action()).isEqualTo(Action.REVERT);
		assertThat(revert.to()).isEqualTo(23);
		assertThat(revert.cause()).isEqualTo(new NoGain(0, 7 / 23.0, Duration.ofSeconds(30)));
		// A rest that the refusals do not cut short.
		assertThat(this.judge.wastedRest()).isTrue();
		assertThat(this.knee.threads()).isEqualTo(20);
	}

	@Test
	void aStepFromBeyondAFoundKneeIsJudgedAgainWhileItsNoiseCannotTellAndUndoneAfterThreeWindows() {
		// 66 tasks a window: a standard error of 17 %, within which −2 % for +30 %
		// threads may still be half its share.
		this.knee.learn(20, 66);
		this.judge.take(new Step(Kind.SATURATED, 23, 30, 66, 66, 300, 0));
		assertThat(this.judge.judge(refusing(240, 64.7, 300, 30, 100, 150)).undone().cause())
			.isInstanceOf(Judging.class);
		assertThat(this.judge.judge(refusing(240, 64.7, 300, 30, 100, 150)).undone().cause())
			.isInstanceOf(Judging.class);
		Decision third = this.judge.judge(refusing(240, 64.7, 300, 30, 100, 150)).undone();
		assertThat(third.action()).isEqualTo(Action.REVERT);
		assertThat(third.to()).isEqualTo(23);
	}

	@Test
	void aStepFromBeyondAFoundKneeThatPaidHalfItsShareIsKept() {
		// A knee learnt too low: +16 % for +30 % threads, on a thousand tasks a window.
		this.knee.learn(20, 1000);
		this.judge.take(new Step(Kind.SATURATED, 23, 30, 1000, 1000, 300, 0));
		StepJudge.Verdict verdict = this.judge.judge(refusing(2000, 1160, 300, 30, 100, 840));
		assertThat(verdict.undone()).isNull();
		assertThat(verdict.kept()).isNotNull();
	}

	@Test
	void aSurgeMovesAPendingSurgeStepAndReplacesAnyOtherStep() {
		this.judge.surge(14, new Step(Kind.SURGE, 10, 14, 100, 100, 20, 0));
		this.judge.surge(18, new Step(Kind.SURGE, 14, 18, 120, 120, 20, 0));
		assertThat(this.judge.judge(window(200, 150, 20, 0, 18, 5)).kept()).isEqualTo(new KeptStep(10, 18, 0.5, false));
		this.judge.take(new Step(Kind.SATURATED, 10, 15, 100, 100, 20, 0));
		this.judge.surge(20, new Step(Kind.SURGE, 15, 20, 120, 120, 20, 0));
		assertThat(this.judge.judge(window(200, 150, 20, 0, 20, 5)).kept())
			.isEqualTo(new KeptStep(15, 20, 0.25, false));
	}

	@Test
	void afterAStepThatDidNotPayTheNextStepIsASmallProbeOnce() {
		assertThat(this.judge.limit(20, 30)).isEqualTo(30);
		this.judge.blockGrowth(false);
		assertThat(this.judge.limit(20, 30)).isEqualTo(22);
		assertThat(this.judge.limit(20, 30)).isEqualTo(30);
		this.judge.blockGrowth(false);
		assertThat(this.judge.limit(5, 30)).isEqualTo(6);
		this.judge.blockGrowth(false);
		assertThat(this.judge.limit(20, 21)).isEqualTo(21);
	}

	@Test
	void aShortfallWithinTheMeasuredNoiseIsJudgedAgainWhereCountingAloneWouldRevertIt() {
		// A million tasks a second: the count's own noise is a thousandth. The windows
		// at 10 threads swung ±20 %: a step that gained nothing in one window is within
		// that.
		WindowNoise throughputs = new WindowNoise();
		StepJudge noisy = new StepJudge(this.clock, this.knee, throughputs, new WindowNoise());
		for (double throughput : new double[] { 800_000, 1_200_000, 800_000, 1_200_000 }) {
			throughputs.add(10, throughput);
		}
		noisy.take(new Step(Kind.SATURATED, 10, 15, 1_200_000, 1_200_000, 20, 0));
		throughputs.add(15, 1_000_000);
		Decision judging = noisy.judge(window(1_500_000, 1_000_000, 20, 0, 15, 5)).undone();
		assertThat(judging.cause()).isEqualTo(new Judging(10, 15, 0));
		// Against the mean of the four windows before it, not the last one alone.
		this.judge.take(new Step(Kind.SATURATED, 10, 15, 1_200_000, 1_200_000, 20, 0));
		assertThat(this.judge.judge(window(1_500_000, 1_000_000, 20, 0, 15, 5)).undone().cause())
			.isInstanceOf(NoGain.class);
	}

	@Test
	void aServiceTimeThatRoseWithinItsNoiseDoesNotSayTheThreadsOnlyWaited() {
		// +50 % threads and the service time up by a third, but it swings by a third
		// window to window: judged on the throughput, within its noise, rather than
		// undone at once.
		WindowNoise serviceTimes = new WindowNoise();
		StepJudge noisy = new StepJudge(this.clock, this.knee, new WindowNoise(), serviceTimes);
		for (double serviceMs : new double[] { 15, 25, 15, 25 }) {
			serviceTimes.add(10, serviceMs);
		}
		noisy.take(new Step(Kind.SATURATED, 10, 15, 100, 100, 20, 0));
		assertThat(noisy.judge(window(120, 101, 26.7, 0, 15, 5)).undone().cause()).isInstanceOf(Judging.class);
		this.judge.take(new Step(Kind.SATURATED, 10, 15, 100, 100, 20, 0));
		assertThat(this.judge.judge(window(120, 101, 26.7, 0, 15, 5)).undone().cause()).isInstanceOf(NoGain.class);
	}

	@Test
	void beforeTheWindowsNoiseIsMeasuredARiseWithinTheNoiseOfItsTasksDoesNotSayTheThreadsOnlyWaited() {
		// A pool's second window, a few long tasks among many short ones: +120 % threads,
		// the service time up by two thirds over 41 and 58 tasks, whose means may differ
		// by 20 % (√(1/41 + 1/58)) when each task's time varies by its mean.
		StepJudge first = new StepJudge(this.clock, this.knee);
		first.take(new Step(Kind.STAFFING, 5, 11, 41, 41, 135, 233));
		assertThat(first.judge(window(191, 58, 226, 1000, 11, 276)).undone()).isNull();
		// The same rise over thousands of tasks says they only waited.
		StepJudge many = new StepJudge(this.clock, this.knee);
		many.take(new Step(Kind.STAFFING, 5, 11, 4100, 4100, 135, 233));
		assertThat(many.judge(window(19100, 5800, 226, 1000, 11, 276)).undone().action()).isEqualTo(Action.REVERT);
	}

	@Test
	void aWindowRefusingMoreThanATwentiethHalvesARestAfterThreadsThatOnlyWaitedWhileChangesAreLeft() {
		ChangeBudget changes = new ChangeBudget(this.clock);
		this.judge.restGrowth();
		this.judge.refused(refusing(100, 95, 20, 10, 5, 5), changes);
		assertThat(this.judge.remaining()).isEqualTo(Duration.ofSeconds(30));
		this.judge.refused(refusing(100, 94, 20, 10, 5, 6), changes);
		assertThat(this.judge.remaining()).isEqualTo(Duration.ofSeconds(15));
		for (int i = 0; i < ChangeBudget.CHANGES; i++) {
			changes.changed();
		}
		this.judge.refused(refusing(100, 94, 20, 10, 5, 6), changes);
		assertThat(this.judge.remaining()).isEqualTo(Duration.ofSeconds(15));
		assertThat(this.judge.wastedRest()).isTrue();
	}

	@Test
	void refusalsDoNotHalveARestForAStepThatDidNotPayNorOneAtOrAboveAKnee() {
		ChangeBudget changes = new ChangeBudget(this.clock);
		// Refusals cut such a rest short in the controller: nothing to halve.
		this.judge.blockGrowth(false);
		this.judge.refused(refusing(100, 50, 20, 10, 5, 50), changes);
		assertThat(this.judge.remaining()).isEqualTo(Duration.ofSeconds(30));
		StepJudge wasted = new StepJudge(this.clock, this.knee);
		wasted.restGrowth();
		this.knee.learn(6, 1000);
		wasted.refused(refusing(100, 50, 20, 6, 5, 50), changes);
		assertThat(wasted.remaining()).isEqualTo(Duration.ofSeconds(30));
		wasted.refused(refusing(100, 50, 20, 5, 5, 50), changes);
		assertThat(wasted.remaining()).isEqualTo(Duration.ofSeconds(15));
	}

	private static WindowNoise steady() {
		WindowNoise serviceTimes = new WindowNoise();
		serviceTimes.add(10, 20);
		serviceTimes.add(10, 20);
		return serviceTimes;
	}

	private static ClosedWindow refusing(double arrivalRate, double throughput, double serviceMs, int size, int queued,
			long refused) {
		return new ClosedWindow(
				PoolControllerTests.window(arrivalRate, throughput, serviceMs, 0, size, queued, null, null), size,
				new PoolBounds(1, 200), 0.2, 300, Double.NaN, refused);
	}

	private static ClosedWindow window(double arrivalRate, double throughput, double serviceMs, double queueWaitMs,
			int size, int queued) {
		return new ClosedWindow(
				PoolControllerTests.window(arrivalRate, throughput, serviceMs, queueWaitMs, size, queued, null, null),
				size, BOUNDS, 0.2, 20, Double.NaN);
	}

}
