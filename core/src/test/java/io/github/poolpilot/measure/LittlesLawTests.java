package io.github.poolpilot.measure;

import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.measure.PoolSnapshot.LittlesLaw;
import io.github.poolpilot.measure.QueueSimulation.Truth;
import io.github.poolpilot.measure.QueueSimulation.Window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Every figure of a window checked against the true figures of a known workload, on a
 * simulated clock: a pool slow enough that every task is timed gives exact means; a
 * faster one, of which only a sample is timed, gives them by Little's law from its
 * occupancy sampled every millisecond, within the tolerances stated here.
 *
 * @author poolpilot authors
 */
class LittlesLawTests {

	/**
	 * Means by Little's law: within 3 % of the true means of the window's tasks (0.8 % at
	 * most was seen). The sampling error is about 0.4 h / √n (h = 1 ms, n ≈ 3600: 7 µs,
	 * under 1 % of a 1 ms service time); the rest is the window's edges, tasks counted in
	 * one window and ended in the next.
	 */
	private static final double MEAN_TOLERANCE = 0.03;

	/**
	 * A p99 from about a thousand timed tasks: within 10 % of the true p99 of all (3.2 %
	 * at most was seen).
	 */
	private static final double P99_TOLERANCE = 0.10;

	@Test
	void aPoolOfAFewHundredTasksAWindowTimesEveryTaskAndItsMeansAreExact() {
		QueueSimulation pool = new QueueSimulation(4, QueueSimulation.MILLI, 1);
		SplittableRandom random = new SplittableRandom(42);
		List<Window> windows = pool.run(3, 500, () -> exponential(random, 4 * QueueSimulation.MILLI), random);
		for (Window window : windows) {
			Truth truth = window.truth();
			PoolSnapshot snapshot = window.snapshot();
			assertThat(window.timed()).isEqualTo(truth.completions());
			assertThat(snapshot.littlesLaw().meanQueueWaitMs()).isCloseTo(truth.queueWaitMs(), within(1e-9));
			assertThat(snapshot.littlesLaw().meanServiceTimeMs()).isCloseTo(truth.serviceMs(), within(1e-9));
			assertThat(snapshot.littlesLaw().meanResponseTimeMs()).isCloseTo(truth.responseMs(), within(1e-9));
			assertThat(snapshot.responseTime().samples()).isEqualTo(truth.completions());
			assertThat(snapshot.littlesLaw().p99ResponseTimeMs()).isCloseTo(truth.p99ResponseMs(),
					within(truth.p99ResponseMs() * 0.01));
		}
		assertThat(pool.recorder().needsOccupancy()).isFalse();
	}

	@Test
	void aBusyPoolTimesAboutAThousandTasksAWindowAndTakesItsMeansFromLittlesLaw() {
		QueueSimulation pool = new QueueSimulation(4, QueueSimulation.MILLI, 2);
		SplittableRandom random = new SplittableRandom(7);
		// 3600 tasks a second of 1 ms on 4 threads: 90 % busy, with a queue.
		List<Window> windows = pool.run(4, 3600, () -> exponential(random, QueueSimulation.MILLI), random);
		assertThat(windows.get(0).timed()).as("the first window times every task")
			.isEqualTo(windows.get(0).truth().completions());
		for (Window window : windows.subList(1, windows.size())) {
			Truth truth = window.truth();
			PoolSnapshot snapshot = window.snapshot();
			LittlesLaw law = snapshot.littlesLaw();
			assertThat(window.timed()).as("timed tasks").isBetween(800L, 1500L);
			assertThat(snapshot.responseTime().samples()).isEqualTo(window.timed());
			assertThat(law.arrivalRate()).isEqualTo((double) truth.arrivals());
			assertThat(law.throughput()).isEqualTo((double) truth.completions());
			assertThat(law.meanQueueWaitMs()).isCloseTo(truth.queueWaitMs(),
					within(truth.queueWaitMs() * MEAN_TOLERANCE));
			assertThat(law.meanServiceTimeMs()).isCloseTo(truth.serviceMs(),
					within(truth.serviceMs() * MEAN_TOLERANCE));
			assertThat(law.meanResponseTimeMs()).isCloseTo(truth.responseMs(),
					within(truth.responseMs() * MEAN_TOLERANCE));
			assertThat(law.busyThreads()).isCloseTo(truth.busyThreads(), within(truth.busyThreads() * MEAN_TOLERANCE));
			assertThat(law.estimatedConcurrency()).isCloseTo(truth.completions() * truth.responseMs() / 1000,
					within(truth.completions() * truth.responseMs() / 1000 * MEAN_TOLERANCE));
			assertThat(law.deadTimeRatio()).isCloseTo(truth.queueWaitMs() / truth.responseMs(), within(0.02));
			assertThat(law.p99ResponseTimeMs()).isCloseTo(truth.p99ResponseMs(),
					within(truth.p99ResponseMs() * P99_TOLERANCE));
			assertThat(law.waitComputeRatio()).isCloseTo((1 - QueueSimulation.CPU_SHARE) / QueueSimulation.CPU_SHARE,
					within(1e-3));
		}
		assertThat(pool.recorder().needsOccupancy()).isTrue();
	}

	@Test
	void shortTasksAreTimedWithinAClockBudgetOfAboutOnePercentOfTheirOwnTime() {
		QueueSimulation pool = new QueueSimulation(1, QueueSimulation.MILLI, 3);
		SplittableRandom random = new SplittableRandom(11);
		// 100 000 tasks a second of 100 ns: 10 ms of work a second, whose 1 % pays for
		// 500 timed tasks of 200 ns. One task in 200 is timed, drawn at random, so a
		// window's count spreads around its 500 (a standard deviation of about 22):
		// 1.5 % bounds the spread, and a budget of 2 % or more breaks it.
		List<Window> windows = pool.run(3, 100_000, () -> 100, random);
		for (Window window : windows.subList(1, windows.size())) {
			double busyNanos = window.truth().busyThreads() * QueueSimulation.WINDOW;
			assertThat(window.timed() * TimingSample.TIMED_TASK_NANOS).isLessThanOrEqualTo((long) (busyNanos * 0.015));
			assertThat(window.timed()).isGreaterThan(300);
			assertThat(window.snapshot().littlesLaw().throughput()).isEqualTo((double) window.truth().completions());
			assertThat(window.snapshot().littlesLaw().meanServiceTimeMs()).isCloseTo(0.0001, within(0.001));
		}
	}

	private static double exponential(SplittableRandom random, double mean) {
		return -Math.log(1 - random.nextDouble()) * mean;
	}

}
