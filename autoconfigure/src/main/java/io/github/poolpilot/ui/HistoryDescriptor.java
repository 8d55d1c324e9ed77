package io.github.poolpilot.ui;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.poolpilot.history.PoolHistory;
import io.github.poolpilot.history.PoolHistory.PoolRecord;
import io.github.poolpilot.history.Samples;
import io.github.poolpilot.history.TimedDecision;
import io.github.poolpilot.tuning.Decision;

/**
 * The pools' recent history as the page and scripts read it ({@code history.json}): per
 * pool, its samples column by column (one array per figure, oldest first, the shape a
 * chart draws from) and the decisions about its size. Its own type, so that the JSON does
 * not change with the core's.
 *
 * @param now the server's time, in epoch milliseconds: ask for {@code ?after=now} next
 * @param retentionSeconds how far back the history reaches
 * @param capacity how many samples a pool keeps
 * @param pools each pool's history, by name
 * @author poolpilot authors
 */
public record HistoryDescriptor(long now, long retentionSeconds, int capacity,
		Map<String, PoolHistoryDescriptor> pools) {

	static HistoryDescriptor of(PoolHistory history, long after) {
		long now = history.now();
		Map<String, PoolHistoryDescriptor> pools = new LinkedHashMap<>();
		history.read(after, now).forEach((name, record) -> pools.put(name, PoolHistoryDescriptor.of(record)));
		return new HistoryDescriptor(now, history.retention().toSeconds(), history.capacity(), pools);
	}

	/**
	 * One pool's history.
	 *
	 * @param samples its windows, column by column
	 * @param decisions the decisions about its size, oldest first
	 */
	public record PoolHistoryDescriptor(SamplesDescriptor samples, List<DecisionDescriptor> decisions) {

		static PoolHistoryDescriptor of(PoolRecord record) {
			return new PoolHistoryDescriptor(SamplesDescriptor.of(record.samples()),
					record.decisions().stream().map(DecisionDescriptor::of).toList());
		}

	}

	/**
	 * A pool's samples, one array per figure, all of the same length; refusals are
	 * counted since the previous sample.
	 *
	 * @param time when each window closed, epoch milliseconds
	 * @param corePoolSize core pool size
	 * @param maxPoolSize maximum pool size
	 * @param poolSize live threads
	 * @param activeCount threads running a task
	 * @param queueSize queued tasks
	 * @param queueCapacity the queue's capacity
	 * @param arrivalRate tasks offered per second, refused ones included
	 * @param throughput tasks finished per second
	 * @param meanQueueWaitMs mean queue wait
	 * @param p99QueueWaitMs 99th percentile of the queue wait
	 * @param meanServiceTimeMs mean service time
	 * @param p99ServiceTimeMs 99th percentile of the service time
	 * @param meanResponseTimeMs mean response time
	 * @param rejectedQueueFull refused for a full queue
	 * @param rejectedQueueWait refused for their queue wait
	 * @param rejectedCircuitOpen refused by an open circuit
	 * @param rejectedShutdown refused while shutting down
	 * @param limited whether the tuner found the pool short of threads it could not have
	 */
	public record SamplesDescriptor(long[] time, int[] corePoolSize, int[] maxPoolSize, int[] poolSize,
			int[] activeCount, int[] queueSize, int[] queueCapacity, float[] arrivalRate, float[] throughput,
			float[] meanQueueWaitMs, float[] p99QueueWaitMs, float[] meanServiceTimeMs, float[] p99ServiceTimeMs,
			float[] meanResponseTimeMs, int[] rejectedQueueFull, int[] rejectedQueueWait, int[] rejectedCircuitOpen,
			int[] rejectedShutdown, boolean[] limited) {

		static SamplesDescriptor of(Samples s) {
			return new SamplesDescriptor(s.time, s.corePoolSize, s.maxPoolSize, s.poolSize, s.activeCount, s.queueSize,
					s.queueCapacity, s.arrivalRate, s.throughput, s.meanQueueWaitMs, s.p99QueueWaitMs,
					s.meanServiceTimeMs, s.p99ServiceTimeMs, s.meanResponseTimeMs, s.rejectedQueueFull,
					s.rejectedQueueWait, s.rejectedCircuitOpen, s.rejectedShutdown, s.limited);
		}

	}

	/**
	 * A decision about a pool's size.
	 *
	 * @param time when, epoch milliseconds
	 * @param action {@code grow}, {@code shrink}, {@code hold}, {@code revert},
	 * {@code restore} or {@code manual}
	 * @param from the maximum pool size before
	 * @param to the maximum pool size after
	 * @param limited whether the pool is short of threads it cannot have
	 * @param reason the decision in words, as the endpoint's {@code lastDecision}
	 */
	public record DecisionDescriptor(long time, String action, int from, int to, boolean limited, String reason) {

		static DecisionDescriptor of(TimedDecision timed) {
			Decision decision = timed.decision();
			return new DecisionDescriptor(timed.epochMillis(),
					decision.action().name().toLowerCase(java.util.Locale.ROOT), decision.from(), decision.to(),
					decision.limited(), decision.reason());
		}

	}

}
