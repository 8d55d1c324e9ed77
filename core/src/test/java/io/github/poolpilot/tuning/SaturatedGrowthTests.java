package io.github.poolpilot.tuning;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.testsupport.FakeClock;
import io.github.poolpilot.tuning.Decision.Action;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link SaturatedGrowth}: a saturated pool with far more threads than its model needs
 * for all it was offered, or than its throughput keeps busy at its base, is crowded, and
 * one a surge sized on an estimate probes down while it refuses.
 *
 * @author poolpilot authors
 */
class SaturatedGrowthTests {

	@Test
	void aPoolWithOverOneAndAHalfTimesTheThreadsItsModelNeedsIsCrowded() {
		// 800 a second at a base of 60 ms need 48 busy threads, staffed 62.
		assertThat(window(150, 0.2).need).isEqualTo(62);
		assertThat(SaturatedGrowth.crowded(window(150, 0.2))).isTrue();
		assertThat(SaturatedGrowth.crowded(window(94, 0.2))).isTrue();
		assertThat(SaturatedGrowth.crowded(window(93, 0.2))).isFalse();
	}

	@Test
	void aPoolWithOverTwiceTheThreadsItsThroughputKeepsBusyAtItsBaseIsCrowded() {
		// The sample's web-server run: 204 a second offered to a downstream that serves
		// 66.7 of 300 ms calls; the model needs threads for every task refused, 74, but
		// the throughput keeps 20 busy at the base.
		assertThat(webRun(102, 0.2).need).isGreaterThan(68);
		assertThat(SaturatedGrowth.crowded(webRun(102, 0.2))).isTrue();
		assertThat(SaturatedGrowth.crowded(webRun(41, 0.2))).isTrue();
		assertThat(SaturatedGrowth.crowded(webRun(40, 0.2))).isFalse();
		assertThat(SaturatedGrowth.crowded(webRun(102, 0.6))).isFalse();
		assertThat(SaturatedGrowth.crowded(webRun(102, -1))).isFalse();
	}

	@Test
	void aPoolWhoseCpuIsOverHalfBusyOrUnknownIsNotCrowded() {
		assertThat(SaturatedGrowth.crowded(window(150, 0.6))).isFalse();
		assertThat(SaturatedGrowth.crowded(window(150, -1))).isFalse();
	}

	@Test
	void aPoolASurgeSizedOnAnEstimateProbesDownWhileItRefusesAtItsMaxThreads() {
		// 300 threads at their max, refusing, their base measured as congested as they
		// are (1800 ms): the model needs more than 300, so the pool is not crowded.
		ClosedWindow window = new ClosedWindow(PoolControllerTests.window(240, 160, 1800, 300, 100, null), 300,
				new PoolBounds(5, 300), 0.04, 1800, 160, 80);
		assertThat(SaturatedGrowth.crowded(window)).isFalse();
		assertThat(heldTwice(growth(), window).action()).isEqualTo(Action.HOLD);
		SaturatedGrowth surged = growth();
		surged.surgedUnmeasured();
		Decision probe = heldTwice(surged, window);
		assertThat(probe.action()).isEqualTo(Action.SHRINK);
		assertThat(probe.threads()).isEqualTo(225);
		SaturatedGrowth found = growth();
		found.surgedUnmeasured();
		found.kneeFound();
		assertThat(heldTwice(found, window).action()).isEqualTo(Action.HOLD);
	}

	@Test
	void aPoolAtHalfBeyondAKneeThatIsABoundProbesDownWhileItRefuses() {
		// A kept step taught a knee of 20 threads, a bound; the pool is at its cap of 30,
		// every thread busy, refusing 80 tasks, the model asking for more.
		assertThat(heldTwice(growthWithAKneeOf20(false), atCap(30, 0.2)).action()).isEqualTo(Action.SHRINK);
		// On a busy CPU its threads hold tasks as a buffer would.
		assertThat(heldTwice(growthWithAKneeOf20(false), atCap(30, 0.6)).action()).isEqualTo(Action.HOLD);
		// A knee a probe found is no bound: the pool holds at its cap while it refuses.
		assertThat(heldTwice(growthWithAKneeOf20(true), atCap(30, 0.2)).action()).isEqualTo(Action.HOLD);
		// Below the cap it may grow.
		SaturatedGrowth below = growthWithAKneeOf20(false);
		below.windowClosed(atCap(29, 0.2));
		assertThat(below.instead(atCap(29, 0.2), null, false)).isNull();
	}

