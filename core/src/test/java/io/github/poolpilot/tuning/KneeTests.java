package io.github.poolpilot.tuning;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.testsupport.FakeClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * {@link Knee}: the most threads a step may reach once a knee is known, and how long it
 * is known.
 *
 * @author poolpilot authors
 */
class KneeTests {

	private final FakeClock clock = new FakeClock();

	private final Knee knee = new Knee(this.clock);

	@Test
	void withoutAKneeNothingIsCapped() {
		assertThat(this.knee.cap()).isEqualTo(Integer.MAX_VALUE);
	}

	@Test
	void aStepMayReachHalfBeyondTheKnee() {
		this.knee.learn(8, 100);
		assertThat(this.knee.cap()).isEqualTo(12);
		this.knee.learn(11, 100);
		assertThat(this.knee.cap()).isEqualTo(16);
	}

	@Test
	void aPoolKeepsATenthBeyondAKneeRoundedUp() {
		assertThat(Knee.withMargin(10)).isEqualTo(11);
		assertThat(Knee.withMargin(17.4)).isEqualTo(20);
		assertThat(Knee.withMargin(0.5)).isEqualTo(1);
		assertThat(Knee.withMargin(0)).isZero();
	}

	@Test
	void aStepFromAboveAKnownKneeDoesNotRaiseIt() {
		this.knee.learn(32.7, 100);
		this.clock.advanceMillis(Backoff.LONGEST.toMillis() - 1);
		// From 45 to 48 threads, 10 % less: the knee is below 40.6, as was known.
		this.knee.atMost(40.6, 100, false);
		assertThat(this.knee.threads()).isEqualTo(32.7);
		// Known for longer: the step confirmed it.
		this.clock.advanceMillis(1);
		assertThat(this.knee.known()).isTrue();
		this.knee.atMost(24, 100, false);
		assertThat(this.knee.threads()).isEqualTo(24);
	}

	@Test
	void aKneeTaughtByAKeptStepIsABoundThatProbesMayStartNear() {
		this.knee.atMost(24, 100, false);
		assertThat(this.knee.cap()).isEqualTo(36);
		assertThat(this.knee.bound()).isTrue();
		assertThat(this.knee.near(25)).isFalse();
		this.knee.atMost(20, 100, false);
		assertThat(this.knee.bound()).isTrue();
		this.knee.learn(24, 100);
		assertThat(this.knee.bound()).isFalse();
		assertThat(this.knee.near(25)).isTrue();
		// A step from above a knee found from below keeps it found, lower or not.
		this.knee.atMost(30, 100, false);
		assertThat(this.knee.near(25)).isTrue();
		this.knee.atMost(20, 100, false);
		assertThat(this.knee.threads()).isEqualTo(20);
		assertThat(this.knee.near(21)).isTrue();
	}

	@Test
	void aKneeAStepCrossedFromBelowIsFoundUnlessABoundLowerStillStays() {
		this.knee.atMost(8, 400, true);
		assertThat(this.knee.bound()).isFalse();
		assertThat(this.knee.near(10)).isTrue();
		this.knee.forget();
		this.knee.atMost(20, 100, false);
		this.knee.atMost(30, 150, true);
		assertThat(this.knee.threads()).isEqualTo(20);
		assertThat(this.knee.bound()).isTrue();
		this.knee.atMost(16, 100, true);
		assertThat(this.knee.threads()).isEqualTo(16);
		assertThat(this.knee.bound()).isFalse();
	}

	@Test
	void withoutAKneeAStepTeachesOne() {
		this.knee.atMost(24, 100, false);
		assertThat(this.knee.threads()).isEqualTo(24);
	}

	@Test
	void aKneeBelowTwoThreadsStillLetsThePoolTryOneThreadBeyondIt() {
		// A step from 1 to 2 threads that gained 85 %: half beyond 1.85 is 2.77, which
		// would hold the pool at the 2 it has.
		this.knee.learn(1.85, 100);
		assertThat(this.knee.cap()).isEqualTo(3);
		this.knee.learn(1, 100);
		assertThat(this.knee.cap()).isEqualTo(2);
	}

	@Test
	void aKneeIsForgottenAfterTheLongestRest() {
		this.knee.learn(8, 100);
		this.clock.advanceMillis(Backoff.LONGEST.toMillis() - 1);
		assertThat(this.knee.known()).isTrue();
		this.clock.advanceMillis(1);
		assertThat(this.knee.known()).isFalse();
		assertThat(this.knee.cap()).isEqualTo(Integer.MAX_VALUE);
	}

