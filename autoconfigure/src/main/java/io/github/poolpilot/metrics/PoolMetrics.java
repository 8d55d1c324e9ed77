package io.github.poolpilot.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.budget.ThreadBudget;
import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.measure.PoolSnapshot.Lateness;
import io.github.poolpilot.measure.ScheduledRuns;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.measure.PoolSnapshot.Rejections;
import io.github.poolpilot.tuning.Tuner;
import io.github.poolpilot.tuning.TuningState;

/**
 * Binds the meters Spring Boot's {@code executor.*} binding lacks, under the same
 * namespace and {@code name} tag: {@code executor.rejected} (tagged with its
 * {@code reason}: {@code queue_full}, {@code queue_wait}, {@code circuit_open},
 * {@code shutdown}), {@code executor.failed} and {@code executor.timeouts} counters,
 * {@code executor.queue.wait} and {@code executor.execution} timers (with percentile
 * histograms, so Prometheus can aggregate them), the tuner's
 * {@code executor.tuning.target} and {@code executor.tuning.limited}, the threads each
 * pool could lend now ({@code executor.lendable}), the {@code executor.budget.*} gauges
 * and the {@code executor.tuning.failures} counter; for a scheduler's pool, the
 * {@code executor.lateness} timer, {@code executor.lateness.mean} and
 * {@code executor.lateness.p99} gauges and {@code executor.runs.overrun} and
 * {@code executor.runs.skipped} counters. Boot's own meters ({@code executor.completed},
 * {@code executor.active}, {@code executor.queued}, pool sizes) are not bound again.
 * <p>
 * A pool that joins the registry after the meters were bound (a listener container's,
 * when the container starts) has its meters from then on; a pool that leaves it has them
 * removed, so that a pool registered again under its name is measured afresh.
 *
 * @author poolpilot authors
 */
public class PoolMetrics implements MeterBinder {

	private final PoolRegistry registry;

	private final Tuner tuner;

	/**
	 * Bind the pools' meters and the tuner's.
	 * @param registry the pools
	 * @param tuner the tuner whose decisions and failed ticks are measured
	 */
	public PoolMetrics(PoolRegistry registry, Tuner tuner) {
		this.registry = registry;
		this.tuner = tuner;
	}

	@Override
	public void bindTo(MeterRegistry meterRegistry) {
		this.registry.watch(new PoolMeters(meterRegistry));
		ThreadBudget budget = this.registry.budget();
		Gauge.builder("executor.budget.max", budget, ThreadBudget::maxThreads)
			.description("Live threads all managed pools may have together")
			.baseUnit("threads")
			.register(meterRegistry);
		Gauge.builder("executor.budget.allocated", budget, ThreadBudget::allocatedThreads)
			.description("Sum of the managed pools' maximum sizes")
			.baseUnit("threads")
			.register(meterRegistry);
		Gauge.builder("executor.budget.live", budget, ThreadBudget::liveThreads)
			.description("Live threads of all managed pools")
			.baseUnit("threads")
			.register(meterRegistry);
		Gauge.builder("executor.budget.lendable", budget, ThreadBudget::lendableThreads)
			.description("Idle threads the managed pools could lend now to a pool that grows")
			.baseUnit("threads")
			.register(meterRegistry);
		FunctionCounter.builder("executor.tuning.failures", this.tuner, Tuner::failedTicks)
			.description("Tuning ticks that failed, leaving every pool's size as it was")
			.register(meterRegistry);
	}

	/**
	 * Binds each pool's meters when it joins the registry and removes them when it
	 * leaves.
	 */
	private final class PoolMeters implements PoolRegistry.Watcher {

		private final MeterRegistry meterRegistry;

		private final Map<ManagedPool, List<Meter>> meters = new ConcurrentHashMap<>();

		PoolMeters(MeterRegistry meterRegistry) {
			this.meterRegistry = meterRegistry;
		}

		@Override
		public void registered(ManagedPool pool) {
			this.meters.put(pool, bind(pool, this.meterRegistry));
		}

		@Override
		public void unregistered(ManagedPool pool) {
			List<Meter> meters = this.meters.remove(pool);
			if (meters != null) {
				meters.forEach(this.meterRegistry::remove);
			}
		}

	}

	private static Meter rejected(ManagedPool pool, MeterRegistry meterRegistry, Tags tags, String reason,
			ToLongFunction<Rejections> count) {
		return FunctionCounter
			.builder("executor.rejected", pool, (p) -> count.applyAsLong(p.getRecorder().taskCounts().rejections()))
			.tags(tags.and("reason", reason))
			.description("Tasks the pool refused")
			.baseUnit("tasks")
			.register(meterRegistry);
	}

