package io.github.poolpilot.benchmarks.scenarios;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.DoubleSupplier;
import java.util.function.IntSupplier;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limit.VegasLimit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.execution.ManagedExecutor;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.measure.NanoClock;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.pool.PoolSampler;
import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.guard.QueueWaitLimit;
import io.github.poolpilot.budget.BudgetAllocator.Demand;
import io.github.poolpilot.pool.InvalidPoolSizeException;
import io.github.poolpilot.tuning.Decision;
import io.github.poolpilot.tuning.SizingModel;
import io.github.poolpilot.tuning.Tuner;

/**
 * A way of sizing a scenario's pools, set up afresh for each run.
 *
 * @param name the strategy's name, as in {@code summary.csv}
 * @param description how its pools are sized, in a few words
 * @param factory what makes its pools
 * @author poolpilot authors
 */
record Strategy(String name, String description, Factory factory) {

	static final String BEST_STATIC = "best-static";

	static final String STATIC_SHARES = "static-shares";

	static final String FIXED_MAX = "fixed-max";

	static final String GOETZ_STATIC = "goetz-static";

	static final String SPRING_DEFAULT = "spring-default";

	static final String POOLPILOT_NO_GUARD = "poolpilot-no-guard";

	static final String GRADIENT2 = "gradient2";

	static final String VEGAS = "vegas";

	static final String POOLPILOT = "poolpilot";

	static final String POOLPILOT_MAX_QUEUE_WAIT = "poolpilot-max-queue-wait";

	/**
	 * The order the strategies of a scenario run in.
	 */
	static final List<String> NAMES = List.of(BEST_STATIC, STATIC_SHARES, FIXED_MAX, GOETZ_STATIC, SPRING_DEFAULT,
			POOLPILOT_NO_GUARD, GRADIENT2, VEGAS, POOLPILOT, POOLPILOT_MAX_QUEUE_WAIT);

	/**
	 * Goetz's formula has no bound without CPU time: its size is capped here.
	 */
	static final int GOETZ_CAP = 64;

	/**
	 * Spring Boot's {@code spring.task.execution.pool.core-size} default.
	 */
	static final int SPRING_CORE_SIZE = 8;

	/**
	 * The pool behind the Gradient2 and Vegas limiters, as large as the limiters' own
	 * maximum.
	 */
	static final int LIMITED_POOL_SIZE = 200;

	/**
	 * The same poolpilot measuring on every managed pool, static or tuned: a window a
	 * second.
	 */
	static final Duration WINDOW = Duration.ofSeconds(1);

	/**
	 * How often the tuner's fast path reads the pools between windows, its default.
	 */
	static final Duration FAST_PATH = Duration.ofMillis(100);

	Deployment deploy(Scenario scenario, Consumer<String> console) {
		return this.factory.deploy(scenario, console);
	}

	/**
	 * Managed pools of fixed sizes with poolpilot's bounded queue, measured as the tuned
	 * ones are but never resized.
	 * @param name the strategy's name
	 * @param sizes one size per pool
	 * @return the strategy
	 */
	static Strategy fixed(String name, int[] sizes) {
		String description = "static " + Arrays.toString(sizes).replace(", ", "/").replaceAll("[\\[\\]]", "")
				+ " threads, each pool's bounded queue";
		return new Strategy(name, description, (scenario, console) -> {
			PoolRegistry registry = new PoolRegistry(null);
			List<Target> targets = new ArrayList<>();
			List<ExecutorService> executors = new ArrayList<>();
			for (int i = 0; i < scenario.pools().size(); i++) {
				PoolSpec spec = scenario.pools().get(i);
				int size = sizes[i];
				ManagedExecutor executor = ManagedExecutor
					.builder(spec.name(), new PoolBounds(size, size), spec.queueCapacity())
					.sizes(size, size)
					.threadFactory(threads(scenario, name, spec))
					.build();
				registry.register(executor.getPool());
				targets.add(managed(executor));
				executors.add(executor);
			}
			Deployment deployment = new Deployment(targets, executors);
			deployment.sampler(new PoolSampler(registry, WINDOW));
			return deployment;
		});
	}

