package io.github.poolpilot.measure;

import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.measure.PoolSnapshot.Latency;
import io.github.poolpilot.measure.PoolSnapshot.LittlesLaw;
import io.github.poolpilot.measure.TimingSample.Distributions;

/**
 * Turns one window's counts, occupancy integrals and timed tasks into its mean times and
 * Little's-law figures.
 * <p>
 * The means come from one of two sources, whichever is exact for the window:
 * <ul>
 * <li><b>every task that ended was timed</b> (a pool below about a thousand tasks a
 * window): the exact sums of their times, divided by their number;</li>
 * <li><b>otherwise, Little's law</b>: L = λ·W applied to the queue and to the threads,
 * with the window's throughput X standing for λ (they are equal in a steady state, and X
 * leaves out the refused tasks that never queued): mean queue wait Wq = ∫queued dt / n
 * and mean service time S = ∫busy dt / n, n being the tasks that ended in the window and
 * the integrals those of {@link Occupancy}. Should the occupancy not have been sampled in
 * the window (no sampler running, or a pause longer than a tenth of it), the timed tasks'
 * own means stand in.</li>
 * </ul>
 * Percentiles always come from the timed tasks, and each {@link Latency} says how many
 * they rest on.
 *
 * @author poolpilot authors
 */
final class WindowFigures {

	private static final double NANOS_PER_MILLI = 1_000_000.0;

	/**
	 * The occupancy covers a window when its samples are at most a tenth of it apart.
	 */
	private static final int LEAST_SAMPLES_PER_WINDOW = 10;

	final Latency queueWait;

	final Latency service;

	final Latency response;

	/**
	 * The time the threads spent running tasks in the window, in thread-nanoseconds.
	 */
	final double busyNanos;

	WindowFigures(Totals window, long windowNanos, Occupancy.Window occupancy, Distributions distributions) {
		long ended = window.ended();
		long timed = window.timed();
		boolean occupancyCovers = occupancy.longestGapNanos() * LEAST_SAMPLES_PER_WINDOW <= windowNanos;
		double queueWaitNanos;
		double serviceNanos;
		if (ended == 0) {
			queueWaitNanos = 0;
			serviceNanos = 0;
		}
		else if (timed == ended || (!occupancyCovers && timed > 0)) {
			queueWaitNanos = window.queueWaitNanos() / (double) timed;
			serviceNanos = window.serviceNanos() / (double) timed;
		}
		else {
			// Little's law: W = L / λ, for the queue and for the threads.
			queueWaitNanos = occupancy.queuedNanos() / ended;
			serviceNanos = occupancy.busyNanos() / ended;
		}
		this.busyNanos = (occupancyCovers && timed != ended) ? occupancy.busyNanos() : serviceNanos * ended;
		this.queueWait = latency(queueWaitNanos, distributions.queueWait());
		this.service = latency(serviceNanos, distributions.service());
		this.response = latency(queueWaitNanos + serviceNanos, distributions.response());
	}

	LittlesLaw littlesLaw(double arrivalRate, double throughput, @Nullable Double waitCompute, int processors,
			double targetCpuUtilization) {
		double responseSeconds = this.response.meanMs() / 1000;
		// Little's law: L = X·R, with the measured throughput standing for λ.
		double concurrency = throughput * responseSeconds;
		double busyThreads = throughput * this.service.meanMs() / 1000;
		double deadTimeRatio = (this.response.meanMs() > 0) ? this.queueWait.meanMs() / this.response.meanMs() : 0;
		// Goetz: N = Ncpu · U · (1 + W/C).
		Integer goetz = (waitCompute != null) ? (int) Math.ceil(processors * targetCpuUtilization * (1 + waitCompute))
				: null;
		return new LittlesLaw(arrivalRate, throughput, this.service.meanMs(), this.queueWait.meanMs(),
				this.response.meanMs(), this.response.p99Ms(), concurrency, busyThreads, deadTimeRatio,
				concurrency / processors, waitCompute, goetz);
	}

	private static Latency latency(double meanNanos, Histogram histogram) {
		long samples = histogram.getTotalCount();
		if (meanNanos == 0 && samples == 0) {
			return Latency.NONE;
		}
		if (samples == 0) {
			return new Latency(meanNanos / NANOS_PER_MILLI, 0, 0, 0, 0, 0);
		}
		return new Latency(meanNanos / NANOS_PER_MILLI, millis(histogram.getValueAtPercentile(50)),
				millis(histogram.getValueAtPercentile(90)), millis(histogram.getValueAtPercentile(99)),
				millis(histogram.getMaxValue()), samples);
	}

	private static double millis(long nanos) {
		return nanos / NANOS_PER_MILLI;
	}

}
