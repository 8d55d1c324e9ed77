package io.github.poolpilot.measure;

import org.jspecify.annotations.Nullable;

/**
 * What a pool did during one measurement window: one immutable value read alike by the
 * endpoint, the metrics and the tuner.
 *
 * @param pool the pool's name
 * @param windowSeconds the length of the window, in seconds
 * @param sizes the pool's sizes when the window closed
 * @param tasks cumulative task counts when the window closed
 * @param windowArrivals tasks offered during the window, rejected ones included
 * @param windowCompletions tasks that finished (normally or not) during the window
 * @param queueWait time from submit to start
 * @param serviceTime time from start to end
 * @param responseTime time from submit to end
 * @param littlesLaw the figures derived from the window's rates and times
 * @param lateness for a scheduler's pool, when its runs started against when they were
 * due; {@code null} for any other pool
 * @author poolpilot authors
 */
public record PoolSnapshot(String pool, double windowSeconds, Sizes sizes, TaskCounts tasks, long windowArrivals,
		long windowCompletions, Latency queueWait, Latency serviceTime, Latency responseTime, LittlesLaw littlesLaw,
		@Nullable Lateness lateness) {

	/**
	 * The window of a pool that runs no scheduled work.
	 * @param pool the pool's name
	 * @param windowSeconds the length of the window, in seconds
	 * @param sizes the pool's sizes when the window closed
	 * @param tasks cumulative task counts when the window closed
	 * @param windowArrivals tasks offered during the window, rejected ones included
	 * @param windowCompletions tasks that finished (normally or not) during the window
	 * @param queueWait time from submit to start
	 * @param serviceTime time from start to end
	 * @param responseTime time from submit to end
	 * @param littlesLaw the figures derived from the window's rates and times
	 */
	public PoolSnapshot(String pool, double windowSeconds, Sizes sizes, TaskCounts tasks, long windowArrivals,
			long windowCompletions, Latency queueWait, Latency serviceTime, Latency responseTime,
			LittlesLaw littlesLaw) {
		this(pool, windowSeconds, sizes, tasks, windowArrivals, windowCompletions, queueWait, serviceTime, responseTime,
				littlesLaw, null);
	}

	/**
	 * How late a scheduler's runs started in one window: the time between when a run was
	 * due and when it started, and the part of it when every thread of the pool was busy
	 * with other runs (a late start more threads would have prevented, unlike one that
	 * waited for a CPU).
	 *
	 * @param meanMs the mean lateness of the runs that ended in the window
	 * @param p99Ms its 99th percentile
	 * @param maxMs the largest
	 * @param runs the runs that started in the window
	 * @param busyLateRuns the runs that started late while every thread was busy
	 * @param meanBusyLatenessMs the mean, over all the window's runs, of the lateness
	 * spent while every thread was busy
	 * @param maxBusyLatenessMs the largest such lateness of one run
	 * @param overruns runs so far that were still running when their task's next run was
	 * due
	 * @param skipped due times so far that passed without a run, the task still running
	 * (cron)
	 */
	public record Lateness(double meanMs, double p99Ms, double maxMs, long runs, long busyLateRuns,
			double meanBusyLatenessMs, double maxBusyLatenessMs, long overruns, long skipped) {

	}

	/**
	 * A pool's sizes at one moment.
	 *
	 * @param corePoolSize the core pool size
	 * @param maxPoolSize the maximum pool size
	 * @param poolSize the number of live threads
	 * @param activeCount the number of threads running a task
	 * @param queueSize the number of queued tasks
	 * @param queueCapacity the queue's fixed capacity
	 * @param minThreads the lower bound for the core and maximum sizes
	 * @param maxThreads the upper bound for the core and maximum sizes
	 */
	public record Sizes(int corePoolSize, int maxPoolSize, int poolSize, int activeCount, int queueSize,
			int queueCapacity, int minThreads, int maxThreads) {

	}

	/**
	 * Cumulative task counts since the pool started. Once the pool is idle,
	 * {@code submitted == completed + failed + rejected + abandoned}.
	 *
	 * @param submitted tasks offered to the pool
	 * @param completed tasks that ran to normal completion
	 * @param failed tasks that threw, completed exceptionally or were cancelled
	 * @param rejected tasks the pool refused, at submit or when a thread took them
	 * @param abandoned queued tasks handed back by {@code shutdownNow()}
	 * @param rejections the rejected tasks by reason
	 * @param timedOut tasks interrupted for running longer than the pool's timeout (also
	 * counted as completed or failed, by how they ended)
	 */
	public record TaskCounts(long submitted, long completed, long failed, long rejected, long abandoned,
			Rejections rejections, long timedOut) {

		/**
		 * Counts with every rejection for a full queue and no timeout.
		 * @param submitted tasks offered to the pool
		 * @param completed tasks that ran to normal completion
		 * @param failed tasks that threw, completed exceptionally or were cancelled
		 * @param rejected tasks the pool refused, all for a full queue
		 * @param abandoned queued tasks handed back by {@code shutdownNow()}
		 */
		public TaskCounts(long submitted, long completed, long failed, long rejected, long abandoned) {
			this(submitted, completed, failed, rejected, abandoned, new Rejections(rejected, 0, 0, 0), 0);
		}

	}

	/**
	 * Rejected tasks by reason.
	 *
	 * @param queueFull every thread was busy and the queue full
	 * @param queueWait the expected or actual queue wait was over max-queue-wait
	 * @param circuitOpen the pool's circuit breaker was open
	 * @param shutdown the pool was shutting down
	 */
	public record Rejections(long queueFull, long queueWait, long circuitOpen, long shutdown) {

	}

	/**
	 * A latency distribution over one window, in milliseconds; all zero when no task
	 * ended in the window.
	 * <p>
	 * The mean is exact: the sum over every task when each was timed, Little's law from
	 * the pool's occupancy otherwise. The percentiles come from the window's timed tasks,
	 * {@code samples} of them (0 when none was timed: the percentiles are then 0 too).
	 *
	 * @param meanMs the exact mean
	 * @param p50Ms the median
	 * @param p90Ms the 90th percentile
	 * @param p99Ms the 99th percentile
	 * @param maxMs the largest value
	 * @param samples how many timed tasks the percentiles rest on
	 */
	public record Latency(double meanMs, double p50Ms, double p90Ms, double p99Ms, double maxMs, long samples) {

		/**
		 * No task ended in the window.
		 */
		public static final Latency NONE = new Latency(0, 0, 0, 0, 0, 0);

		/**
		 * A distribution whose sample size is not known, such as one built by hand.
		 * @param meanMs the mean
		 * @param p50Ms the median
		 * @param p90Ms the 90th percentile
		 * @param p99Ms the 99th percentile
		 * @param maxMs the largest value
		 */
		public Latency(double meanMs, double p50Ms, double p90Ms, double p99Ms, double maxMs) {
			this(meanMs, p50Ms, p90Ms, p99Ms, maxMs, 0);
		}

	}

	/**
	 * Little's-law and Goetz figures for one window.
	 *
	 * @param arrivalRate offered tasks per second (λ), rejected ones included
	 * @param throughput finished tasks per second (X)
	 * @param meanServiceTimeMs mean service time (S)
	 * @param meanQueueWaitMs mean queue wait (Wq)
	 * @param meanResponseTimeMs mean response time (R = Wq + S)
	 * @param p99ResponseTimeMs 99th percentile of the response time
	 * @param estimatedConcurrency tasks in the pool, queued or running (L = X·R)
	 * @param busyThreads threads kept busy (X·S)
	 * @param deadTimeRatio share of the response time spent queueing (Wq/R)
	 * @param concurrencyPerCpu tasks in the pool per processor (L/Ncpu)
	 * @param waitComputeRatio time blocked per unit of CPU time in a task (W/C), or
	 * {@code null} before any task's CPU time was sampled
	 * @param recommendedThreads Goetz's size, Ncpu·U·(1 + W/C), or {@code null} when W/C
	 * is unknown
	 */
	public record LittlesLaw(double arrivalRate, double throughput, double meanServiceTimeMs, double meanQueueWaitMs,
			double meanResponseTimeMs, double p99ResponseTimeMs, double estimatedConcurrency, double busyThreads,
			double deadTimeRatio, double concurrencyPerCpu, @Nullable Double waitComputeRatio,
			@Nullable Integer recommendedThreads) {

	}

}
