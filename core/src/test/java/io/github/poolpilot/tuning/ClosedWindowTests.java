package io.github.poolpilot.tuning;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.measure.PoolSnapshot.Sizes;
import io.github.poolpilot.pool.PoolBounds;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ClosedWindow}: when work waits or is turned away.
 *
 * @author poolpilot authors
 */
class ClosedWindowTests {

	@Test
	void workQueuesWhenMoreThanATwentiethBeyondWhatWasServedWasOffered() {
		assertThat(window(105, 100, 0).queueing).isFalse();
		assertThat(window(105.1, 100, 0).queueing).isTrue();
	}

	@Test
	void aStepTakenAsALoadsFirstWindowClosesHasNoServiceTimeBeforeIt() {
		PoolSnapshot snapshot = PoolControllerTests.window(100, 100, 20, 3, 0, null);
		PoolSnapshot first = PoolControllerTests.withCounts(snapshot, 100, 0);
		assertThat(new ClosedWindow(first, 3, new PoolBounds(1, 64), 0.2, 2, 20, Double.NaN, 0).stepServiceMs())
			.isZero();
		assertThat(
				new ClosedWindow(snapshot, 3, new PoolBounds(1, 64), 0.2, 2, 20, Double.NaN, 0, true).stepServiceMs())
			.isZero();
		assertThat(
				new ClosedWindow(snapshot, 3, new PoolBounds(1, 64), 0.2, 2, 20, Double.NaN, 0, false).stepServiceMs())
			.isEqualTo(20);
		// Tasks offered before the window: not a load's first.
		PoolSnapshot later = PoolControllerTests.withCounts(snapshot, 250, 0);
		assertThat(new ClosedWindow(later, 3, new PoolBounds(1, 64), 0.2, 2, 20, Double.NaN, 0).stepServiceMs())
			.isEqualTo(20);
	}

	@Test
	void workQueuesWhenTasksWaitInTheQueue() {
		assertThat(window(100, 100, 1).queueing).isTrue();
	}

	@Test
	void aBusyCpuDoesNotLimitAPoolWhoseTasksKeepLessThanAQuarterOfTheCoresBusy() {
		// 58 threads busy, each task about 1.2 ms on the CPU in 362.5 ms: 0.19 of a core.
		assertThat(onABusyProcess(0.95, 2, 307.0).cpuBound()).isFalse();
		// The same tasks half on the CPU: 29 cores' worth asked for.
		assertThat(onABusyProcess(0.95, 2, 1.0).cpuBound()).isTrue();
		// 58 threads keeping a quarter of 16 cores busy, and a little less.
		assertThat(onABusyProcess(0.95, 16, 58.0 / 4 - 1).cpuBound()).isTrue();
		assertThat(onABusyProcess(0.95, 16, 58.0 / 4 - 0.9).cpuBound()).isFalse();
	}

	@Test
	void aBusyCpuLimitsAPoolWhoseTasksCpuTimeOrTheCoresAreUnknown() {
		assertThat(onABusyProcess(0.95, 2, null).cpuBound()).isTrue();
		assertThat(onABusyProcess(0.95, 0, 307.0).cpuBound()).isTrue();
	}

	@Test
	void aBusyCpuDoesNotLimitAnIdlePool() {
		assertThat(idle(0, 0).cpuBound()).isFalse();
		// A task still running, or one offered: not idle.
		assertThat(idle(1, 0).cpuBound()).isTrue();
		assertThat(idle(0, 1).cpuBound()).isTrue();
	}

	private static ClosedWindow idle(int active, long offered) {
		PoolSnapshot snapshot = PoolControllerTests.window(0, 0, 20, 0, 10, 0, null, null);
		snapshot = new PoolSnapshot(snapshot.pool(), snapshot.windowSeconds(),
				new Sizes(10, 10, 10, active, 0, 100, 1, 64), snapshot.tasks(), offered, 0, snapshot.queueWait(),
				snapshot.serviceTime(), snapshot.responseTime(), snapshot.littlesLaw());
		return new ClosedWindow(snapshot, 10, new PoolBounds(1, 64), 0.97, 2, 20, 0, 0);
	}

	@Test
	void aCpuAtMostNinetyPercentBusyLimitsNoPool() {
		assertThat(onABusyProcess(0.9, 2, 1.0).cpuBound()).isFalse();
		assertThat(onABusyProcess(-1, 2, null).cpuBound()).isFalse();
	}

