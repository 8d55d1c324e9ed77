package io.github.poolpilot.tuning;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.Surge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Tests for {@link SurgeWatch} at the edges of what makes a surge: pulses 100 ms apart on
 * a pool of 10 threads, every one busy.
 *
 * @author poolpilot authors
 */
class SurgeWatchTests {

	private static final long INTERVAL = 100_000_000;

	private static final double NO_SERVICE_TIME = Double.NaN;

	@Test
	void arrivalsOfExactlyTwiceTheWindowsRateAreNoSurgeAndOneMoreIs() {
		// 1000 per second expect 100 in 100 ms: twice that is the bar (four sigmas, 140,
		// is lower).
		assertThat(surge(1000, 200, 0, 100, 100)).isNull();
		Decision surge = surge(1000, 201, 0, 100, 100);
		assertThat(surge.action()).isEqualTo(Action.GROW);
		assertThat(surge.from()).isEqualTo(10);
		assertThat(surge.to()).isEqualTo(100);
		assertThat(surge.cause()).isEqualTo(new Surge(2010, 1000, 5, 230));
	}

	@Test
	void arrivalsOfExactlyFourSigmasAboveTheWindowsRateAreNoSurgeAndOneMoreIs() {
		// 40 per second expect 4 in 100 ms: 4 + 4·√4 = 12 is the bar (twice, 8, is
		// lower).
		assertThat(surge(40, 12, 0, 1000, 100)).isNull();
		assertThat(surge(40, 13, 0, 1000, 100).cause()).isEqualTo(new Surge(130, 40, 5, 153));
	}

	@Test
	void aPoolThatKeepsUpIsNoSurgeWhateverItsArrivals() {
		assertThat(surge(10, 50, 50, 100, 100)).isNull();
		assertThat(surge(10, 51, 50, 100, 100)).isNotNull();
	}

	@Test
	void aPoolWithNothingQueuedOrPulsesAtTheSameTimeAreNoSurge() {
		SurgeWatch watch = new SurgeWatch();
		watch.check(pulse(10, 10, 0, 0, 0, 0), 10, 100, 100, true);
		assertThat(watch.check(pulse(10, 10, 0, 500, 0, INTERVAL), 10, 100, 100, true)).isNull();
		SurgeWatch sameTime = new SurgeWatch();
		sameTime.check(pulse(10, 10, 5, 0, 0, INTERVAL), 10, 100, 100, true);
		assertThat(sameTime.check(pulse(10, 10, 5, 500, 0, INTERVAL), 10, 100, 100, true)).isNull();
		SurgeWatch mayNotGrow = new SurgeWatch();
		mayNotGrow.check(pulse(10, 10, 5, 0, 0, 0), 10, 100, 100, true);
		assertThat(mayNotGrow.check(pulse(10, 10, 5, 500, 0, INTERVAL), 10, 100, 100, false)).isNull();
	}

	@Test
	void anOfferedLoadOfExactlyThePoolsSizeIsNoSurgeAndMoreIs() {
		// 100 ms a task: 10 arrivals in 100 ms keep 10 threads busy.
		assertThat(surge(10, 10, 0, 100, 100)).isNull();
		Decision surge = surge(10, 11, 0, 100, 100);
		assertThat(surge.to()).isEqualTo(19);
		assertThat(surge.cause()).isEqualTo(new Surge(110, 10, 5, 18));
	}

	@Test
	void withNoBaseServiceTimeTheIntervalsBusyThreadsOverItsCompletionsStandForIt() {
		// 10 busy threads for 100 ms and 10 completions: 100 ms a task.
		Decision surge = surge(100, 200, 10, NO_SERVICE_TIME, 100);
		assertThat(surge.cause()).isEqualTo(new Surge(2000, 100, 5, 229));
		assertThat(surge.to()).isEqualTo(100);
	}

