package io.github.poolpilot.tuning;

import java.time.Duration;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.testsupport.FakeClock;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.ProbeFell;
import io.github.poolpilot.tuning.Decision.Cause.ProbeUnclear;
import io.github.poolpilot.tuning.Decision.Cause.ProbingDown;
import io.github.poolpilot.tuning.ProbeOutcome.Verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

/**
 * Tests for {@link DownProbe} and the {@link Knee} it learns, at their edges.
 *
 * @author poolpilot authors
 */
class DownProbeTests {

	private static final PoolBounds BOUNDS = new PoolBounds(1, 64);

	private final FakeClock clock = new FakeClock();

	private final Knee knee = new Knee(this.clock);

	@Test
	void aPoolOfferedExactlyWhatItServesIsProbedAndOneOfferedLessIsNot() {
		Decision probe = new DownProbe(this.clock).start(window(100, 100, 20, 9.0, 0.5), null, this.knee);
		assertThat(probe.action()).isEqualTo(Action.SHRINK);
		assertThat(probe.from()).isEqualTo(20);
		assertThat(probe.to()).isEqualTo(15);
		assertThat(new DownProbe(this.clock).start(window(99.9, 100, 20, 9.0, 0.5), null, this.knee)).isNull();
	}

	@Test
	void aProbeNeverGoesBelowTheThreadsTheCpuTimeAloneKeepsBusy() {
		// 10 busy threads, a fifth of their time on the CPU: 8 threads at least, where a
		// quarter fewer would be 7.
		assertThat(new DownProbe(this.clock).start(window(400, 400, 10, 0.25, 0.5), null, this.knee).to()).isEqualTo(8);
		// Half of it on the CPU: no probe below 10.
		assertThat(new DownProbe(this.clock).start(window(100, 100, 10, 0.0, 0.5), null, this.knee)).isNull();
	}

	@Test
	void withTheCpuBusyAndItsShareUnknownAProbeWaitsBeyondTheCpuLimitOnly() {
		assertThat(new DownProbe(this.clock).start(window(100, 100, 20, null, 0.5), null, this.knee).to())
			.isEqualTo(15);
		assertThat(new DownProbe(this.clock).start(window(100, 100, 20, null, 0.9), null, this.knee).to())
			.isEqualTo(15);
		assertThat(new DownProbe(this.clock).start(window(100, 100, 20, null, 0.91), null, this.knee)).isNull();
	}

	@Test
	void aProbeIsJudgedByTheSizeThePoolReallyTook() {
		DownProbe probe = new DownProbe(this.clock);
		assertThat(probe.judge((window(100, 100, 20, 9.0, 0.5)))).isNull();
		probe.start(window(100, 100, 20, 9.0, 0.5), null, this.knee);
		probe.applied(15);
		ProbeOutcome kept = probe.judge((window(100, 100, 15, 9.0, 0.5)));
		assertThat(kept.to()).isEqualTo(15);
		assertThat(kept.change()).isZero();
		assertThat(kept.fell()).isFalse();
		probe.start(window(100, 100, 20, 9.0, 0.5), null, this.knee);
		probe.applied(12);
		ProbeOutcome fell = probe.judge((window(100, 80, 12, 9.0, 0.5)));
		assertThat(fell.from()).isEqualTo(20);
		assertThat(fell.to()).isEqualTo(12);
		assertThat(fell.change()).isCloseTo(-0.2, offset(1e-9));
		assertThat(fell.fell()).isTrue();
		probe.start(window(100, 100, 20, 9.0, 0.5), null, this.knee);
		probe.applied(20);
		assertThat(probe.judge((window(100, 100, 20, 9.0, 0.5)))).isNull();
	}

	@Test
	void aProbeThatFellGoesBackToATenthBeyondTheKneeAtMostWhereItStarted() {
		DownProbe probe = new DownProbe(this.clock);
		// 100 per second at 50 ms uncongested: the knee is 5 threads, and 6 a tenth
		// beyond; 4 threads of 50 ms serve 80 per second.
		ProbeOutcome outcome = new ProbeOutcome(10, 4, 100, -0.2, true, false, Verdict.JUDGED);
		Decision back = probe.fell((window(100, 80, 4, 9.0, 0.5)), outcome, 50, this.knee);
		assertThat(back.action()).isEqualTo(Action.REVERT);
		assertThat(back.to()).isEqualTo(6);
		assertThat(this.knee.threads()).isCloseTo(5.0, offset(1e-9));
		Decision atMostFrom = probe.fell((window(100, 80, 4, 9.0, 0.5)),
				new ProbeOutcome(5, 4, 100, -0.2, true, false, Verdict.JUDGED), 50, this.knee);
		assertThat(atMostFrom.to()).isEqualTo(5);
	}

