package io.github.poolpilot.tuning;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.testsupport.FakeClock;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.CutBelowKnee;
import io.github.poolpilot.tuning.Decision.Cause.CutDraining;
import io.github.poolpilot.tuning.Decision.Cause.Slowdown;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Tests for {@link SlowdownRule} at its edges: a pool whose tasks took 100 ms on 6
 * threads now take 300 ms on more at an unchanged 100 tasks a second, so that X·S is 10
 * threads.
 *
 * @author poolpilot authors
 */
class SlowdownRuleTests {

	private final Knee knee = new Knee(new FakeClock());

	private final WindowNoise serviceTimes = new WindowNoise();

	private final WindowNoise throughputs = new WindowNoise();

	private final SlowdownRule rule = new SlowdownRule(this.knee, this.serviceTimes, this.throughputs);

	@Test
	void aCutGoesToATenthBeyondTheThreadsTheThroughputKeepsBusyAtTheSmallerSizesServiceTime() {
		measured(6, 100);
		Decision cut = apply(12, 300);
		assertThat(cut.action()).isEqualTo(Action.SHRINK);
		assertThat(cut.to()).isEqualTo(11);
		assertThat(cut.cause()).isEqualTo(new Slowdown(3, 100));
	}

	@Test
	void aCutTakesAQuarterAtMost() {
		measured(6, 100);
		assertThat(apply(20, 300).to()).isEqualTo(15);
	}

	@Test
	void aCutGoesNoLowerThanTheSizeMeasuredFaster() {
		measured(14, 100);
		assertThat(apply(16, 300).to()).isEqualTo(14);
	}

	@Test
	void aServiceTimeThatRoseAtOneSizeIsNoSlowdown() {
		// A downstream slower for every caller, or more expensive tasks: the threads do
		// not wait for one another.
		measured(12, 100);
		assertThat(apply(12, 300)).isNull();
	}

	@Test
	void aServiceTimeOverOneAndAHalfOfASmallerSizesWithinItsNoiseIsNoSlowdown() {
		// A mix of cheap and expensive tasks: 20 ms in one window, 180 ms in the next.
		this.serviceTimes.add(6, 20);
		this.serviceTimes.add(6, 180);
		assertThat(apply(12, 300)).isNull();
	}

	@Test
	void aSlowdownTheThreadsCpuTimeAccountsForIsNoSlowdown() {
		// 12 threads of 40 ms of CPU time on 2 cores may each take 240 ms longer than
		// alone: the cores, which serve more with more threads until they are busy.
		measured(6, 100);
		this.serviceTimes.add(12, 300);
		assertThat(this.rule.apply(onCores(12, 300, 40), null)).isNull();
		// With 10 ms of CPU time, 60 ms: the threads wait elsewhere.
		assertThat(this.rule.apply(onCores(12, 300, 10), null).to()).isEqualTo(11);
	}

	@Test
	void aPoolThatRefusesWorkIsCutOnlyDownToAKneeSeen() {
		measured(6, 100);
		assertThat(apply(20, 300, 10)).isNull();
		this.knee.learn(16, 100);
		// A tenth beyond the knee: 18.
		assertThat(apply(20, 300, 10).to()).isEqualTo(18);
	}

	@Test
	void aPoolHeldAtItsMinThreadsIsLeftToTheOtherRules() {
		// X·S is 10 threads, but the pool may not go below 12: no cut can tell whether
		// fewer threads would relieve the service time.
		measured(6, 100);
		this.serviceTimes.add(12, 300);
		ClosedWindow atMin = new ClosedWindow(PoolControllerTests.window(100, 100, 300, 0, 12, 5, null, null), 12,
				new PoolBounds(12, 64), 0.5, 100, 100);
		assertThat(this.rule.apply(atMin, null)).isNull();
	}

	@Test
	void aCutThatShortenedTheServiceTimeByMoreThanItsNoiseRelieved() {
		measured(6, 100);
		apply(20, 300);
		assertThat(judge(15, 270)).isNull();
		assertThat(this.rule.relieved()).isTrue();
	}

	@Test
	void aCutThatShortenedTheServiceTimeWithinItsNoiseStandsAndRelieved() {
		// A noisy service time (80 and 120 ms at 6 threads): shortened by a sixth, within
		// its noise, but by more than a tenth, the cut stands, and the pool rests at its
		// smaller size rather than growing back into the threads it took.
		this.serviceTimes.add(6, 80);
		this.serviceTimes.add(6, 120);
		apply(20, 300);
		assertThat(judge(15, 250)).isNull();
		assertThat(this.rule.relieved()).isTrue();
	}

