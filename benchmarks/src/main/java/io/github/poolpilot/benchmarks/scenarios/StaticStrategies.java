package io.github.poolpilot.benchmarks.scenarios;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.github.poolpilot.execution.ManagedExecutor;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.pool.PoolSampler;

/**
 * The strategies whose pools keep the sizes they start with: managed pools of fixed
 * sizes, measured as the tuned ones are but never resized, and Spring Boot's default task
 * executor.
 *
 * @author poolpilot authors
 */
final class StaticStrategies {

	/**
	 * Goetz's formula has no bound without CPU time: its size is capped here.
	 */
	static final int GOETZ_CAP = 64;

	/**
	 * Spring Boot's {@code spring.task.execution.pool.core-size} default.
	 */
	static final int SPRING_CORE_SIZE = 8;

	private StaticStrategies() {
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
					.threadFactory(Strategy.threads(scenario, name, spec))
					.build();
				registry.register(executor.getPool());
				targets.add(new ExecutorTarget(executor, executor::getMaximumPoolSize));
				executors.add(executor);
			}
			Deployment deployment = new Deployment(targets, executors);
			deployment.sampler(new PoolSampler(registry, Strategy.WINDOW));
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
		return fixed(Strategy.FIXED_MAX,
				scenario.pools().stream().mapToInt((pool) -> pool.bounds().maxThreads()).toArray());
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
		return fixed(Strategy.GOETZ_STATIC, sizes);
	}

	/**
	 * Spring Boot's default task executor for each pool: 8 core threads that time out
	 * when idle and an unbounded queue, so that it never grows past 8 and never refuses
	 * work.
	 * @return the strategy
	 */
	static Strategy springDefault() {
		return new Strategy(Strategy.SPRING_DEFAULT, "8 core threads, unbounded LinkedBlockingQueue",
				(scenario, console) -> {
					List<Target> targets = new ArrayList<>();
					List<ExecutorService> executors = new ArrayList<>();
					for (PoolSpec spec : scenario.pools()) {
						ThreadPoolExecutor executor = new ThreadPoolExecutor(SPRING_CORE_SIZE, Integer.MAX_VALUE, 60,
								TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
								Strategy.threads(scenario, Strategy.SPRING_DEFAULT, spec));
						executor.allowCoreThreadTimeOut(true);
						targets.add(new ExecutorTarget(executor, executor::getCorePoolSize));
						executors.add(executor);
					}
					return new Deployment(targets, executors);
				});
	}

}