	@Test
	void aKneeIsForgottenWhenTheThroughputKeepsAFifthMoreThreadsBusy() {
		// A step from 27 to 41 threads of 900 ms tasks that all finished in the window
		// after: it measured 18 a second and taught a knee of 18.
		this.knee.learn(18, 100);
		this.knee.outgrown(window(41, 20, 5));
		assertThat(this.knee.threads()).isEqualTo(18);
		this.knee.outgrown(window(41, 41, 0));
		assertThat(this.knee.threads()).isEqualTo(18);
		// 41 a second at 900 ms keep 36.9 threads busy, more than twice the knee.
		this.knee.outgrown(window(41, 41, 5));
		assertThat(this.knee.known()).isFalse();
	}

	@Test
	void aPoolHeldAtTheCapOutgrowsAKneeItsThroughputPassedByAFifth() {
		this.knee.learn(18, 100);
		assertThat(this.knee.cap()).isEqualTo(27);
		// 23 a second at 900 ms keep 20.7 threads busy: within a fifth of 18.
		this.knee.outgrown(window(27, 23, 5));
		assertThat(this.knee.threads()).isEqualTo(18);
		// 25 a second keep 22.5 busy: beyond it, on 27 threads, which the cap allows.
		this.knee.outgrown(window(27, 25, 5));
		assertThat(this.knee.known()).isFalse();
	}

	@Test
	void aKneeIsForgottenWhenAPoolAProbesCutBelowItServesItsThroughput() {
		// A probe that fell by noise against a window above what a downstream serves
		// taught 125 threads at 160 a second; the budget then took the pool to 50.
		this.knee.learn(125, 160);
		// 94 threads, within a probe's cut of the knee, serving as much: no proof.
		assertThat(this.knee.disproved(window(94, 160, 5))).isFalse();
		assertThat(this.knee.threads()).isEqualTo(125);
		// 50 threads serving 150 a second, a fall beyond the tolerance: below the knee.
		assertThat(this.knee.disproved(window(50, 150, 5))).isFalse();
		// Nor without a queue: the pool served all it was offered.
		assertThat(this.knee.disproved(window(50, 160, 0))).isFalse();
		assertThat(this.knee.known()).isTrue();
		// 50 threads serving 152 a second, within 5 % of the knee's: it is not there.
		assertThat(this.knee.disproved(window(50, 152, 5))).isTrue();
		assertThat(this.knee.known()).isFalse();
		assertThat(this.knee.disproved(window(50, 160, 5))).isFalse();
	}

	@Test
	void aStepFromAboveAKnownKneeKeepsTheThroughputItWasSeenAt() {
		this.knee.learn(20, 100);
		this.knee.atMost(30, 200, false);
		// 14 threads serving 96: within 5 % of the 100 seen at the knee, not of 200.
		assertThat(this.knee.disproved(window(14, 96, 5))).isTrue();
	}

	@Test
	void aKeptStepTeachesAKneeOnlyFromAWindowInWhichWorkQueued() {
		// From 10 threads to 15 for 1 % more throughput, judged beyond its noise.
		Step step = new Step(Step.Kind.SATURATED, 10, 15, 100, 100, 900, 0);
		step.measure(101, 100);
		this.knee.kept(step, window(15, 101, 0), 0.001);
		assertThat(this.knee.known()).isFalse();
		this.knee.kept(step, window(15, 101, 5), 0.001);
		assertThat(this.knee.threads()).isCloseTo(10.1, within(0.001));
		assertThat(this.knee.bound()).isFalse();
		// Beyond the knee, a step that paid in proportion: the knee is gone.
		Step paid = new Step(Step.Kind.SATURATED, 12, 18, 100, 100, 900, 0);
		paid.measure(150, 100);
		this.knee.kept(paid, window(18, 150, 5), 0.001);
		assertThat(this.knee.known()).isFalse();
	}

	/**
	 * A window of 900 ms tasks at the base service time, offered what it served.
	 */
	private static ClosedWindow window(int size, double throughput, int queued) {
		return new ClosedWindow(PoolControllerTests.window(throughput, throughput, 900, size, queued, null), size,
				new PoolBounds(1, 300), 0.2, 900, Double.NaN);
	}

}
