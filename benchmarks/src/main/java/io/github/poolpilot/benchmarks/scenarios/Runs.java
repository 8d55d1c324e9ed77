package io.github.poolpilot.benchmarks.scenarios;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.benchmarks.scenarios.RunResult.PoolSeries;

/**
 * Runs one strategy through one scenario on real threads: the calling thread is the
 * open-loop load generator, handing each task to its pool at its intended time (or as
 * soon as it can when it is late: the lateness is part of the task's latency), while a
 * {@link Monitor} samples the pools.
 *
 * @author poolpilot authors
 */
final class Runs {

	static final long SECOND = 1_000_000_000L;

	/**
	 * After the load, the pools get this long to finish what they accepted; then what
	 * still runs is interrupted and what is queued is dropped.
	 */
	static final int DRAIN_SECONDS = 5;

	/**
	 * Set-up time before the first arrival, so that the pools exist before it.
	 */
	private static final long LEAD_NANOS = 50_000_000L;

	private Runs() {
	}

	/**
	 * Run a strategy.
	 * @param scenario the scenario, for its pools and their downstreams
	 * @param schedule the tasks to offer
	 * @param seconds how long the load lasts
	 * @param strategy the strategy
	 * @param console where the tuner's resizes are told
	 * @return what the run measured
	 */
	static RunResult run(Scenario scenario, Schedule schedule, int seconds, Strategy strategy,
			Consumer<String> console) {
		long began = System.nanoTime();
		int capacity = seconds + DRAIN_SECONDS + 1;
		Deployment deployment = strategy.deploy(scenario, console);
		TaskLog log = new TaskLog(schedule);
		List<Target> targets = deployment.targets();
		Semaphore[] downstreams = new Semaphore[scenario.pools().size()];
		for (int pool = 0; pool < downstreams.length; pool++) {
			int permits = scenario.pools().get(pool).workload().downstreamPermits();
			downstreams[pool] = (permits > 0) ? new Semaphore(permits, true) : null;
		}
		Monitor monitor = new Monitor(targets, capacity);
		long start = System.nanoTime() + LEAD_NANOS;
		monitor.start(start);
		parkUntil(start);
		deployment.start(start);
		try {
			for (int task = 0; task < schedule.size(); task++) {
				parkUntil(start + schedule.intendedNanos(task));
				int pool = schedule.pool(task);
				log.accepting(task);
				if (!targets.get(pool).submit(new TaskRun(log, task, start, downstream(downstreams, pool)))) {
					log.rejected(task);
				}
			}
			parkUntil(start + seconds * SECOND);
			long drainEnd = start + (seconds + DRAIN_SECONDS) * SECOND;
			while (log.unfinished() > 0 && System.nanoTime() < drainEnd) {
				LockSupport.parkNanos(Monitor.PERIOD_MILLIS * 1_000_000L);
			}
		}
		finally {
			long end = System.nanoTime();
			if (!deployment.stop()) {
				console.accept("    warning: a pool of " + strategy.name() + " did not terminate within 10 s");
			}
			monitor.stop();
			log.close(end - start);
		}
		int length = (int) Math.min(capacity, (log.runNanos() + SECOND - 1) / SECOND);
		List<PoolSeries> pools = new ArrayList<>();
		for (int pool = 0; pool < targets.size(); pool++) {
			pools.add(new PoolSeries(scenario.pools().get(pool).name(), Arrays.copyOf(monitor.size(pool), length),
					Arrays.copyOf(monitor.liveMax(pool), length), Arrays.copyOf(monitor.queued(pool), length)));
		}
		return new RunResult(strategy.name(), length, log, pools, Arrays.copyOf(monitor.totalLiveMax(), length),
				Arrays.copyOf(monitor.processCpu(), length), Arrays.copyOf(monitor.machineCpu(), length),
				deployment.tuning(), (System.nanoTime() - began) / (double) SECOND);
	}

	private static @Nullable Semaphore downstream(Semaphore[] downstreams, int pool) {
		return downstreams[pool];
	}

	private static void parkUntil(long deadline) {
		long left;
		while ((left = deadline - System.nanoTime()) > 0) {
			LockSupport.parkNanos(left);
		}
	}

}