	private List<Meter> bind(ManagedPool pool, MeterRegistry meterRegistry) {
		TuningState tuning = this.tuner.state(pool.getName());
		Tags tags = Tags.of("name", pool.getName());
		List<Meter> meters = new ArrayList<>();
		meters.add(rejected(pool, meterRegistry, tags, "queue_full", Rejections::queueFull));
		meters.add(rejected(pool, meterRegistry, tags, "queue_wait", Rejections::queueWait));
		meters.add(rejected(pool, meterRegistry, tags, "circuit_open", Rejections::circuitOpen));
		meters.add(rejected(pool, meterRegistry, tags, "shutdown", Rejections::shutdown));
		meters.add(FunctionCounter.builder("executor.timeouts", pool, (p) -> p.getRecorder().taskCounts().timedOut())
			.tags(tags)
			.description("Tasks interrupted for running longer than the pool's timeout")
			.baseUnit("tasks")
			.register(meterRegistry));
		meters.add(FunctionCounter.builder("executor.failed", pool, (p) -> p.getRecorder().taskCounts().failed())
			.tags(tags)
			.description("Tasks that threw, completed exceptionally or were cancelled")
			.baseUnit("tasks")
			.register(meterRegistry));
		meters.add(Gauge.builder("executor.tuning.limited", tuning, (state) -> state.isLimited() ? 1 : 0)
			.tags(tags)
			.description("1 when the tuner found the pool short of threads it could not have")
			.register(meterRegistry));
		meters.add(Gauge.builder("executor.tuning.target", pool, ManagedPool::maxPoolSize)
			.tags(tags)
			.description("The size the tuner is heading for")
			.baseUnit("threads")
			.register(meterRegistry));
		meters.add(Gauge.builder("executor.lendable", pool, (p) -> p.getBudget().lendableThreads(p))
			.tags(tags)
			.description("Idle threads the pool could lend now to a pool that grows")
			.baseUnit("threads")
			.register(meterRegistry));
		Timer queueWait = Timer.builder("executor.queue.wait")
			.tags(tags)
			.description("Time tasks waited in the queue")
			.publishPercentileHistogram()
			.register(meterRegistry);
		Timer execution = Timer.builder("executor.execution")
			.tags(tags)
			.description("Time tasks ran")
			.publishPercentileHistogram()
			.register(meterRegistry);
		meters.add(queueWait);
		meters.add(execution);
		Timer lateness = bindScheduledRuns(pool, meterRegistry, tags, meters);
		pool.getRecorder().setTimingListener((waitNanos, serviceNanos) -> {
			queueWait.record(waitNanos, TimeUnit.NANOSECONDS);
			execution.record(serviceNanos, TimeUnit.NANOSECONDS);
			if (lateness != null) {
				lateness.record(waitNanos, TimeUnit.NANOSECONDS);
			}
		});
		return meters;
	}

	/**
	 * A scheduler's pool: its runs' lateness (every run, and the last window's mean and
	 * 99th percentile as the endpoint shows them) and its overrun and skipped runs, each
	 * added to the pool's meters.
	 */
	private static @Nullable Timer bindScheduledRuns(ManagedPool pool, MeterRegistry meterRegistry, Tags tags,
			List<Meter> meters) {
		ScheduledRuns runs = pool.getRecorder().scheduledRuns();
		if (runs == null) {
			return null;
		}
		meters.add(Gauge.builder("executor.lateness.mean", pool, (p) -> windowLateness(p, Lateness::meanMs))
			.tags(tags)
			.description("Mean lateness of the last window's scheduled runs: when each started against when it was due")
			.baseUnit("seconds")
			.register(meterRegistry));
		meters.add(Gauge.builder("executor.lateness.p99", pool, (p) -> windowLateness(p, Lateness::p99Ms))
			.tags(tags)
			.description("99th percentile of the lateness of the last window's scheduled runs")
			.baseUnit("seconds")
			.register(meterRegistry));
		meters.add(FunctionCounter.builder("executor.runs.overrun", runs, ScheduledRuns::overruns)
			.tags(tags)
			.description("Scheduled runs still running when their task's next run was due")
			.baseUnit("runs")
			.register(meterRegistry));
		meters.add(FunctionCounter.builder("executor.runs.skipped", runs, ScheduledRuns::skipped)
			.tags(tags)
			.description("Due times of scheduled tasks that passed without a run, the task still running")
			.baseUnit("runs")
			.register(meterRegistry));
		Timer lateness = Timer.builder("executor.lateness")
			.tags(tags)
			.description("Time scheduled runs started after they were due")
			.publishPercentileHistogram()
			.register(meterRegistry);
		meters.add(lateness);
		return lateness;
	}

	private static double windowLateness(ManagedPool pool, ToDoubleFunction<Lateness> figure) {
		PoolSnapshot snapshot = pool.lastSnapshot();
		Lateness lateness = (snapshot != null) ? snapshot.lateness() : null;
		return (lateness != null) ? figure.applyAsDouble(lateness) / 1000 : 0;
	}

}