	@Test
	void aKneeIsNearUpToAQuarterAboveItAndForgottenAfterTheLongestRest() {
		assertThat(this.knee.known()).isFalse();
		assertThat(this.knee.cap()).isEqualTo(Integer.MAX_VALUE);
		this.knee.learn(8, 100);
		assertThat(this.knee.near(10)).isTrue();
		assertThat(this.knee.near(11)).isFalse();
		assertThat(this.knee.cap()).isEqualTo(12);
		this.clock.advance(Backoff.LONGEST.minus(Duration.ofNanos(1)));
		assertThat(this.knee.known()).isTrue();
		this.clock.advance(Duration.ofNanos(1));
		assertThat(this.knee.known()).isFalse();
		assertThat(this.knee.near(1)).isFalse();
	}

	@Test
	void aProbeIsJudgedAgainstTheMeanOfTheWindowsAtTheSizeItStartsFrom() {
		WindowNoise throughputs = new WindowNoise();
		DownProbe probe = new DownProbe(this.clock, throughputs);
		throughputs.add(20, 1060);
		throughputs.add(20, 1240);
		assertThat(probe.start(window(1400, 1240, 20, 9.0, 0.5), null, this.knee).cause())
			.isEqualTo(new ProbingDown(1150, 100));
		throughputs.add(15, 1300);
		assertThat(probe.judge(window(1400, 1300, 15, 9.0, 0.5)).fell()).isFalse();
		// The next is judged against the windows at 15 threads only.
		assertThat(probe.start(window(1400, 1300, 15, 9.0, 0.5), null, this.knee).cause())
			.isEqualTo(new ProbingDown(1300, 100));
	}

	@Test
	void aProbeThatFollowsOneThatHeldMustHoldWhereTheChainBegan() {
		WindowNoise throughputs = new WindowNoise();
		DownProbe probe = new DownProbe(this.clock, throughputs);
		throughputs.add(20, 1000);
		probe.start(window(1400, 1000, 20, 9.0, 0.5), null, this.knee);
		throughputs.add(15, 960);
		assertThat(probe.judge(window(1400, 960, 15, 9.0, 0.5)).fell()).isFalse();
		// 4 % less held; the next probe must hold the chain's 1000, not the 960 at 15.
		assertThat(probe.start(window(1400, 960, 15, 9.0, 0.5), null, this.knee).cause())
			.isEqualTo(new ProbingDown(1000, 100));
		throughputs.add(11, 920);
		assertThat(probe.judge(window(1400, 920, 11, 9.0, 0.5)).fell()).isTrue();
	}

	@Test
	void aProbeThatFollowsOneThatHeldMustHoldTheMeanOfTheChainsWindowsNotItsBest() {
		WindowNoise throughputs = new WindowNoise();
		DownProbe probe = new DownProbe(this.clock, throughputs);
		throughputs.add(20, 1000);
		probe.start(window(1400, 1000, 20, 9.0, 0.5), null, this.knee);
		// A window 10 % above: what a downstream serves, and a little more by chance.
		throughputs.add(15, 1100);
		assertThat(probe.judge(window(1400, 1100, 15, 9.0, 0.5)).fell()).isFalse();
		assertThat(probe.start(window(1400, 1100, 15, 9.0, 0.5), null, this.knee).cause())
			.isEqualTo(new ProbingDown(1050, 100));
		// 1000 again is 4.8 % below the chain's mean, where it was 9 % below its best.
		throughputs.add(11, 1000);
		ProbeOutcome held = probe.judge(window(1400, 1000, 11, 9.0, 0.5));
		assertThat(held.verdict()).isEqualTo(Verdict.JUDGED);
		assertThat(held.fell()).isFalse();
		// The chain's windows: the first level's 1000, then 1100 and 1000.
		assertThat(probe.start(window(1400, 1000, 11, 9.0, 0.5), null, this.knee).cause())
			.isEqualTo(new ProbingDown(3100.0 / 3, 100));
	}

