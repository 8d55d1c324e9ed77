package io.github.poolpilot.benchmarks.scenarios;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.budget.BudgetAllocator.Demand;
import io.github.poolpilot.execution.ManagedExecutor;
import io.github.poolpilot.guard.QueueWaitLimit;
import io.github.poolpilot.measure.NanoClock;
import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.pool.InvalidPoolSizeException;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.pool.PoolSampler;
import io.github.poolpilot.tuning.Decision;
import io.github.poolpilot.tuning.SizingModel;
import io.github.poolpilot.tuning.Tuner;

/**
 * The strategies whose managed pools are resized after every window, sharing the
 * scenario's budget: by poolpilot's tuner, or by its sizing model alone. Each window's
 * sizes and reasons are recorded.
 *
 * @author poolpilot authors
 */
final class TunedStrategies {

	private TunedStrategies() {
	}

	/**
	 * Managed pools sized by poolpilot's tuner after every window, from their start
	 * sizes, sharing the scenario's budget.
	 * @return the strategy
	 */
	static Strategy tuned() {
		return tuned(null);
	}

	/**
	 * Managed pools sized by poolpilot's tuner, each with a max-queue-wait: a task
	 * expected to wait longer is refused at submit, one that waited longer is refused
	 * when a thread takes it.
	 * @param maxQueueWait the pools' max-queue-wait
	 * @return the strategy
	 */
	static Strategy tunedWithMaxQueueWait(Duration maxQueueWait) {
		return tuned(maxQueueWait);
	}

	private static Strategy tuned(@Nullable Duration maxQueueWait) {
		String name = (maxQueueWait != null) ? Strategy.POOLPILOT_MAX_QUEUE_WAIT : Strategy.POOLPILOT;
		String description = (maxQueueWait != null)
				? "poolpilot's tuner, max-queue-wait " + maxQueueWait.toMillis() + " ms" : "poolpilot's tuner";
		return managed(name, description, maxQueueWait, (registry, deployment, console, cpuLoad) -> {
			Tuner tuner = new Tuner(registry, NanoClock.SYSTEM, cpuLoad,
					(pool, decision) -> console.accept(String.format(Locale.ROOT, "    %6.1f s  %s %s: %s",
							deployment.second(), name, pool.getName(), decision.reason())));
			return new Sizer() {

				@Override
				public void tick() {
					tuner.tick();
				}

				@Override
				public void pulse() {
					tuner.pulse();
				}

				@Override
				public String decision(ManagedPool pool) {
					Decision decision = tuner.state(pool.getName()).getLastDecision();
					return (decision != null) ? decision.reason() : "";
				}

			};
		});
	}

	/**
	 * Managed pools sized after every window by poolpilot's sizing model alone, with
	 * nothing judged: square-root staffing of the offered load at the window's own mean
	 * service time (a tenth more, as the tuner asks), capped by Goetz, within the pools'
	 * bounds and shares of the budget. What the tuner's feedback guard prevents: behind a
	 * saturated downstream the service time grows with the threads, and so does the
	 * model's size.
	 * @return the strategy
	 */
	static Strategy modelOnly() {
		return managed(Strategy.POOLPILOT_NO_GUARD, "poolpilot's sizing model alone (no feedback guard)", null,
				(registry, deployment, console, cpuLoad) -> {
					Map<String, String> decisions = new HashMap<>();
					return new Sizer() {

						@Override
						public void tick() {
							List<Demand> demands = new ArrayList<>();
							for (ManagedPool pool : registry.pools()) {
								PoolSnapshot snapshot = pool.lastSnapshot();
								int need = (snapshot != null) ? SizingModel.need(snapshot.littlesLaw(),
										snapshot.littlesLaw().meanServiceTimeMs()) : -1;
								int wanted = (need > 0) ? need + Math.max(1, need / 10) : pool.maxPoolSize();
								demands.add(new Demand(pool.getName(), pool.minThreads(), pool.maxThreads(),
										pool.getWeight(), pool.getBounds().clamp(wanted), true));
							}
							Map<String, Integer> allocation = registry.budget().allocate(demands);
							// Shrinks first, so that growth finds the threads given back.
							List<ManagedPool> pools = new ArrayList<>(registry.pools());
							pools.sort(Comparator
								.comparingInt((pool) -> allocation.get(pool.getName()) - pool.maxPoolSize()));
							for (ManagedPool pool : pools) {
								int size = allocation.get(pool.getName());
								try {
									pool.resize(size, size);
									decisions.put(pool.getName(), "model: " + size);
								}
								catch (InvalidPoolSizeException ex) {
									decisions.put(pool.getName(), "model: " + size + " refused by the budget");
								}
							}
						}

						@Override
						public String decision(ManagedPool pool) {
							return decisions.getOrDefault(pool.getName(), "");
						}

					};
				});
	}

