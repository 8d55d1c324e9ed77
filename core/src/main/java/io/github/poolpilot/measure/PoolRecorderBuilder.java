package io.github.poolpilot.measure;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.function.IntUnaryOperator;

import org.jspecify.annotations.Nullable;

/**
 * Builds a {@link PoolRecorder} ({@link PoolRecorder#builder}).
 *
 * @author poolpilot authors
 */
public final class PoolRecorderBuilder {

	private NanoClock clock = NanoClock.SYSTEM;

	private @Nullable NanoClock cpuClock = systemCpuClock();

	private int timingSampleEvery = 1;

	private IntUnaryOperator draw = TimingSample.THREAD_LOCAL_RANDOM;

	private int cpuSampleEvery = 16;

	private int processors = Runtime.getRuntime().availableProcessors();

	private double targetCpuUtilization = 1.0;

	private boolean scheduledRuns;

	PoolRecorderBuilder() {
	}

	/**
	 * Record a scheduler's runs: each run's submit time is when it was due, so that its
	 * queue wait is its lateness, and the recorder keeps its {@link ScheduledRuns}.
	 * @return this builder
	 */
	public PoolRecorderBuilder scheduledRuns() {
		this.scheduledRuns = true;
		return this;
	}

	/**
	 * Set the clock that timestamps tasks and windows.
	 * @param clock the clock
	 * @return this builder
	 */
	public PoolRecorderBuilder clock(NanoClock clock) {
		this.clock = clock;
		return this;
	}

	/**
	 * Set the clock that reads the current thread's CPU time, in nanoseconds.
	 * @param cpuClock the CPU clock
	 * @return this builder
	 */
	public PoolRecorderBuilder cpuClock(NanoClock cpuClock) {
		this.cpuClock = cpuClock;
		return this;
	}

	/**
	 * Time at most one task in {@code every}: 1, the default, lets the load decide (every
	 * task below about a thousand a window, fewer above). Counts stay exact whatever the
	 * value.
	 * @param every the sampling interval, at least 1
	 * @return this builder
	 */
	public PoolRecorderBuilder timingSampleEvery(int every) {
		if (every < 1) {
			throw new IllegalArgumentException("timingSampleEvery must be at least 1 but was " + every);
		}
		this.timingSampleEvery = every;
		return this;
	}

	/**
	 * Set the uniform draw in [0, bound) that picks the tasks to time, so that a test can
	 * seed it.
	 * @param draw the draw
	 * @return this builder
	 */
	PoolRecorderBuilder draw(IntUnaryOperator draw) {
		this.draw = draw;
		return this;
	}

	/**
	 * Read the thread CPU time of one timed task in {@code every}; 0 turns CPU sampling
	 * off.
	 * @param every the sampling interval, 0 or more
	 * @return this builder
	 */
	public PoolRecorderBuilder cpuSampleEvery(int every) {
		if (every < 0) {
			throw new IllegalArgumentException("cpuSampleEvery must be 0 (off) or more but was " + every);
		}
		this.cpuSampleEvery = every;
		return this;
	}

	/**
	 * Set the processor count used by the per-CPU and Goetz figures.
	 * @param processors the number of processors, at least 1
	 * @return this builder
	 */
	public PoolRecorderBuilder processors(int processors) {
		if (processors < 1) {
			throw new IllegalArgumentException("processors must be at least 1 but was " + processors);
		}
		this.processors = processors;
		return this;
	}

	/**
	 * Set the CPU utilization the Goetz recommendation aims for.
	 * @param utilization a fraction in (0, 1]
	 * @return this builder
	 */
	public PoolRecorderBuilder targetCpuUtilization(double utilization) {
		if (!(utilization > 0 && utilization <= 1)) {
			throw new IllegalArgumentException("targetCpuUtilization must be in (0, 1] but was " + utilization);
		}
		this.targetCpuUtilization = utilization;
		return this;
	}

	/**
	 * Build the recorder; its first window starts now.
	 * @return a new recorder
	 */
	public PoolRecorder build() {
		return new PoolRecorder(this);
	}

	NanoClock clock() {
		return this.clock;
	}

	@Nullable NanoClock cpuClock() {
		return (this.cpuSampleEvery > 0) ? this.cpuClock : null;
	}

	int timingSampleEvery() {
		return this.timingSampleEvery;
	}

	IntUnaryOperator draw() {
		return this.draw;
	}

	int cpuSampleEvery() {
		return this.cpuSampleEvery;
	}

	int processors() {
		return this.processors;
	}

	double targetCpuUtilization() {
		return this.targetCpuUtilization;
	}

	boolean recordsScheduledRuns() {
		return this.scheduledRuns;
	}

	private static @Nullable NanoClock systemCpuClock() {
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		if (!threads.isCurrentThreadCpuTimeSupported()) {
			return null;
		}
		if (!threads.isThreadCpuTimeEnabled()) {
			threads.setThreadCpuTimeEnabled(true);
		}
		return threads::getCurrentThreadCpuTime;
	}

}