	@Test
	void onceTwoProbesOfAChainHeldTheNextHalvesAPoolOfSixteenThreadsOrMore() {
		WindowNoise throughputs = new WindowNoise();
		DownProbe probe = new DownProbe(this.clock, throughputs);
		int[] sizes = { 64, 48, 36, 18, 9, 6 };
		for (int i = 0; i + 1 < sizes.length; i++) {
			throughputs.add(sizes[i], 1000);
			if (i > 0) {
				assertThat(probe.judge(window(1400, 1000, sizes[i], null, 0.5)).fell()).isFalse();
			}
			// A quarter, a quarter, then half while the pool has 16 threads or more.
			assertThat(probe.start(window(1400, 1000, sizes[i], null, 0.5), null, this.knee).to())
				.as("the probe from %d", sizes[i])
				.isEqualTo(sizes[i + 1]);
		}
		// A window without a probe ends the chain: the next one takes a quarter again.
		throughputs.add(6, 1000);
		probe.judge(window(1400, 1000, 6, null, 0.5));
		assertThat(probe.judge(window(1400, 1000, 6, null, 0.5))).isNull();
		assertThat(probe.start(window(1400, 1000, 40, null, 0.5), null, this.knee).to()).isEqualTo(30);
	}

	@Test
	void aFallWithinOneStandardErrorIsJudgedOverMoreWindows() {
		// 400 tasks a window, before and after: a standard error of 7.1 %, so a 25 %
		// loss stands out of it, but a 6 % fall does not.
		DownProbe probe = probeFrom20(400);
		assertThat(probe.judge(window(400, 376, 15, 9.0, 0.5)).verdict()).isEqualTo(Verdict.AGAIN);
		// A second window as before: 3 % less over both, held.
		ProbeOutcome held = probe.judge(window(400, 400, 15, 9.0, 0.5));
		assertThat(held.verdict()).isEqualTo(Verdict.JUDGED);
		assertThat(held.fell()).isFalse();
		// Three windows 6 % below: 5.8 % of error, a fall.
		DownProbe falling = probeFrom20(400);
		assertThat(falling.judge(window(400, 376, 15, 9.0, 0.5)).verdict()).isEqualTo(Verdict.AGAIN);
		assertThat(falling.judge(window(400, 376, 15, 9.0, 0.5)).verdict()).isEqualTo(Verdict.AGAIN);
		ProbeOutcome fell = falling.judge(window(400, 376, 15, 9.0, 0.5));
		assertThat(fell.verdict()).isEqualTo(Verdict.JUDGED);
		assertThat(fell.fell()).isTrue();
	}

	@Test
	void aKneeDisprovedEndsTheRestAfterTheProbeThatTaughtIt() {
		DownProbe probe = probeFrom20(1000);
		ProbeOutcome fell = probe.judge(window(1000, 600, 15, 9.0, 0.5));
		assertThat(fell.fell()).isTrue();
		probe.fell(window(1000, 600, 15, 9.0, 0.5), fell, 100, this.knee);
		assertThat(probe.start(window(1000, 1000, 9, 9.0, 0.5), null, new Knee(this.clock))).isNull();
		probe.kneeDisproved();
		assertThat(probe.start(window(1000, 1000, 9, 9.0, 0.5), null, new Knee(this.clock)).to()).isEqualTo(6);
	}

	@Test
	void theThroughputOfAProbeThatFellStaysOutOfTheBaseline() {
		DownProbe probe = new DownProbe(this.clock);
		probe.judge(window(1000, 1000, 20, 9.0, 0.5));
		probe.start(window(1000, 1000, 20, 9.0, 0.5), null, this.knee);
		assertThat(probe.judge(window(1000, 600, 15, 9.0, 0.5)).fell()).isTrue();
		assertThat(probe.start(window(1000, 1000, 20, 9.0, 0.5), null, this.knee).cause())
			.isEqualTo(new ProbingDown(1000, 100));
	}