	@Test
	void withNoBaseServiceTimeTheLoadsIntervalsSoFarStandForItNotTheLastAlone() {
		// 3 threads busy with tasks of 250 ms end 1.2 tasks in 100 ms: one interval ends
		// 1, another 2, and the last alone says 300 ms or 150 ms. The five intervals so
		// far end 6 tasks in 1.5 thread-seconds: 250 ms.
		SurgeWatch watch = new SurgeWatch();
		long[] ended = { 0, 1, 2, 3, 4 };
		for (int i = 0; i < ended.length; i++) {
			assertThat(watch.check(pulse(3, 3, 5, ended[i], ended[i], i * INTERVAL), 12, NO_SERVICE_TIME, 100, true))
				.isNull();
		}
		Decision surge = watch.check(pulse(3, 3, 5, 4 + 39, 6, 5 * INTERVAL), 12, NO_SERVICE_TIME, 100, true);
		assertThat(watch.estimatedServiceMs()).isCloseTo(250, within(1e-9));
		// 390 a second at 250 ms: 97.5 threads busy, staffed with ⌈97.5 + 2·√97.5⌉.
		assertThat(surge.cause()).isEqualTo(new Surge(390, 12, 5, 118));
	}

	@Test
	void withNoServiceTimeAtAllThePoolDoublesOnceAndLetsTheWindowMeasure() {
		SurgeWatch watch = new SurgeWatch();
		watch.check(pulse(10, 10, 5, 0, 0, 0), 100, NO_SERVICE_TIME, 100, true);
		Decision surge = watch.check(pulse(10, 10, 5, 200, 0, INTERVAL), 100, NO_SERVICE_TIME, 100, true);
		assertThat(surge.to()).isEqualTo(20);
		assertThat(watch.check(pulse(20, 20, 5, 400, 0, 2 * INTERVAL), 100, NO_SERVICE_TIME, 100, true)).isNull();
	}

	@Test
	void aFirstSurgeOfOneThreadGrowsAndARefinementMustBeWorthAResize() {
		SurgeWatch watch = new SurgeWatch();
		watch.check(pulse(10, 10, 5, 0, 0, 0), 100, 100, 11, true);
		// The largest step allowed is one thread: a first surge takes it.
		assertThat(watch.check(pulse(10, 10, 5, 200, 0, INTERVAL), 100, 100, 11, true).to()).isEqualTo(11);
		// Refinements need max(2, a tenth) more threads: 12 is not worth it, 13 is.
		assertThat(watch.check(pulse(11, 11, 5, 400, 0, 2 * INTERVAL), 100, 100, 12, true)).isNull();
		assertThat(watch.check(pulse(11, 11, 5, 600, 0, 3 * INTERVAL), 100, 100, 13, true).to()).isEqualTo(13);
		watch.windowClosed();
		// The windows judge it now: a pool that keeps up is no surge again.
		assertThat(watch.check(pulse(13, 13, 5, 800, 800, 4 * INTERVAL), 100, 100, 100, true)).isNull();
	}

	@Test
	void anIntervalWithNoArrivalsIsIdle() {
		SurgeWatch watch = new SurgeWatch();
		watch.check(pulse(10, 2, 0, 7, 7, 0), 10, 100, 100, true);
		assertThat(watch.idle()).isFalse();
		watch.check(pulse(10, 2, 0, 7, 7, INTERVAL), 10, 100, 100, true);
		assertThat(watch.idle()).isTrue();
		watch.check(pulse(10, 2, 0, 8, 8, 2 * INTERVAL), 10, 100, 100, true);
		assertThat(watch.idle()).isFalse();
	}

	@Test
	void pulsesAtTheSameTimeAreNoSurgeEvenWithNoServiceTimeKnown() {
		SurgeWatch watch = new SurgeWatch();
		watch.check(pulse(10, 10, 5, 0, 0, INTERVAL), 100, NO_SERVICE_TIME, 100, true);
		assertThat(watch.check(pulse(10, 10, 5, 500, 0, INTERVAL), 100, NO_SERVICE_TIME, 100, true)).isNull();
	}

	/**
	 * Two pulses 100 ms apart on a saturated pool of 10 with 5 queued.
	 */
	private static Decision surge(double windowArrivalRate, long arrivals, long completions, double baseServiceMs,
			int largest) {
		SurgeWatch watch = new SurgeWatch();
		assertThat(watch.check(pulse(10, 10, 5, 0, 0, 0), windowArrivalRate, baseServiceMs, largest, true)).isNull();
		return watch.check(pulse(10, 10, 5, arrivals, completions, INTERVAL), windowArrivalRate, baseServiceMs, largest,
				true);
	}

	private static PoolPulse pulse(int size, int active, int queued, long arrivals, long completions, long atNanos) {
		return new PoolPulse("talk", new PoolBounds(1, 100), 1, TuningMode.AUTO, size, size, active, queued, arrivals,
				completions, atNanos);
	}

}
