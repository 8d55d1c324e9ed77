package io.github.poolpilot.measure;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Iterator;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.measure.PoolSnapshot.Latency;
import io.github.poolpilot.measure.PoolSnapshot.LittlesLaw;
import io.github.poolpilot.measure.PoolSnapshot.Rejections;
import io.github.poolpilot.measure.PoolSnapshot.Sizes;
import io.github.poolpilot.measure.PoolSnapshot.TaskCounts;

/**
 * Records what happens to a pool's tasks and turns it into one {@link PoolSnapshot} per
 * window.
 * <p>
 * The recording side runs on every submit and every task end, so it takes no lock and
 * keeps no per-task state: submits and rejections go to {@link LongAdder}s, each worker
 * thread's ends, counts and time sums to its own {@link WorkerTotals}, latencies to
 * HdrHistogram {@link Recorder}s, and each task's timestamps travel with the task in the
 * executor's wrapper, which reports here when the task ends. It records and nothing else:
 * the executors wrap, guard and classify tasks. Counts are always exact; timing can be
 * limited to one task in {@code timingSampleEvery}, and thread CPU time (which costs a
 * system call) is sampled on one timed task in {@code cpuSampleEvery}.
 * <p>
 * Every timed task adds to the exact sums behind the means. The percentile histograms
 * take a uniform random sample of them sized to the pool's rate: all tasks while a window
 * holds fewer than {@value #HISTOGRAM_SAMPLES_PER_WINDOW}, about that many once it holds
 * more, so that a fast pool does not pay three histogram records per task for percentiles
 * that a thousand samples already give within a percent. CPU sampling thins out the same
 * way, to about {@value #CPU_SAMPLES_PER_WINDOW} samples a window.
 *
 * @author poolpilot authors
 */
public final class PoolRecorder {

	private static final double NANOS_PER_MILLI = 1_000_000.0;

	private static final double NANOS_PER_SECOND = 1_000_000_000.0;

	/**
	 * Two significant digits bound each percentile's error to 1 % while keeping a
	 * histogram near 40 KB; means are exact because they come from sums.
	 */
	private static final int SIGNIFICANT_DIGITS = 2;

	static final long HISTOGRAM_SAMPLES_PER_WINDOW = 1000;

	static final long CPU_SAMPLES_PER_WINDOW = 100;

	private final NanoClock clock;

	private final @Nullable NanoClock cpuClock;

	private final int timingSampleEvery;

	private final int cpuSampleEvery;

	/**
	 * Record one timed task in this many into the histograms; set from the number of
	 * timed tasks in the last window.
	 */
	private volatile int histogramSampleEvery = 1;

	/**
	 * Read the CPU time of one timed task in this many; at least cpuSampleEvery.
	 */
	private volatile int cpuSampleEveryNow;

	private final int processors;

	private final double targetCpuUtilization;

	private final LongAdder submitted = new LongAdder();

	private final LongAdder[] rejected = { new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder() };

	private final LongAdder timedOut = new LongAdder();

	private final LongAdder abandoned = new LongAdder();

	private final ThreadLocal<WorkerTotals> workerTotals = ThreadLocal.withInitial(this::newWorkerTotals);

	private final Queue<WorkerTotals> workers = new ConcurrentLinkedQueue<>();

	/**
	 * Totals shared by the threads of a pool whose threads each run one task, striped so
	 * that tasks running at once rarely add to the same; {@code null} while each thread
	 * keeps its own.
	 */
	private volatile WorkerTotals @Nullable [] sharedTotals;

	/**
	 * Totals of worker threads that ended, guarded by this.
	 */
	private final long[] endedWorkers = new long[WorkerTotals.FIELDS];

	private final Recorder queueWait = new Recorder(SIGNIFICANT_DIGITS);

	private final Recorder service = new Recorder(SIGNIFICANT_DIGITS);

	private final Recorder response = new Recorder(SIGNIFICANT_DIGITS);