	/**
	 * Each pool fixed at its max-threads: what the tuned pool must not refuse materially
	 * more than, on the same arrivals.
	 * @param scenario the scenario
	 * @return the strategy
	 */
	static Strategy fixedMax(Scenario scenario) {
		return fixed(FIXED_MAX, scenario.pools().stream().mapToInt((pool) -> pool.bounds().maxThreads()).toArray());
	}

	/**
	 * Each pool at Goetz's size from its workload's known means.
	 * @param scenario the scenario
	 * @return the strategy
	 */
	static Strategy goetz(Scenario scenario) {
		int cores = Runtime.getRuntime().availableProcessors();
		int[] sizes = scenario.pools()
			.stream()
			.mapToInt((pool) -> pool.workload().goetzSize(cores, Math.min(GOETZ_CAP, pool.bounds().maxThreads())))
			.toArray();
		return fixed(GOETZ_STATIC, sizes);
	}

	/**
	 * Spring Boot's default task executor for each pool: 8 core threads that time out
	 * when idle and an unbounded queue, so that it never grows past 8 and never refuses
	 * work.
	 * @return the strategy
	 */
	static Strategy springDefault() {
		return new Strategy(SPRING_DEFAULT, "8 core threads, unbounded LinkedBlockingQueue", (scenario, console) -> {
			List<Target> targets = new ArrayList<>();
			List<ExecutorService> executors = new ArrayList<>();
			for (PoolSpec spec : scenario.pools()) {
				ThreadPoolExecutor executor = new ThreadPoolExecutor(SPRING_CORE_SIZE, Integer.MAX_VALUE, 60,
						TimeUnit.SECONDS, new LinkedBlockingQueue<>(), threads(scenario, SPRING_DEFAULT, spec));
				executor.allowCoreThreadTimeOut(true);
				targets.add(plain(executor, executor::getCorePoolSize));
				executors.add(executor);
			}
			return new Deployment(targets, executors);
		});
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
		String name = (maxQueueWait != null) ? POOLPILOT_MAX_QUEUE_WAIT : POOLPILOT;
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
		return managed(POOLPILOT_NO_GUARD, "poolpilot's sizing model alone (no feedback guard)", null,
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
					.threadFactory(threads(scenario, name, spec))
					.build();
				executor.getPool().setWeight(spec.weight());
				if (maxQueueWait != null) {
					executor.setGuard(new QueueWaitLimit(executor.getPool(), maxQueueWait));
				}
				registry.register(executor.getPool());
				pools.add(executor.getPool());
				targets.add(managed(executor));
				executors.add(executor);
			}
			Deployment deployment = new Deployment(targets, executors);
			DoubleSupplier processCpu = Tuner.processCpuLoad();
			double[] cpuRead = { -1 };
			DoubleSupplier cpuLoad = () -> cpuRead[0] = processCpu.getAsDouble();
			Sizer sizer = sizers.create(registry, deployment, console, cpuLoad);
			deployment.sampler(new PoolSampler(registry, WINDOW, () -> {
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
			}, FAST_PATH, sizer::pulse));
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

	/**
	 * Netflix concurrency-limits in front of a large pool: a {@link SimpleLimiter} with a
	 * {@link Gradient2Limit} per pool admits a task only while fewer than its limit are
	 * in flight, and a task it refuses is rejected. The limit starts at the pool's start
	 * size and may fall to 1 (its default floor of 20 would leave nothing to limit in
	 * these scenarios); its other settings are the library's defaults. The pool behind it
	 * has {@value #LIMITED_POOL_SIZE} threads and never refuses work.
	 * @return the strategy
	 */
	static Strategy gradient2() {
		return limited(GRADIENT2, "Gradient2 limit in front of a " + LIMITED_POOL_SIZE + "-thread pool",
				(spec) -> Gradient2Limit.newBuilder()
					.initialLimit(spec.startSize())
					.minLimit(1)
					.maxConcurrency(LIMITED_POOL_SIZE)
					.build());
	}

	/**
	 * Netflix concurrency-limits' {@link VegasLimit} in front of a large pool, as
	 * {@link #gradient2()}: TCP Vegas's rule on each task's latency against the least
	 * seen, the queue estimated as limit · (1 − minimum/latest), the limit raised while
	 * it is short and cut when it is long. The limit starts at the pool's start size; its
	 * other settings are the library's defaults (its floor is 1).
	 * @return the strategy
	 */
	static Strategy vegas() {
		return limited(VEGAS, "Vegas limit in front of a " + LIMITED_POOL_SIZE + "-thread pool",
				(spec) -> VegasLimit.newBuilder()
					.initialLimit(spec.startSize())
					.maxConcurrency(LIMITED_POOL_SIZE)
					.build());
	}

	private static Strategy limited(String name, String description, Function<PoolSpec, Limit> limits) {
		return new Strategy(name, description, (scenario, console) -> {
			List<Target> targets = new ArrayList<>();
			List<ExecutorService> executors = new ArrayList<>();
			for (PoolSpec spec : scenario.pools()) {
				ThreadPoolExecutor executor = new ThreadPoolExecutor(LIMITED_POOL_SIZE, LIMITED_POOL_SIZE, 60,
						TimeUnit.SECONDS, new LinkedBlockingQueue<>(), threads(scenario, name, spec));
				SimpleLimiter<Void> limiter = SimpleLimiter.newBuilder()
					.named(spec.name())
					.limit(limits.apply(spec))
					.build();
				targets.add(limited(executor, limiter));
				executors.add(executor);
			}
			return new Deployment(targets, executors);
		});
	}

	private static Target managed(ManagedExecutor executor) {
		return plain(executor, executor::getMaximumPoolSize);
	}

	private static Target plain(ThreadPoolExecutor executor, IntSupplier size) {
		return new Target() {

			@Override
			public boolean submit(TaskRun task) {
				try {
					executor.execute(task);
					return true;
				}
				catch (RejectedExecutionException ex) {
					return false;
				}
			}

			@Override
			public int size() {
				return size.getAsInt();
			}

			@Override
			public int liveThreads() {
				return executor.getPoolSize();
			}

			@Override
			public int queued() {
				return executor.getQueue().size();
			}

		};
	}

	private static Target limited(ThreadPoolExecutor executor, SimpleLimiter<Void> limiter) {
		return new Target() {

			@Override
			public boolean submit(TaskRun task) {
				Optional<Limiter.Listener> acquired = limiter.acquire(null);
				if (acquired.isEmpty()) {
					return false;
				}
				Limiter.Listener listener = acquired.get();
				try {
					executor.execute(() -> {
						if (task.perform()) {
							listener.onSuccess();
						}
						else {
							listener.onIgnore();
						}
					});
					return true;
				}
				catch (RejectedExecutionException ex) {
					listener.onIgnore();
					return false;
				}
			}

			@Override
			public int size() {
				return limiter.getLimit();
			}

			@Override
			public int liveThreads() {
				return executor.getPoolSize();
			}

			@Override
			public int queued() {
				return executor.getQueue().size();
			}

		};
	}

	private static ThreadFactory threads(Scenario scenario, String strategy, PoolSpec spec) {
		AtomicInteger count = new AtomicInteger();
		String prefix = scenario.id().toLowerCase(Locale.ROOT) + "-" + strategy + "-" + spec.name() + "-";
		return (runnable) -> {
			Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

	/**
	 * Makes a strategy's pools for one run.
	 */
	@FunctionalInterface
	interface Factory {

		Deployment deploy(Scenario scenario, Consumer<String> console);

	}

}
