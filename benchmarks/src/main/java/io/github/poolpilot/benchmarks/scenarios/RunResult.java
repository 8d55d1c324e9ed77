package io.github.poolpilot.benchmarks.scenarios;

import java.util.List;

/**
 * What one run of one strategy measured.
 *
 * @param strategy the strategy's name
 * @param seconds how many seconds of the run the series hold, drain included
 * @param log every task's outcome and end
 * @param pools each pool's sampled series
 * @param totalLiveMax per second, the most live threads of all pools together in any
 * {@value Monitor#PERIOD_MILLIS} ms sample
 * @param processCpu per second, the share of the machine's cores this process used
 * @param machineCpu per second, the share of the machine's cores used by every process
 * @param tuning the tuner's ticks, empty for an untuned strategy
 * @param wallSeconds how long the run took, set-up to teardown
 * @author poolpilot authors
 */
record RunResult(String strategy, int seconds, TaskLog log, List<PoolSeries> pools, int[] totalLiveMax,
		double[] processCpu, double[] machineCpu, List<TuningRecord> tuning, double wallSeconds) {

	/**
	 * The most live threads of all pools together at any sample of the run.
	 * @return the maximum
	 */
	int maxLiveThreads() {
		int max = 0;
		for (int live : this.totalLiveMax) {
			max = Math.max(max, live);
		}
		return max;
	}

	/**
	 * The mean over a window's seconds of the most live threads of all pools together in
	 * each second.
	 * @param window the seconds
	 * @return the mean, 0 for an empty window
	 */
	double meanLiveThreads(Window window) {
		long sum = 0;
		int count = 0;
		for (int second = window.from(); second < Math.min(window.to(), this.totalLiveMax.length); second++) {
			sum += this.totalLiveMax[second];
			count++;
		}
		return (count > 0) ? (double) sum / count : 0;
	}

	/**
	 * The share of the machine's cores that other processes used, on average over a
	 * window: what the whole machine used less what this process used.
	 * @param window the seconds
	 * @return the share, 0 when unknown
	 */
	double otherProcessesCpu(Window window) {
		double sum = 0;
		int count = 0;
		for (int second = window.from(); second < Math.min(window.to(), this.seconds); second++) {
			if (!Double.isNaN(this.machineCpu[second]) && !Double.isNaN(this.processCpu[second])) {
				sum += Math.max(0, this.machineCpu[second] - this.processCpu[second]);
				count++;
			}
		}
		return (count > 0) ? sum / count : 0;
	}

	/**
	 * The sizes of all pools together, per second.
	 * @return the summed sizes
	 */
	int[] totalSize() {
		int[] total = new int[this.seconds];
		for (PoolSeries pool : this.pools) {
			for (int second = 0; second < this.seconds; second++) {
				total[second] += pool.size()[second];
			}
		}
		return total;
	}

	/**
	 * One pool's series, sampled every {@value Monitor#PERIOD_MILLIS} ms.
	 *
	 * @param name the pool's name
	 * @param size per second, its size in the last sample of the second: its maximum pool
	 * size, Spring's core size, or the limiter's limit
	 * @param liveMax per second, its most live threads in any sample
	 * @param queued per second, its queued tasks in the last sample
	 */
	record PoolSeries(String name, int[] size, int[] liveMax, int[] queued) {

	}

}