	private volatile @Nullable TimingListener timingListener;

	// Window state, guarded by this.

	private Totals windowStart = Totals.ZERO;

	private long windowStartNanos;

	private @Nullable Histogram queueWaitInterval;

	private @Nullable Histogram serviceInterval;

	private @Nullable Histogram responseInterval;

	private @Nullable Double waitComputeRatio;

	private PoolRecorder(Builder builder) {
		this.clock = builder.clock;
		this.cpuClock = (builder.cpuSampleEvery > 0) ? builder.cpuClock : null;
		this.timingSampleEvery = builder.timingSampleEvery;
		this.cpuSampleEvery = builder.cpuSampleEvery;
		this.cpuSampleEveryNow = builder.cpuSampleEvery;
		this.processors = builder.processors;
		this.targetCpuUtilization = builder.targetCpuUtilization;
		this.windowStartNanos = this.clock.nanoTime();
	}

	/**
	 * Return a builder with the defaults: the system clock, every task timed, CPU time
	 * sampled on one task in 16, all available processors and a target CPU utilization of
	 * 1.
	 * @return a new builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Count a task as submitted.
	 */
	public void taskSubmitted() {
		this.submitted.increment();
	}

	/**
	 * Return whether the task being submitted is one to time: every task, or one in
	 * {@code timingSampleEvery} at random. Untimed tasks are still counted.
	 * @return whether to time it
	 */
	public boolean timesThisTask() {
		return this.timingSampleEvery == 1 || ThreadLocalRandom.current().nextInt(this.timingSampleEvery) == 0;
	}

	/**
	 * Set a listener told of every timed task's queue wait and service time, such as
	 * metrics timers.
	 * @param timingListener the listener, or {@code null} for none
	 */
	public void setTimingListener(@Nullable TimingListener timingListener) {
		this.timingListener = timingListener;
	}

	/**
	 * Count a task that the pool refused.
	 * @param reason why
	 */
	public void taskRejected(RejectionReason reason) {
		this.rejected[reason.ordinal()].increment();
	}

	/**
	 * Count a task interrupted for running longer than the pool's timeout.
	 */
	public void taskTimedOut() {
		this.timedOut.increment();
	}

	/**
	 * Count queued tasks that were handed back without running, at {@code shutdownNow()}.
	 * @param tasks how many
	 */
	public void tasksAbandoned(int tasks) {
		this.abandoned.add(tasks);
	}

	/**
	 * Count the end of a task that was not timed.
	 * @param failed whether it failed: it threw, or it is a future that failed
	 */
	public void untimedTaskFinished(boolean failed) {
		totals().add(failed ? WorkerTotals.FAILED : WorkerTotals.COMPLETED, 1);
	}

	/**
	 * Count the tasks of threads that each run one task, as a virtual pool's do, in a few
	 * shared totals rather than in totals of each thread's own: those cost a
	 * {@code ThreadLocal} map, a padded array and a queue entry per task, and a look at
	 * each in every snapshot. Call it before the pool takes tasks.
	 */
	public void shareTotalsAmongShortLivedThreads() {
		int stripes = Integer.highestOneBit(Math.max(2, this.processors * 2) * 2 - 1);
		WorkerTotals[] shared = new WorkerTotals[stripes];
		for (int i = 0; i < stripes; i++) {
			shared[i] = WorkerTotals.shared();
			this.workers.add(shared[i]);
		}
		this.sharedTotals = shared;
	}

	/**
	 * Return the totals the current thread adds to.
	 */
	@SuppressWarnings("deprecation") // Thread.getId(): threadId() is Java 19+
	private WorkerTotals totals() {
		WorkerTotals[] shared = this.sharedTotals;
		if (shared == null) {
			return this.workerTotals.get();
		}
		// Thread ids count up, so one task after another takes the next stripe.
		return shared[(int) Thread.currentThread().getId() & (shared.length - 1)];
	}

