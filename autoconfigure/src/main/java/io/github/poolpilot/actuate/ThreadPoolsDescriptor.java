package io.github.poolpilot.actuate;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

/**
 * What {@code GET /actuator/threadpools} answers: all managed pools and the budget they
 * share. These types are the endpoint's JSON, field for field, apart from the core's
 * records they are made from ({@link PoolDescriptions} makes them).
 *
 * @param budget the budget
 * @param pools each pool by name
 * @author poolpilot authors
 */
public record ThreadPoolsDescriptor(BudgetDescriptor budget, Map<String, PoolDescriptor> pools) {

	/**
	 * The thread budget.
	 *
	 * @param maxThreads live threads all pools may have together
	 * @param allocatedThreads the sum of the pools' maximum sizes
	 * @param liveThreads the pools' live threads now
	 * @param lendableThreads the idle threads the pools could lend now to a pool that
	 * grows
	 */
	public record BudgetDescriptor(int maxThreads, int allocatedThreads, int liveThreads, int lendableThreads) {

	}

	/**
	 * Threads a pool lent to the change that answers it.
	 *
	 * @param pool the pool that lent
	 * @param fromMaxPoolSize its maximum size before
	 * @param toMaxPoolSize its maximum size after
	 */
	public record LoanDescriptor(String pool, int fromMaxPoolSize, int toMaxPoolSize) {

	}

	/**
	 * One pool.
	 *
	 * @param corePoolSize the core size
	 * @param maxPoolSize the maximum size
	 * @param poolSize live threads
	 * @param activeCount threads running a task
	 * @param queueSize queued tasks
	 * @param queueCapacity the queue's capacity
	 * @param submittedTasks tasks offered so far
	 * @param completedTasks tasks that ran to normal completion
	 * @param failedTasks tasks that failed
	 * @param rejectedTasks tasks refused
	 * @param rejections the refused tasks by reason
	 * @param abandonedTasks queued tasks dropped at a forced shutdown
	 * @param timedOutTasks tasks interrupted for running longer than the pool's timeout
	 * @param minThreads lower bound of the sizes
	 * @param maxThreads upper bound of the sizes
	 * @param weight share of the budget
	 * @param tuning who decides the size, and the last decision
	 * @param littlesLaw the last window's figures, or {@code null} before the first
	 * @param cluster the pool's share of a limit across the instances of its cluster, or
	 * {@code null} (left out) when it has none
	 * @param lendableThreads the idle threads it could lend now to a pool that grows: its
	 * maximum size above its live threads and its min-threads, while the tuner sizes it
	 * @param lentBy in the answer to a change, the pools that lent threads for it (left
	 * out when none did)
	 * @param lateness for a scheduler's pool, how late its runs started in the last
	 * window (left out for other pools)
	 * @param restarts for a pool whose resizes restart its workers (a Kafka listener),
	 * what its restarts cost (left out for other pools)
	 * @param queueAt {@code "broker"} for a listener's pool, whose queue is the messages
	 * waiting at the broker, with no capacity it knows (left out for other pools)
	 */
	public record PoolDescriptor(int corePoolSize, int maxPoolSize, int poolSize, int activeCount, int queueSize,
			int queueCapacity, long submittedTasks, long completedTasks, long failedTasks, long rejectedTasks,
			RejectionsDescriptor rejections, long abandonedTasks, long timedOutTasks, int minThreads, int maxThreads,
			int weight, TuningDescriptor tuning, @Nullable LittlesLawDescriptor littlesLaw,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable ClusterDescriptor cluster, int lendableThreads,
			@JsonInclude(JsonInclude.Include.NON_EMPTY) List<LoanDescriptor> lentBy,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable LatenessDescriptor lateness,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable RestartsDescriptor restarts,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String queueAt) {

	}

	/**
	 * What the restarts of a pool cost whose every resize restarts its workers.
	 *
	 * @param count the restarts that finished
	 * @param lastCostMs how long the last one took until every new worker had its work (a
	 * Kafka consumer its partitions), or -1 before the first
	 * @param settlingMs how much longer the tuner leaves the pool's size alone after it,
	 * 0 when it does not
	 * @param failure why the last restart could not bring the consumers asked for, and
	 * whether they run with their previous number again or are stopped (left out when it
	 * worked)
	 */
	public record RestartsDescriptor(long count, long lastCostMs, long settlingMs,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String failure) {

	}

