package io.github.poolpilot.benchmarks.scenarios;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * One tuning scenario: its pools and their load, how long a strategy's run lasts, and
 * which seconds of the run each figure of the summary is taken from.
 *
 * @param id the scenario's name, {@code S1} to {@code S7}
 * @param title what it is, in one line
 * @param seed the seed of the arrivals and of the tasks' times, the same for every
 * strategy
 * @param pools its pools
 * @param seconds how long a run offers load (arrivals may stop earlier, as in S5's idle
 * end); the pools then get up to {@link Runs#DRAIN_SECONDS} to finish what they accepted
 * @param measured the seconds whose throughput and p99 go into the summary
 * @param settleWindows the windows the pool size settles in after a change of load: the
 * summary's settle time is the longest
 * @param steadyWindows the windows in which the size should no longer change: size
 * changes per minute are counted there
 * @param phases parts of the run reported on their own (S4's steps, S5's phases)
 * @param sweep how the best static size is found, or {@code null} when the reference is a
 * given static sizing
 * @param staticSizes the reference's sizes when there is no sweep, one per pool
 * @param budget the live threads the pools of a tuned strategy share, or {@code null}
 * @param maxQueueWait for the scenario that compares poolpilot with and without a
 * max-queue-wait: that max-queue-wait; {@code null} for the others
 * @author poolpilot authors
 */
record Scenario(String id, String title, long seed, List<PoolSpec> pools, int seconds, Window measured,
		List<Window> settleWindows, List<Window> steadyWindows, List<Phase> phases, @Nullable SweepPlan sweep,
		int @Nullable [] staticSizes, @Nullable Integer budget, @Nullable Duration maxQueueWait) {

	Scenario(String id, String title, long seed, List<PoolSpec> pools, int seconds, Window measured,
			List<Window> settleWindows, List<Window> steadyWindows, List<Phase> phases, @Nullable SweepPlan sweep,
			int @Nullable [] staticSizes, @Nullable Integer budget) {
		this(id, title, seed, pools, seconds, measured, settleWindows, steadyWindows, phases, sweep, staticSizes,
				budget, null);
	}

	/**
	 * The name of the strategy the others are compared with.
	 * @return {@code best-static}, {@code static-shares} without a sweep, or
	 * {@code poolpilot} (queue-length rejection alone) for the max-queue-wait scenario
	 */
	String reference() {
		if (this.maxQueueWait != null) {
			return Strategy.POOLPILOT;
		}
		return (this.sweep != null) ? Strategy.BEST_STATIC : Strategy.STATIC_SHARES;
	}

	/**
	 * Return whether the scenario runs several pools.
	 * @return whether it has more than one pool
	 */
	boolean multiPool() {
		return this.pools.size() > 1;
	}

}