	/**
	 * Return the time on the recorder's clock, which timestamps tasks.
	 * @return the time in nanoseconds
	 */
	public long now() {
		return this.clock.nanoTime();
	}

	/**
	 * Return the current thread's CPU time if the task starting on it is one whose CPU
	 * time is sampled, else -1.
	 * @return the CPU time in nanoseconds, or -1
	 */
	public long cpuSampleStart() {
		NanoClock cpu = this.cpuClock;
		int every = this.cpuSampleEveryNow;
		if (cpu == null || (every > 1 && ThreadLocalRandom.current().nextInt(every) != 0)) {
			return -1;
		}
		return cpu.nanoTime();
	}

	/**
	 * Record a timed task that ended now, on the thread that ran it.
	 * @param submittedAt when it was submitted, on the recorder's clock
	 * @param startedAt when it started
	 * @param cpuStart the thread's CPU time when it started, or -1 when not sampled
	 * @param failed whether it failed
	 */
	public void timedTaskFinished(long submittedAt, long startedAt, long cpuStart, boolean failed) {
		long endedAt = this.clock.nanoTime();
		long wait = Math.max(0, startedAt - submittedAt);
		long serviceTime = Math.max(0, endedAt - startedAt);
		WorkerTotals totals = totals();
		if (cpuStart >= 0) {
			totals.add(WorkerTotals.SAMPLED_CPU_NANOS, Math.max(0, this.cpuClock.nanoTime() - cpuStart));
			totals.add(WorkerTotals.SAMPLED_SERVICE_NANOS, serviceTime);
		}
		totals.add(WorkerTotals.QUEUE_WAIT_NANOS, wait);
		totals.add(WorkerTotals.SERVICE_NANOS, serviceTime);
		totals.add(WorkerTotals.TIMED, 1);
		int every = this.histogramSampleEvery;
		if (every == 1 || ThreadLocalRandom.current().nextInt(every) == 0) {
			this.queueWait.recordValue(wait);
			this.service.recordValue(serviceTime);
			this.response.recordValue(wait + serviceTime);
		}
		totals.add(failed ? WorkerTotals.FAILED : WorkerTotals.COMPLETED, 1);
		TimingListener listener = this.timingListener;
		if (listener != null) {
			try {
				listener.taskTimed(wait, serviceTime);
			}
			catch (RuntimeException ex) {
				// Metrics must never cost a task its outcome.
			}
		}
	}

	private WorkerTotals newWorkerTotals() {
		WorkerTotals totals = new WorkerTotals();
		this.workers.add(totals);
		return totals;
	}

	/**
	 * Sum every worker's totals; those of ended workers are kept and their entries
	 * dropped, so that threads coming and going leave nothing behind.
	 */
	private synchronized long[] workerSums() {
		long[] sums = this.endedWorkers.clone();
		for (Iterator<WorkerTotals> iterator = this.workers.iterator(); iterator.hasNext();) {
			WorkerTotals totals = iterator.next();
			boolean ended = totals.ownerEnded();
			for (int field = 0; field < WorkerTotals.FIELDS; field++) {
				long value = totals.get(field);
				sums[field] += value;
				if (ended) {
					this.endedWorkers[field] += value;
				}
			}
			if (ended) {
				iterator.remove();
			}
		}
		return sums;
	}

	/**
	 * Return the cumulative task counts.
	 * @return the counts so far
	 */
	public TaskCounts taskCounts() {
		return Totals.read(this).counts();
	}