	@Test
	void aProbeWithinTheNoiseOfTheTasksThatEndedIsJudgedAgain() {
		// 70 tasks a window at 15 threads against four of 70 at 20: a standard error of
		// √(1/70 + 1/280), 13.4 % after one window, so the 25 % a probe below the knee
		// would lose is within two of them; after two windows, 10.4 %, it stands out.
		DownProbe probe = probeFrom20(new WindowNoise(), 70, 4);
		ProbeOutcome first = probe.judge(window(70, 72, 15, 9.0, 0.5));
		assertThat(first.verdict()).isEqualTo(Verdict.AGAIN);
		assertThat(probe.judging()).isTrue();
		ProbeOutcome second = probe.judge(window(70, 68, 15, 9.0, 0.5));
		assertThat(second.verdict()).isEqualTo(Verdict.JUDGED);
		assertThat(second.fell()).isFalse();
	}

	@Test
	void aProbeWhoseWindowsTurnNoisyIsJudgedAgainThenUnclear() {
		WindowNoise throughputs = new WindowNoise();
		DownProbe probe = probeFrom20(throughputs, 70, 4);
		// The windows since vary by 40 % around their median: a relative variance of
		// 0.064 a window over the windows kept, a standard error of 19 % over three
		// windows against four, within which a quarter's loss would not stand out.
		ProbeOutcome third = judgeNoisily(probe, throughputs);
		assertThat(third.verdict()).isEqualTo(Verdict.UNCLEAR);
		assertThat(third.change()).isCloseTo(0, offset(1e-9));
		Decision back = probe.unclear(window(70, 70, 15, 9.0, 0.5), third);
		assertThat(back.action()).isEqualTo(Action.REVERT);
		assertThat(back.to()).isEqualTo(20);
		assertThat(back.cause()).isEqualTo(new ProbeUnclear(0, Duration.ofSeconds(5)));
		assertThat(this.knee.known()).isFalse();
	}

	@Test
	void theNextProbeWaitsFiveSecondsAfterAnUnclearOneAndThirtyAfterOneThatFell() {
		WindowNoise throughputs = new WindowNoise();
		DownProbe probe = probeFrom20(throughputs, 70, 4);
		probe.unclear(window(70, 70, 15, 9.0, 0.5), judgeNoisily(probe, throughputs));
		quiet(throughputs, 70);
		this.clock.advance(Duration.ofSeconds(4));
		assertThat(probe.start(window(70, 70, 20, 9.0, 0.5), null, this.knee)).isNull();
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(probe.start(window(70, 70, 20, 9.0, 0.5), null, this.knee)).isNotNull();
		// A second unclear probe waits no longer than the first.
		assertThat(probe.unclear(window(70, 70, 15, 9.0, 0.5), judgeNoisily(probe, throughputs)).cause())
			.isEqualTo(new ProbeUnclear(0, Duration.ofSeconds(5)));
		quiet(throughputs, 70);
		this.clock.advance(Duration.ofSeconds(5));
		assertThat(probe.start(window(70, 70, 20, 9.0, 0.5), null, this.knee)).isNotNull();
		// Nor did they lengthen the rest after a fall: the first is 30 s.
		probe.judge(window(80, 40, 15, 9.0, 0.5));
		probe.judge(window(80, 40, 15, 9.0, 0.5));
		ProbeOutcome fell = probe.judge(window(80, 40, 15, 9.0, 0.5));
		assertThat(fell.fell()).isTrue();
		Decision back = probe.fell(window(80, 40, 15, 9.0, 0.5), fell, 100, this.knee);
		assertThat(back.cause()).isInstanceOfSatisfying(ProbeFell.class,
				(cause) -> assertThat(cause.blocked()).isEqualTo(Duration.ofSeconds(30)));
	}

	@Test
	void aProbeWaitsWhileTheWindowsAreTooNoisyToReadIt() {
		// Windows 30 % from their median, as a process warming up serves more each
		// second: a relative variance of 0.06 a window, a standard error of 19 % over
		// three windows against four, within which a quarter's loss would not stand out.
		WindowNoise throughputs = new WindowNoise();
		for (double throughput : new double[] { 700, 1000, 1300, 1000 }) {
			throughputs.add(20, throughput);
		}
		DownProbe probe = new DownProbe(this.clock, throughputs);
		assertThat(probe.start(window(1400, 1000, 20, 9.0, 0.5), null, this.knee)).isNull();
		assertThat(probe.judging()).isFalse();
		quiet(throughputs, 1000);
		assertThat(probe.start(window(1400, 1000, 20, 9.0, 0.5), null, this.knee).to()).isEqualTo(15);
	}

