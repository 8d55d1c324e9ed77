package io.github.poolpilot.tuning;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.Slowdown;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SlowdownRule} at its edges: a pool whose tasks of 100 ms at base now
 * take 300 ms at an unchanged 100 tasks a second, so that X·S₀ is 10 threads.
 *
 * @author poolpilot authors
 */
class SlowdownRuleTests {

	private final SlowdownRule rule = new SlowdownRule();

	@Test
	void aCutGoesToATenthBeyondTheThreadsTheThroughputKeepsBusyAtTheBaseServiceTime() {
		Decision cut = this.rule.apply(window(12, 300), null);
		assertThat(cut.action()).isEqualTo(Action.SHRINK);
		assertThat(cut.to()).isEqualTo(11);
		assertThat(cut.cause()).isEqualTo(new Slowdown(3, 100));
	}

	@Test
	void aCutTakesAQuarterAtMost() {
		assertThat(this.rule.apply(window(20, 300), null).to()).isEqualTo(15);
	}

	@Test
	void aPoolAlreadyThereIsHeld() {
		Decision hold = this.rule.apply(window(11, 300), null);
		assertThat(hold.action()).isEqualTo(Action.HOLD);
		assertThat(hold.to()).isEqualTo(11);
		assertThat(hold.cause()).isEqualTo(new Slowdown(3, 100));
	}

	@Test
	void aPoolHeldAtItsMinThreadsIsLeftToTheOtherRules() {
		// X·S₀ is 10 threads, but the pool may not go below 12: no cut can tell whether
		// fewer threads would relieve the service time, which may only have changed with
		// the mix of work.
		ClosedWindow atMin = new ClosedWindow(PoolControllerTests.window(100, 100, 300, 0, 12, 5, null, null), 12,
				new PoolBounds(12, 64), 0.5, 100, 100);
		assertThat(this.rule.apply(atMin, null)).isNull();
		// Already at X·S₀ beyond its min-threads, it is held as before.
		ClosedWindow there = new ClosedWindow(PoolControllerTests.window(100, 100, 300, 0, 11, 5, null, null), 11,
				new PoolBounds(11, 64), 0.5, 100, 100);
		assertThat(this.rule.apply(there, null).action()).isEqualTo(Action.HOLD);
	}

	@Test
	void aCutThatShortenedTheServiceTimeByATenthRelieved() {
		this.rule.apply(window(20, 300), null);
		assertThat(this.rule.judge(window(15, 270))).isNull();
		assertThat(this.rule.relieved()).isTrue();
	}

	@Test
	void aCutThatDidNotShortenTheServiceTimeByATenthIsUndoneAndTheRuleWaitsForTheBaseAgain() {
		this.rule.apply(window(20, 300), null);
		Decision restore = this.rule.judge(window(15, 271));
		assertThat(restore.action()).isEqualTo(Action.RESTORE);
		assertThat(restore.to()).isEqualTo(20);
		assertThat(this.rule.relieved()).isFalse();
		assertThat(this.rule.apply(window(20, 300), null)).isNull();
		// Still slower than 1.5× the base: not yet.
		assertThat(this.rule.judge(window(20, 151))).isNull();
		assertThat(this.rule.apply(window(20, 300), null)).isNull();
		// Back to 1.5× the base: the rule is on again.
		assertThat(this.rule.judge(window(20, 150))).isNull();
		assertThat(this.rule.apply(window(20, 300), null).to()).isEqualTo(15);
	}

	@Test
	void aCutWatchedForAnotherRuleIsJudgedAsThisRulesOwn() {
		// A surge's overshoot cut from 20 at 300 ms (SurgeReview): undone when the
		// service
		// time did not shorten by a tenth, kept when it did.
		this.rule.watch(20, 300);
		Decision restore = this.rule.judge(window(6, 271));
		assertThat(restore.action()).isEqualTo(Action.RESTORE);
		assertThat(restore.to()).isEqualTo(20);
		assertThat(this.rule.relieved()).isFalse();
		this.rule.watch(20, 300);
		assertThat(this.rule.judge(window(6, 270))).isNull();
		assertThat(this.rule.relieved()).isTrue();
	}

	private static ClosedWindow window(int size, double serviceMs) {
		return new ClosedWindow(PoolControllerTests.window(100, 100, serviceMs, 0, size, 5, null, null), size,
				new PoolBounds(1, 64), 0.5, 100, 100);
	}

}