	/**
	 * Close the current window and describe it. Each call starts a new window, so one
	 * caller (the pool's sampler) should take snapshots and share them.
	 * @param pool the pool's name
	 * @param sizes the pool's sizes now
	 * @return the closed window's snapshot
	 */
	public synchronized PoolSnapshot snapshot(String pool, Sizes sizes) {
		long now = this.clock.nanoTime();
		Totals totals = Totals.read(this);
		Totals window = totals.minus(this.windowStart);
		double seconds = Math.max(1, now - this.windowStartNanos) / NANOS_PER_SECOND;
		this.windowStart = totals;
		this.windowStartNanos = now;
		this.queueWaitInterval = this.queueWait.getIntervalHistogram(this.queueWaitInterval);
		this.serviceInterval = this.service.getIntervalHistogram(this.serviceInterval);
		this.responseInterval = this.response.getIntervalHistogram(this.responseInterval);
		Latency queueWait = latency(this.queueWaitInterval, window.queueWaitNanos, window.timed);
		Latency service = latency(this.serviceInterval, window.serviceNanos, window.timed);
		Latency response = latency(this.responseInterval, window.queueWaitNanos + window.serviceNanos, window.timed);
		if (window.sampledCpuNanos > 0) {
			this.waitComputeRatio = Math.max(0,
					(window.sampledServiceNanos - window.sampledCpuNanos) / (double) window.sampledCpuNanos);
		}
		long arrivals = window.submitted;
		long completions = window.completed + window.failed;
		this.histogramSampleEvery = (int) Math.max(1,
				Math.min(Integer.MAX_VALUE, window.timed / HISTOGRAM_SAMPLES_PER_WINDOW));
		if (this.cpuSampleEvery > 0) {
			this.cpuSampleEveryNow = (int) Math.max(this.cpuSampleEvery,
					Math.min(Integer.MAX_VALUE, window.timed / CPU_SAMPLES_PER_WINDOW));
		}
		LittlesLaw littlesLaw = littlesLaw(arrivals / seconds, completions / seconds, queueWait, service, response);
		return new PoolSnapshot(pool, seconds, sizes, totals.counts(), arrivals, completions, queueWait, service,
				response, littlesLaw);
	}

	private LittlesLaw littlesLaw(double arrivalRate, double throughput, Latency queueWait, Latency service,
			Latency response) {
		double responseSeconds = response.meanMs() / 1000;
		// Little's law: L = λ·W, with the measured throughput standing for λ.
		double concurrency = throughput * responseSeconds;
		double busyThreads = throughput * service.meanMs() / 1000;
		double deadTimeRatio = (response.meanMs() > 0) ? queueWait.meanMs() / response.meanMs() : 0;
		Double waitCompute = this.waitComputeRatio;
		// Goetz: N = Ncpu · U · (1 + W/C).
		Integer goetz = (waitCompute != null)
				? (int) Math.ceil(this.processors * this.targetCpuUtilization * (1 + waitCompute)) : null;
		return new LittlesLaw(arrivalRate, throughput, service.meanMs(), queueWait.meanMs(), response.meanMs(),
				response.p99Ms(), concurrency, busyThreads, deadTimeRatio, concurrency / this.processors, waitCompute,
				goetz);
	}

	private static Latency latency(Histogram histogram, long sumNanos, long count) {
		if (count == 0) {
			return Latency.NONE;
		}
		return new Latency(sumNanos / NANOS_PER_MILLI / count, millis(histogram.getValueAtPercentile(50)),
				millis(histogram.getValueAtPercentile(90)), millis(histogram.getValueAtPercentile(99)),
				millis(histogram.getMaxValue()));
	}

	private static double millis(long nanos) {
		return nanos / NANOS_PER_MILLI;
	}

	/**
	 * Told of every timed task's times as it ends, on the thread that ran it.
	 */
	@FunctionalInterface
	public interface TimingListener {

		/**
		 * A timed task ended.
		 * @param queueWaitNanos how long it waited in the queue
		 * @param serviceNanos how long it ran
		 */
		void taskTimed(long queueWaitNanos, long serviceNanos);

	}

