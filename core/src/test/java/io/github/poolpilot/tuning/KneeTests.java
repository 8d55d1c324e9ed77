package io.github.poolpilot.tuning;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.testsupport.FakeClock;

import static org.assertj.core.api.Assertions.assertThat;

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
		this.knee.learn(8);
		assertThat(this.knee.cap()).isEqualTo(12);
		this.knee.learn(11);
		assertThat(this.knee.cap()).isEqualTo(16);
	}

	@Test
	void aStepFromAboveAKnownKneeDoesNotRaiseIt() {
		this.knee.learn(32.7);
		this.clock.advanceMillis(Backoff.LONGEST.toMillis() - 1);
		// From 45 to 48 threads, 10 % less: the knee is below 40.6, as was known.
		this.knee.atMost(40.6);
		assertThat(this.knee.threads()).isEqualTo(32.7);
		// Known for longer: the step confirmed it.
		this.clock.advanceMillis(1);
		assertThat(this.knee.known()).isTrue();
		this.knee.atMost(24);
		assertThat(this.knee.threads()).isEqualTo(24);
	}

	@Test
	void withoutAKneeAStepTeachesOne() {
		this.knee.atMost(24);
		assertThat(this.knee.threads()).isEqualTo(24);
	}

	@Test
	void aKneeBelowTwoThreadsStillLetsThePoolTryOneThreadBeyondIt() {
		// A step from 1 to 2 threads that gained 85 %: half beyond 1.85 is 2.77, which
		// would hold the pool at the 2 it has.
		this.knee.learn(1.85);
		assertThat(this.knee.cap()).isEqualTo(3);
		this.knee.learn(1);
		assertThat(this.knee.cap()).isEqualTo(2);
	}

	@Test
	void aKneeIsForgottenAfterTheLongestRest() {
		this.knee.learn(8);
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
		this.knee.learn(18);
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
		this.knee.learn(18);
		assertThat(this.knee.cap()).isEqualTo(27);
		// 23 a second at 900 ms keep 20.7 threads busy: within a fifth of 18.
		this.knee.outgrown(window(27, 23, 5));
		assertThat(this.knee.threads()).isEqualTo(18);
		// 25 a second keep 22.5 busy: beyond it, on 27 threads, which the cap allows.
		this.knee.outgrown(window(27, 25, 5));
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