	@Test
	void aProbeWaitsWhileTooFewTasksEndToReadIt() {
		// 80 tasks in one window at 20 threads: a standard error of √(1/240 + 1/80), 13 %
		// after three windows, within which a quarter's loss would not stand out. Four
		// windows of them make it 9.1 %.
		assertThat(probeFrom20(new WindowNoise(), 80, 1).judging()).isFalse();
		assertThat(probeFrom20(new WindowNoise(), 80, 4).judging()).isTrue();
		// 20 tasks a window never tell a quarter apart: √(1/60 + 1/80), 17 %.
		assertThat(probeFrom20(new WindowNoise(), 20, 4).judging()).isFalse();
	}

	/**
	 * Judge a probe from windows of 70 tasks over three windows of as many, while the
	 * pool's windows vary by 40 % around their median.
	 */
	private ProbeOutcome judgeNoisily(DownProbe probe, WindowNoise throughputs) {
		ProbeOutcome outcome = null;
		for (double noisy : new double[] { 42, 98, 70 }) {
			throughputs.add(15, noisy);
			outcome = probe.judge(window(70, 70, 15, 9.0, 0.5));
			assertThat(outcome).isNotNull();
		}
		return outcome;
	}

	/**
	 * Fill the pool's windows with quiet ones at 20 threads.
	 */
	private static void quiet(WindowNoise throughputs, double throughput) {
		for (int i = 0; i < WindowNoise.WINDOWS; i++) {
			throughputs.add(20, throughput);
		}
	}

	/**
	 * A probe down from 20 threads compared with {@code windows} windows of {@code tasks}
	 * each at that size.
	 */
	private DownProbe probeFrom20(WindowNoise throughputs, int tasks, int windows) {
		for (int i = 0; i < windows; i++) {
			throughputs.add(20, tasks);
		}
		DownProbe probe = new DownProbe(this.clock, throughputs);
		probe.start(window(tasks, tasks, 20, 9.0, 0.5), null, this.knee);
		return probe;
	}

	@Test
	void aProbeWithEnoughTasksIsJudgedOnOneWindow() {
		DownProbe probe = probeFrom20(1000);
		// √(1/1000 + 1/1000) is 4.5 %: a 25 % loss stands out of it.
		ProbeOutcome held = probe.judge(window(1000, 990, 15, 9.0, 0.5));
		assertThat(held.verdict()).isEqualTo(Verdict.JUDGED);
		assertThat(held.fell()).isFalse();
	}

	@Test
	void aProbeThatFellLearnsTheKneeFromItsOwnLossWhenTheBaseServiceTimeSaysLess() {
		// X·S₀ says 5 threads (100 per second at a base of 50 ms, as a web server's pool
		// measures in a quiet mix of cheap requests), but 9 threads kept only 70 %: the
		// knee is at least 9 / 0.7 = 12.9 threads, so back to the 12 the probe left.
		Decision back = new DownProbe(this.clock).fell(window(100, 70, 9, 9.0, 0.5),
				new ProbeOutcome(12, 9, 100, -0.3, true, false, Verdict.JUDGED), 50, this.knee);
		assertThat(back.to()).isEqualTo(12);
		assertThat(this.knee.threads()).isCloseTo(9 / 0.7, offset(1e-9));
	}

	@Test
	void aProbeThatFellGoesBackAtLeastOneThreadAboveTheSizeItTried() {
		// Both estimates put the knee at or below the 9 the probe tried: X·S₀ says 5,
		// and a loss too small to measure says 9.
		Decision back = new DownProbe(this.clock).fell(window(100, 100, 9, 9.0, 0.5),
				new ProbeOutcome(12, 9, 100, 0, true, false, Verdict.JUDGED), 50, this.knee);
		assertThat(back.to()).isEqualTo(10);
	}

	/**
	 * A probe down from 20 threads that finished {@code tasks} a window at that size.
	 */
	private DownProbe probeFrom20(int tasks) {
		return probeFrom20(new WindowNoise(), tasks, 1);
	}

	/**
	 * A closed window of tasks of 100 ms with 5 queued.
	 */
	private static ClosedWindow window(double arrivalRate, double throughput, int size, @Nullable Double waitCompute,
			double cpuLoad) {
		PoolSnapshot snapshot = PoolControllerTests.window(arrivalRate, throughput, 100, 0, size, 5, null, waitCompute);
		return new ClosedWindow(snapshot, size, BOUNDS, cpuLoad, Double.NaN, Double.NaN);
	}

}