	private static ClosedWindow onABusyProcess(double cpuLoad, int cores, Double waitCompute) {
		return new ClosedWindow(PoolControllerTests.window(240, 160, 362.5, 0, 60, 100, null, waitCompute), 60,
				new PoolBounds(5, 300), cpuLoad, cores, 50, 160, 80);
	}

	@Test
	void theCoresAccountForARiseWithinTheCpuTimeOfEveryThreadSharedOverThem() {
		// 8 threads of 19.1 ms of CPU time on 2 cores: each task may take 8 · 19.1 / 2 =
		// 76.4 ms longer than it did alone, so 121 ms against 63.5 ms at fewer threads.
		ClosedWindow window = onCores(8, 121, 19.1, 2);
		assertThat(window.coresAccountFor(63.5, 0)).isTrue();
		// 81 ms more than 40 ms is beyond them, unless within the noise allowed.
		assertThat(window.coresAccountFor(40, 0)).isFalse();
		assertThat(window.coresAccountFor(40, 0.2)).isTrue();
	}

	@Test
	void aPoolWhoseSlowdownTheCoresAccountForIsSizedOnItsServiceTime() {
		// 200 tasks a second offered: at the base of 63.5 ms, 12.7 threads busy; at the
		// 121 ms the cores stretch them to, 24.2.
		assertThat(onCores(8, 121, 19.1, 2).need).isEqualTo(SizingModel.staffed(200 * 0.121));
		// A downstream's wait: on the base.
		assertThat(onCores(8, 121, 0.5, 2).need).isEqualTo(SizingModel.staffed(200 * 0.0635));
	}

	@Test
	void theCoresDoNotAccountForAWaitOnADownstream() {
		// 14 threads of 0.5 ms of CPU time: 3.5 ms, against 90 ms more than at fewer.
		assertThat(onCores(14, 140, 0.5, 2).coresAccountFor(50, 0)).isFalse();
	}

	@Test
	void theCoresAccountForNothingWhileTheCpuTimeOrTheCoresAreUnknown() {
		assertThat(onCores(8, 121, 19.1, 0).coresAccountFor(63.5, 0)).isFalse();
		ClosedWindow unmeasured = new ClosedWindow(PoolControllerTests.window(200, 66, 121, 0, 8, 50, null, null), 8,
				new PoolBounds(1, 64), 0.6, 2, 63.5, 66, 0);
		assertThat(unmeasured.coresAccountFor(63.5, 0)).isFalse();
	}

	@Test
	void aWindowThatDrainedABacklogNeedsNoMoreThreadsThanThePoolHas() {
		// talk in DownstreamTroubleTests as its downstream began to fail fast after
		// a slow spell: 100 tasks offered, 240 ended (the slow calls and the queue's
		// tasks failing at once), a mean of 16.7 ms against a base of 10.1 ms that the
		// cores may account for (8 ms of CPU a task, 4 threads on 2 cores). At that
		// mean the model asks for 1.67 busy threads, 5 with its margin.
		assertThat(draining(240).drained()).isTrue();
		assertThat(draining(240).need).isEqualTo(4);
		// Half again the tasks offered drains no backlog: the model's size stands.
		assertThat(draining(150).drained()).isFalse();
		assertThat(draining(150).need).isEqualTo(SizingModel.staffed(100 * 0.0167)).isEqualTo(5);
	}

	private static ClosedWindow draining(double throughput) {
		double waitCompute = (16.7 - 8) / 8;
		return new ClosedWindow(PoolControllerTests.window(100, throughput, 16.7, 0, 4, 0, null, waitCompute), 4,
				new PoolBounds(1, 8), 0.05, 2, 10.1, 100, 2);
	}

	/**
	 * A window of a pool offered 200 tasks a second that serves 66, whose base service
	 * time is 63.5 ms, at a size and service time, its tasks' CPU time measured.
	 */
	static ClosedWindow onCores(int size, double serviceMs, double cpuMs, int cores) {
		double waitCompute = (serviceMs - cpuMs) / cpuMs;
		return new ClosedWindow(PoolControllerTests.window(200, 66, serviceMs, 0, size, 50, null, waitCompute), size,
				new PoolBounds(1, 64), 0.6, cores, 63.5, 66, 0);
	}

	private static ClosedWindow window(double arrivalRate, double throughput, int queued) {
		return new ClosedWindow(PoolControllerTests.window(arrivalRate, throughput, 20, 10, queued, null), 10,
				new PoolBounds(1, 64), 0.2, 20, Double.NaN);
	}

}