	@Test
	void aCutThatDidNotShortenTheServiceTimeByATenthInTwoWindowsIsUndoneAndTheRuleWaitsForTheSlowdownToEnd() {
		measured(6, 100);
		apply(20, 300);
		assertThat(judge(15, 271).action()).isEqualTo(Action.HOLD);
		assertThat(this.rule.relieved()).isFalse();
		Decision restore = judge(15, 271);
		assertThat(restore.action()).isEqualTo(Action.RESTORE);
		assertThat(restore.to()).isEqualTo(20);
		assertThat(this.rule.relieved()).isFalse();
		assertThat(apply(20, 300)).isNull();
		// Back to what it took on 6 threads, on 10: the rule is on again.
		assertThat(judge(10, 100)).isNull();
		assertThat(apply(16, 300).to()).isEqualTo(12);
	}

	@Test
	void aCutIsJudgedAgainWhileTheTasksThatFinishedBeganBeforeIt() {
		measured(6, 100);
		apply(20, 300);
		// 100 a second at 300 ms keep 30 threads busy on a pool of 15: the tasks that
		// finished began on the 20 threads before the cut, and waited behind them.
		Decision again = judge(15, 300, 100);
		assertThat(again.action()).isEqualTo(Action.HOLD);
		assertThat(again.cause()).isEqualTo(new CutDraining(30, 300));
		// Judged once more, on the next window: just as slow, undone.
		Decision restore = judge(15, 300, 100);
		assertThat(restore.action()).isEqualTo(Action.RESTORE);
		assertThat(restore.to()).isEqualTo(20);
	}

	@Test
	void aCutIsJudgedAgainThoughFewerThreadsWereBusyThanThePoolHas() {
		// 18 busy on 15: on a downstream at its limit the service time shortens only as
		// the calls queued there before the cut drain, and the first window's ends are
		// mostly theirs.
		measured(6, 100);
		apply(20, 300);
		assertThat(judge(15, 300, 60).cause()).isEqualTo(new CutDraining(18, 300));
		assertThat(judge(15, 300, 60).action()).isEqualTo(Action.RESTORE);
	}

	@Test
	void aCutThatShortenedTheServiceTimeOnTheWindowAfterTheDrainingOneStands() {
		measured(6, 100);
		apply(20, 300);
		assertThat(judge(15, 300, 100).action()).isEqualTo(Action.HOLD);
		assertThat(judge(15, 150)).isNull();
		assertThat(this.rule.relieved()).isTrue();
	}

	@Test
	void aCutWatchedForAnotherRuleIsJudgedAsThisRulesOwn() {
		// A surge's overshoot cut from 20 at 300 ms (SurgeReview) back to 13, where the
		// surge began (above a tenth beyond X·S₀, 11): undone when the service time did
		// not shorten by a tenth in two windows, kept when it did.
		this.rule.watch(20, window(20, 300, 0));
		assertThat(judge(13, 271).action()).isEqualTo(Action.HOLD);
		Decision restore = judge(13, 271);
		assertThat(restore.action()).isEqualTo(Action.RESTORE);
		assertThat(restore.to()).isEqualTo(20);
		assertThat(this.rule.relieved()).isFalse();
		this.rule.watch(20, window(20, 300, 0));
		assertThat(judge(13, 270)).isNull();
		assertThat(this.rule.relieved()).isTrue();
	}

	@Test
	void aCutThatShortenedTheServiceTimeButLostThroughputGoesBackToTheKnee() {
		// A surge's overshoot cut from 20 at 300 ms to 6 on a base of cheaper work: the
		// service time fell to the downstream's own 100 ms, and so did the throughput,
		// from 100 to the 60 that 6 threads serve. The knee is 100 a second at 100 ms.
		this.rule.watch(20, window(20, 300, 0));
		Decision back = judge(6, 100, 60);
		assertThat(back.action()).isEqualTo(Action.REVERT);
		assertThat(back.to()).isEqualTo(11);
		assertThat(back.cause()).isEqualTo(new CutBelowKnee(-0.4, 10));
		assertThat(this.knee.threads()).isEqualTo(10);
		assertThat(this.rule.relieved()).isFalse();
	}

	@Test
	void aCutThatLostThroughputWithinItsNoiseStands() {
		// 80 tasks against 100: within two standard errors of their counts.
		this.rule.watch(20, window(20, 300, 0));
		assertThat(judge(6, 100, 80)).isNull();
		assertThat(this.rule.relieved()).isTrue();
		assertThat(this.knee.known()).isFalse();
	}

	@Test
	void aCutToABaseOfCheaperWorkGoesBackToTheKneeThoughItLostWithinTheNoise() {
		// A surge's overshoot cut from 20 at 300 ms to 11, a tenth beyond X·S₀ on a base
		// of 100 ms that a mix's cheaper tasks measured. The pool's own calls now take
		// 140 ms, 1.4× the base, where threads waiting for one another would add a tenth:
		// the base was not this work's. 80 tasks against 100 is within the noise, but
		// lost to too few threads: the knee is 11 · 100/80 threads.
		this.rule.watch(20, window(20, 300, 0));
		Decision back = judge(11, 140, 80);
		assertThat(back.action()).isEqualTo(Action.REVERT);
		assertThat(back.to()).isEqualTo(16);
		assertThat(((CutBelowKnee) back.cause()).kneeThreads()).isCloseTo(13.75, within(1e-9));
		assertThat(this.knee.threads()).isCloseTo(13.75, within(1e-9));
		assertThat(this.rule.relieved()).isFalse();
	}