	private static Strategy managed(String name, String description, @Nullable Duration maxQueueWait,
			SizerFactory sizers) {
		return new Strategy(name, description, (scenario, console) -> {
			PoolRegistry registry = new PoolRegistry(scenario.budget());
			List<Target> targets = new ArrayList<>();
			List<ExecutorService> executors = new ArrayList<>();
			List<ManagedPool> pools = new ArrayList<>();
			for (PoolSpec spec : scenario.pools()) {
				ManagedExecutor executor = ManagedExecutor.builder(spec.name(), spec.bounds(), spec.queueCapacity())
					.sizes(spec.startSize(), spec.startSize())
					.threadFactory(Strategy.threads(scenario, name, spec))
					.build();
				executor.getPool().setWeight(spec.weight());
				if (maxQueueWait != null) {
					executor.setGuard(new QueueWaitLimit(executor.getPool(), maxQueueWait));
				}
				registry.register(executor.getPool());
				pools.add(executor.getPool());
				targets.add(new ExecutorTarget(executor, executor::getMaximumPoolSize));
				executors.add(executor);
			}
			Deployment deployment = new Deployment(targets, executors);
			DoubleSupplier processCpu = Tuner.processCpuLoad();
			double[] cpuRead = { -1 };
			DoubleSupplier cpuLoad = () -> cpuRead[0] = processCpu.getAsDouble();
			Sizer sizer = sizers.create(registry, deployment, console, cpuLoad);
			deployment.sampler(new PoolSampler(registry, Strategy.WINDOW, () -> {
				int[] before = pools.stream().mapToInt(ManagedPool::maxPoolSize).toArray();
				sizer.tick();
				for (int i = 0; i < pools.size(); i++) {
					ManagedPool pool = pools.get(i);
					PoolSnapshot snapshot = pool.lastSnapshot();
					if (snapshot == null) {
						continue;
					}
					PoolSnapshot.LittlesLaw law = snapshot.littlesLaw();
					deployment
						.record(new TuningRecord(deployment.second(), pool.getName(), before[i], pool.maxPoolSize(),
								sizer.decision(pool), law.arrivalRate(), law.throughput(), law.meanServiceTimeMs(),
								snapshot.serviceTime().p99Ms(), law.busyThreads(), snapshot.sizes().queueSize(),
								cpuRead[0], (law.waitComputeRatio() != null) ? law.waitComputeRatio() : Double.NaN,
								(law.recommendedThreads() != null) ? law.recommendedThreads() : -1));
				}
			}, Strategy.FAST_PATH, sizer::pulse));
			return deployment;
		});
	}

	/**
	 * Sizes the managed pools of a run once per window.
	 */
	private interface Sizer {

		void tick();

		/**
		 * Between windows: the tuner's fast path; nothing for a sizer that has none.
		 */
		default void pulse() {
		}

		String decision(ManagedPool pool);

	}

	@FunctionalInterface
	private interface SizerFactory {

		Sizer create(PoolRegistry registry, Deployment deployment, Consumer<String> console, DoubleSupplier cpuLoad);

	}

}