	/**
	 * The recorder's cumulative sums at one moment; a window's are the difference of two,
	 * but for its rejections by reason and its timeouts, which stay cumulative.
	 */
	private record Totals(long submitted, long completed, long failed, long rejected, long abandoned, long timed,
			long queueWaitNanos, long serviceNanos, long sampledServiceNanos, long sampledCpuNanos,
			Rejections rejections, long timedOut) {

		static final Totals ZERO = new Totals(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, new Rejections(0, 0, 0, 0), 0);

		static Totals read(PoolRecorder recorder) {
			// Ends are read before submits so that a task racing the read is never
			// counted as finished without having been submitted.
			long[] workers = recorder.workerSums();
			LongAdder[] rejected = recorder.rejected;
			Rejections rejections = new Rejections(rejected[RejectionReason.QUEUE_FULL.ordinal()].sum(),
					rejected[RejectionReason.QUEUE_WAIT.ordinal()].sum(),
					rejected[RejectionReason.CIRCUIT_OPEN.ordinal()].sum(),
					rejected[RejectionReason.SHUTDOWN.ordinal()].sum());
			long abandoned = recorder.abandoned.sum();
			long timedOut = recorder.timedOut.sum();
			return new Totals(recorder.submitted.sum(), workers[WorkerTotals.COMPLETED], workers[WorkerTotals.FAILED],
					rejections.queueFull() + rejections.queueWait() + rejections.circuitOpen() + rejections.shutdown(),
					abandoned, workers[WorkerTotals.TIMED], workers[WorkerTotals.QUEUE_WAIT_NANOS],
					workers[WorkerTotals.SERVICE_NANOS], workers[WorkerTotals.SAMPLED_SERVICE_NANOS],
					workers[WorkerTotals.SAMPLED_CPU_NANOS], rejections, timedOut);
		}

		Totals minus(Totals start) {
			return new Totals(this.submitted - start.submitted, this.completed - start.completed,
					this.failed - start.failed, this.rejected - start.rejected, this.abandoned - start.abandoned,
					this.timed - start.timed, this.queueWaitNanos - start.queueWaitNanos,
					this.serviceNanos - start.serviceNanos, this.sampledServiceNanos - start.sampledServiceNanos,
					this.sampledCpuNanos - start.sampledCpuNanos, this.rejections, this.timedOut);
		}

		TaskCounts counts() {
			return new TaskCounts(this.submitted, this.completed, this.failed, this.rejected, this.abandoned,
					this.rejections, this.timedOut);
		}

	}

	/**
	 * Builds a {@link PoolRecorder}.
	 */
	public static final class Builder {

		private NanoClock clock = NanoClock.SYSTEM;

		private @Nullable NanoClock cpuClock = systemCpuClock();

		private int timingSampleEvery = 1;

		private int cpuSampleEvery = 16;

		private int processors = Runtime.getRuntime().availableProcessors();

		private double targetCpuUtilization = 1.0;

		private Builder() {
		}

		/**
		 * Set the clock that timestamps tasks and windows.
		 * @param clock the clock
		 * @return this builder
		 */
		public Builder clock(NanoClock clock) {
			this.clock = clock;
			return this;
		}

		/**
		 * Set the clock that reads the current thread's CPU time, in nanoseconds.
		 * @param cpuClock the CPU clock
		 * @return this builder
		 */
		public Builder cpuClock(NanoClock cpuClock) {
			this.cpuClock = cpuClock;
			return this;
		}

		/**
		 * Time one task in {@code every} (1, the default, times every task). Counts stay
		 * exact whatever the value.
		 * @param every the sampling interval, at least 1
		 * @return this builder
		 */
		public Builder timingSampleEvery(int every) {
			if (every < 1) {
				throw new IllegalArgumentException("timingSampleEvery must be at least 1 but was " + every);
			}
			this.timingSampleEvery = every;
			return this;
		}

		/**
		 * Read the thread CPU time of one timed task in {@code every}; 0 turns CPU
		 * sampling off.
		 * @param every the sampling interval, 0 or more
		 * @return this builder
		 */
		public Builder cpuSampleEvery(int every) {
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
		public Builder processors(int processors) {
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
		public Builder targetCpuUtilization(double utilization) {
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

}
