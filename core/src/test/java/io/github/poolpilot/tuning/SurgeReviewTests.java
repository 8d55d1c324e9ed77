package io.github.poolpilot.tuning;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.Slowdown;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SurgeReview}: a surge judged on the service time of the windows after
 * it.
 *
 * @author poolpilot authors
 */
class SurgeReviewTests {

	private static final PoolBounds BOUNDS = new PoolBounds(1, 300);

	@Test
	void aSurgeWhoseThreadsOnlyWaitIsHeldOneWindowAndThenCutBackToATenthBeyondXS0() {
		// 1 → 14 threads for 133/s of 50 ms calls through a downstream that serves
		// 100/s: the service time is 140 ms, 2.8× its base.
		Step surge = surge(1, 14, Double.NaN);
		surge.measure(100, 100);
		Decision first = SurgeReview.review(surge, window(14, 140), 0);
		assertThat(first.action()).isEqualTo(Action.HOLD);
		assertThat(first.cause()).isEqualTo(new Slowdown(2.8, 50));
		surge.measure(100, 100);
		Decision second = SurgeReview.review(surge, window(14, 140), 0);
		// X·S₀ = 100/s · 50 ms = 5 threads, a tenth beyond: 6.
		assertThat(second.action()).isEqualTo(Action.SHRINK);
		assertThat(second.to()).isEqualTo(6);
	}

	@Test
	void aSurgeWhoseServiceTimeDidNotRiseFromBeforeItIsKept() {
		// A mix of tasks keeps the service time at 2× its base whatever the size: the
		// first window holds to look again, the second keeps the surge.
		Step surge = surge(4, 14, 100);
		surge.measure(100, 100);
		assertThat(SurgeReview.review(surge, window(14, 120), 0).action()).isEqualTo(Action.HOLD);
		surge.measure(100, 100);
		assertThat(SurgeReview.review(surge, window(14, 120), 0)).isNull();
	}

	@Test
	void aRiseWithinTheServiceTimesNoiseHoldsTheFirstWindowAndKeepsTheSurgeOnTheSecond() {
		Step surge = surge(1, 14, Double.NaN);
		surge.measure(100, 100);
		// The first window's tasks began before the surge's threads met the downstream's
		// line: 2.8× its base holds the pool to look again, whatever the noise.
		assertThat(SurgeReview.review(surge, window(14, 140), 0.7).action()).isEqualTo(Action.HOLD);
		surge.measure(100, 100);
		// 2.8× its base, less two standard errors of 0.7: a rise of 0.4, short of the 0.5
		// that says the threads only waited.
		assertThat(SurgeReview.review(surge, window(14, 140), 0.7)).isNull();
		assertThat(SurgeReview.review(surge, window(14, 140), 0.6)).isNotNull();
	}

	@Test
	void aFirstWindowWithinOneAndAHalfItsBaseKeepsTheSurge() {
		Step surge = surge(1, 14, Double.NaN);
		surge.measure(100, 100);
		assertThat(SurgeReview.review(surge, window(14, 75), 0)).isNull();
	}

	@Test
	void aCutOfAQuarterOrLessIsLeftToTheSlowdownRule() {
		// X·S₀ = 5 threads, a tenth beyond 6, but never below the 10 the surge began at.
		Step surge = surge(10, 12, Double.NaN);
		surge.measure(100, 100);
		surge.measure(100, 100);
		assertThat(SurgeReview.review(surge, window(12, 120), 0)).isNull();
		// The same window after a surge from 1 is cut: only the quarter kept it.
		Step fromOne = surge(1, 12, Double.NaN);
		fromOne.measure(100, 100);
		fromOne.measure(100, 100);
		Decision cut = SurgeReview.review(fromOne, window(12, 120), 0);
		assertThat(cut.action()).isEqualTo(Action.SHRINK);
		assertThat(cut.to()).isEqualTo(6);
	}

	@Test
	void aSurgeWhoseSlowdownItsOwnCpuTimeAccountsForIsKept() {
		// 1 → 8 threads of 19.1 ms of CPU time and 44.5 ms blocked, on 2 cores, started
		// together from a full queue: they share the cores, 121 ms each, and serve 66/s
		// where one thread served 16/s. X·S₀ = 4.2 threads would serve less.
		Step surge = surge(1, 8, 63.5);
		surge.measure(66, 66);
		assertThat(SurgeReview.review(surge, ClosedWindowTests.onCores(8, 121, 19.1, 2), 0).action())
			.isEqualTo(Action.HOLD);
		surge.measure(66, 66);
		assertThat(SurgeReview.review(surge, ClosedWindowTests.onCores(8, 121, 19.1, 2), 0)).isNull();
		// The same slowdown with 0.5 ms of CPU time is a wait elsewhere: cut to 5.
		Decision cut = SurgeReview.review(surge, ClosedWindowTests.onCores(8, 121, 0.5, 2), 0);
		assertThat(cut.action()).isEqualTo(Action.SHRINK);
		assertThat(cut.to()).isEqualTo(5);
	}

	private static Step surge(int from, int to, double serviceMsBefore) {
		return new Step(Step.Kind.SURGE, from, to, 0, 0, serviceMsBefore, 0);
	}

	private static ClosedWindow window(int size, double serviceMs) {
		return new ClosedWindow(PoolControllerTests.window(133, 100, serviceMs, size, 100, null), size, BOUNDS, 0.1, 50,
				90);
	}

}
