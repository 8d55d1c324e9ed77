package io.github.poolpilot.measure;

import java.util.function.IntSupplier;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.measure.PoolSnapshot.LittlesLaw;
import io.github.poolpilot.measure.PoolSnapshot.Sizes;
import io.github.poolpilot.measure.TimingSample.Distributions;

/**
 * The window a {@link PoolRecorder} is in: the occupancy sampled since it opened, and
 * what closing it makes of the counts and timed tasks, a {@link PoolSnapshot}. Its state
 * is read and written by the pool's sampler alone, never on a task's path.
 *
 * @author poolpilot authors
 */
final class RecorderWindow {

	private static final double NANOS_PER_SECOND = 1_000_000_000.0;

	private final NanoClock clock;

	private final TotalsReader totals;

	private final TimingSample timing;

	private final int processors;

	private final double targetCpuUtilization;

	private final @Nullable ScheduledRuns scheduledRuns;

	private final Occupancy occupancy;

	// Guarded by this.

	private Totals start = Totals.ZERO;

	private long startNanos;

	private @Nullable Double waitComputeRatio;

	RecorderWindow(NanoClock clock, TotalsReader totals, TimingSample timing, int processors,
			double targetCpuUtilization, @Nullable ScheduledRuns scheduledRuns) {
		this.clock = clock;
		this.totals = totals;
		this.timing = timing;
		this.processors = processors;
		this.targetCpuUtilization = targetCpuUtilization;
		this.scheduledRuns = scheduledRuns;
		this.startNanos = clock.nanoTime();
		this.occupancy = new Occupancy(this.startNanos);
	}

	/**
	 * Add a sample of the pool's occupancy, taken now (see
	 * {@link PoolRecorder#sampleOccupancy}).
	 * @param busy the threads (or permits) running a task
	 */
	void sampleOccupancy(int busy) {
		IntSupplier queue = this.totals.queued();
		int queued;
		if (queue != null) {
			// A pool whose submits are its tasks' outcomes knows no count of the tasks in
			// it but its queue's.
			queued = Math.max(0, queue.getAsInt());
		}
		else {
			int inPool = (int) Math.min(Integer.MAX_VALUE, Math.max(0, this.totals.inPool()));
			queued = Math.max(0, inPool - busy);
		}
		this.occupancy.sample(this.clock.nanoTime(), queued, busy);
	}

	/**
	 * Close the window and describe it; the next one starts now (see
	 * {@link PoolRecorder#snapshot}).
	 * @param pool the pool's name
	 * @param sizes the pool's sizes now
	 * @return the closed window's snapshot
	 */
	synchronized PoolSnapshot close(String pool, Sizes sizes) {
		long now = this.clock.nanoTime();
		Totals totals = this.totals.read();
		Totals window = totals.minus(this.start);
		long windowNanos = Math.max(1, now - this.startNanos);
		double seconds = windowNanos / NANOS_PER_SECOND;
		this.start = totals;
		this.startNanos = now;
		Occupancy.Window occupancy = this.occupancy.close(now, sizes.queueSize(), sizes.activeCount());
		Distributions distributions = this.timing.close();
		WindowFigures figures = new WindowFigures(window, windowNanos, occupancy, distributions);
		if (window.sampledCpuNanos() > 0) {
			this.waitComputeRatio = Math.max(0,
					(window.sampledServiceNanos() - window.sampledCpuNanos()) / (double) window.sampledCpuNanos());
		}
		long arrivals = window.submitted();
		long completions = window.ended();
		this.timing.adapt(arrivals, window.timed(), figures.busyNanos);
		LittlesLaw littlesLaw = figures.littlesLaw(arrivals / seconds, completions / seconds, this.waitComputeRatio,
				this.processors, this.targetCpuUtilization);
		ScheduledRuns runs = this.scheduledRuns;
		return new PoolSnapshot(pool, seconds, sizes, totals.counts(), arrivals, completions, figures.queueWait,
				figures.service, figures.response, littlesLaw, (runs != null) ? runs.close(figures.queueWait) : null);
	}

}