	@Test
	void aCutToABaseOfCheaperWorkStoppedAtTheMinThreadsGoesBackToTheKnee() {
		// The same cut, stopped at the pool's min-threads, 14, above the 11 that a tenth
		// beyond X·S₀ asks for: its calls at 140 ms are still the pool's own, 11.2
		// threads busy, so the base was not this work's. Back to a tenth beyond X₀·S,
		// 14 threads.
		this.rule.watch(20, window(20, 300, 0));
		Decision back = judge(14, 140, 80, new PoolBounds(14, 64));
		assertThat(back.action()).isEqualTo(Action.REVERT);
		assertThat(back.to()).isEqualTo(16);
		assertThat(((CutBelowKnee) back.cause()).kneeThreads()).isCloseTo(14, within(1e-9));
		assertThat(this.rule.relieved()).isFalse();
	}

	@Test
	void aCutToTheBaseThatLeftTheServiceTimeWithinWhatWaitingAddsStands() {
		// The same cut, its calls at 130 ms: a tenth beyond the knee and the last tasks
		// begun before the cut account for that.
		this.rule.watch(20, window(20, 300, 0));
		assertThat(judge(11, 130, 80)).isNull();
		assertThat(this.rule.relieved()).isTrue();
		assertThat(this.knee.known()).isFalse();
	}

	@Test
	void aCutToTheBaseIsJudgedAgainWhileItsEndsAreTasksBegunBeforeIt() {
		// 200 ms at 80 a second is 16 threads busy in a pool of 11: tasks begun before
		// the
		// cut still end, and the next window's own calls tell.
		this.rule.watch(20, window(20, 300, 0));
		assertThat(judge(11, 200, 80).cause()).isInstanceOf(CutDraining.class);
		assertThat(judge(11, 140, 80).action()).isEqualTo(Action.REVERT);
	}

	@Test
	void aCutToTheBaseIsJudgedOverThreeWindowsAtMost() {
		this.rule.watch(20, window(20, 300, 0));
		assertThat(judge(11, 200, 80).cause()).isInstanceOf(CutDraining.class);
		assertThat(judge(11, 200, 80).cause()).isInstanceOf(CutDraining.class);
		assertThat(judge(11, 200, 80)).isNull();
		assertThat(this.rule.relieved()).isTrue();
	}

	@Test
	void aCutOfTheRulesOwnIsNotJudgedByTheBase() {
		// Cut from 20 to 15 by a quarter, not to the base: the same 140 ms and 80 tasks
		// against 100 stand.
		measured(6, 100);
		assertThat(apply(20, 300).to()).isEqualTo(15);
		assertThat(judge(15, 140, 80)).isNull();
		assertThat(this.rule.relieved()).isTrue();
	}

	/**
	 * Two windows at a size, at a service time.
	 */
	private void measured(int size, double serviceMs) {
		this.serviceTimes.add(size, serviceMs);
		this.serviceTimes.add(size, serviceMs);
	}

	private Decision apply(int size, double serviceMs) {
		return apply(size, serviceMs, 0);
	}

	/**
	 * A window at a size throughout, offered 100 tasks, refusing some.
	 */
	private Decision apply(int size, double serviceMs, long refused) {
		this.serviceTimes.add(size, serviceMs);
		return this.rule.apply(window(size, serviceMs, refused), null);
	}

	/**
	 * A window after a cut, at a size throughout, its threads serving the 100 tasks a
	 * second offered.
	 */
	private Decision judge(int size, double serviceMs) {
		return judge(size, serviceMs, 100);
	}

	private Decision judge(int size, double serviceMs, double throughput) {
		return judge(size, serviceMs, throughput, new PoolBounds(1, 64));
	}

	private Decision judge(int size, double serviceMs, double throughput, PoolBounds bounds) {
		this.serviceTimes.add(size, serviceMs);
		return this.rule
			.judge(new ClosedWindow(PoolControllerTests.window(100, throughput, serviceMs, 0, size, 5, null, null),
					size, bounds, 0.5, 100, 100));
	}

	private static ClosedWindow onCores(int size, double serviceMs, double cpuMs) {
		double waitCompute = (serviceMs - cpuMs) / cpuMs;
		return new ClosedWindow(PoolControllerTests.window(100, 100, serviceMs, 0, size, 5, null, waitCompute), size,
				new PoolBounds(1, 64), 0.5, 2, 100, 100, 0);
	}

	private static ClosedWindow window(int size, double serviceMs, long refused) {
		return new ClosedWindow(PoolControllerTests.window(100, 100, serviceMs, 0, size, 5, null, null), size,
				new PoolBounds(1, 64), 0.5, 100, 100, refused);
	}

}