	@Test
	void aPoolAboveAKneeThatIsABoundProbesDownWhileItRefusesBelowTheKneesCapToo() {
		// A kept step taught a knee of 20 threads, a bound; the pool holds 25, below the
		// knee's cap of 30, every thread busy, refusing 20 tasks, its model asking for
		// fewer threads than it has, neither crowded.
		assertThat(heldTwice(growthWithAKneeOf20(false), aboveTheKnee(0.2)).action()).isEqualTo(Action.SHRINK);
		assertThat(heldTwice(growthWithAKneeOf20(false), aboveTheKnee(0.6)).action()).isEqualTo(Action.HOLD);
		assertThat(heldTwice(growthWithAKneeOf20(true), aboveTheKnee(0.2)).action()).isEqualTo(Action.HOLD);
	}

	/**
	 * A window of 25 threads offered 240 tasks a second, serving 220 at 113.6 ms against
	 * a base of 60 ms: every thread busy, 20 tasks refused, the model's need 22, not
	 * crowded (its throughput keeps 13.2 threads busy at the base).
	 */
	private static ClosedWindow aboveTheKnee(double cpuLoad) {
		ClosedWindow window = new ClosedWindow(PoolControllerTests.window(240, 220, 113.6, 25, 100, null), 25,
				new PoolBounds(5, 300), cpuLoad, 60, 220, 20);
		assertThat(window.need).isEqualTo(22);
		assertThat(SaturatedGrowth.crowded(window)).isFalse();
		return window;
	}

	/**
	 * A pool's saturated growth with a knee of 20 threads, found by a probe or only a
	 * bound a kept step taught.
	 */
	private static SaturatedGrowth growthWithAKneeOf20(boolean found) {
		Knee knee = new Knee(new FakeClock());
		if (found) {
			knee.learn(20, 160);
		}
		else {
			knee.atMost(20, 160, false);
		}
		return growth(knee);
	}

	/**
	 * A window offered 240 tasks a second, serving 160 at 187.5 ms, its base: every one
	 * of 30 threads busy, 80 tasks refused, not crowded.
	 */
	private static ClosedWindow atCap(int size, double cpuLoad) {
		return new ClosedWindow(PoolControllerTests.window(240, 160, 187.5, size, 100, null), size,
				new PoolBounds(5, 300), cpuLoad, 187.5, 160, 80);
	}

	/**
	 * A pool's saturated growth as its controller builds it.
	 */
	private static SaturatedGrowth growth() {
		return growth(new Knee(new FakeClock()));
	}

	private static SaturatedGrowth growth(Knee knee) {
		FakeClock clock = new FakeClock();
		WindowNoise throughputs = new WindowNoise();
		WindowNoise serviceTimes = new WindowNoise();
		return new SaturatedGrowth(new SlowdownRule(knee, serviceTimes, throughputs), new RefusalRule(),
				new DownProbe(clock, throughputs), new StepJudge(clock, knee, throughputs, serviceTimes), knee,
				new ChangeBudget(clock));
	}

	/**
	 * What the pool does after a window that held its size, in the same window again.
	 */
	private static Decision heldTwice(SaturatedGrowth growth, ClosedWindow window) {
		growth.windowClosed(window);
		Decision first = growth.instead(window, null, false);
		assertThat(first.action()).isEqualTo(Action.HOLD);
		growth.decided(window, first);
		growth.windowClosed(window);
		return growth.instead(window, null, false);
	}

	/**
	 * A window offered 204 tasks a second, serving 66.7 at 1500 ms, the base 300 ms.
	 */
	private static ClosedWindow webRun(int size, double cpuLoad) {
		return new ClosedWindow(PoolControllerTests.window(204, 66.7, 1500, size, 100, null), size,
				new PoolBounds(1, 300), cpuLoad, 300, 66.7);
	}

	/**
	 * A window offered 800 tasks a second, serving them all at 900 ms, the base 60 ms:
	 * its throughput keeps 48 threads busy at the base, so below 97 threads it is not
	 * crowded by its throughput.
	 */
	private static ClosedWindow window(int size, double cpuLoad) {
		return new ClosedWindow(PoolControllerTests.window(800, 800, 900, size, 100, null), size,
				new PoolBounds(1, 300), cpuLoad, 60, 800);
	}

}