	/**
	 * How late a scheduler's runs started: when each was due against when it started.
	 *
	 * @param meanMs mean lateness of the last window's runs
	 * @param p99Ms its 99th percentile
	 * @param maxMs the largest
	 * @param runs the runs that started in the last window
	 * @param busyLateRuns of those, the runs that started late while every thread of the
	 * pool was busy: a late start more threads would have prevented
	 * @param meanBusyLatenessMs the mean lateness spent while every thread was busy
	 * @param overrunRuns runs so far still running when their task's next run was due
	 * @param skippedRuns due times so far that passed without a run because the task was
	 * still running (cron)
	 */
	public record LatenessDescriptor(double meanMs, double p99Ms, double maxMs, long runs, long busyLateRuns,
			double meanBusyLatenessMs, long overrunRuns, long skippedRuns) {

	}

	/**
	 * A pool's share of a limit across the instances of its cluster.
	 *
	 * @param limit the most threads the pool may have across all instances
	 * @param lease this instance's lease: the most threads its pool may have now
	 * @param leaseAgeMs how long ago the lease was renewed, or -1 before the first
	 * renewal
	 * @param state {@code ok}, or {@code degraded} while Redis cannot be reached
	 * @param fallback whether the lease expired unrenewed and the pool holds a fallback
	 * share
	 * @param instances the live instances as last read, this one first
	 */
	public record ClusterDescriptor(int limit, int lease, long leaseAgeMs, String state, boolean fallback,
			List<InstanceDescriptor> instances) {

	}

	/**
	 * One live instance of a pool's cluster.
	 *
	 * @param id its id
	 * @param demand the threads it asked for
	 * @param lease the threads it may hold
	 * @param self whether it is this instance
	 */
	public record InstanceDescriptor(String id, int demand, int lease, boolean self) {

	}

	/**
	 * A pool's refused tasks by reason.
	 *
	 * @param queueFull every thread was busy and the queue full
	 * @param queueWait the expected or actual queue wait was over max-queue-wait
	 * @param circuitOpen the pool's circuit breaker was open
	 * @param shutdown the pool was shutting down
	 */
	public record RejectionsDescriptor(long queueFull, long queueWait, long circuitOpen, long shutdown) {

	}

	/**
	 * Who decides a pool's size.
	 *
	 * @param mode {@code auto}, {@code manual} or {@code off}
	 * @param targetThreads the size the pool is heading for
	 * @param lastDecision the last decision with its reason
	 * @param limited whether the tuner found the pool short of threads it could not have
	 */
	public record TuningDescriptor(String mode, int targetThreads, @Nullable String lastDecision, boolean limited) {

	}

	/**
	 * A pool's Little's-law and Goetz figures for its last window.
	 *
	 * @param arrivalRate offered tasks per second (λ), rejected ones included
	 * @param throughput finished tasks per second (X)
	 * @param meanServiceTimeMs mean service time (S)
	 * @param meanQueueWaitMs mean queue wait (Wq)
	 * @param meanResponseTimeMs mean response time (R = Wq + S)
	 * @param p50ResponseTimeMs median of the response time
	 * @param p90ResponseTimeMs 90th percentile of the response time
	 * @param p99ResponseTimeMs 99th percentile of the response time
	 * @param percentileSampleSize how many timed tasks the percentiles rest on: every
	 * task of the window below about a thousand a window, a sample of about a thousand
	 * (fewer for very short tasks) above
	 * @param estimatedConcurrency tasks in the pool, queued or running (L = X·R)
	 * @param busyThreads threads kept busy (X·S), at most the pool's maximum size: a
	 * window's completions can hold service time spent in the window before
	 * @param deadTimeRatio share of the response time spent queueing (Wq/R)
	 * @param concurrencyPerCpu tasks in the pool per processor (L/Ncpu)
	 * @param waitComputeRatio time blocked per unit of CPU time in a task (W/C), or
	 * {@code null} before any task's CPU time was sampled
	 * @param recommendedThreads Goetz's formula, Ncpu·U·(1 + W/C), or {@code null} when
	 * W/C is unknown: what the formula asks for from the measured ratio, which knows
	 * nothing of what a downstream can take, not a size poolpilot recommends
	 */
	public record LittlesLawDescriptor(double arrivalRate, double throughput, double meanServiceTimeMs,
			double meanQueueWaitMs, double meanResponseTimeMs, double p50ResponseTimeMs, double p90ResponseTimeMs,
			double p99ResponseTimeMs, long percentileSampleSize, double estimatedConcurrency, double busyThreads,
			double deadTimeRatio, double concurrencyPerCpu, @Nullable Double waitComputeRatio,
			@Nullable Integer recommendedThreads) {

	}

}
