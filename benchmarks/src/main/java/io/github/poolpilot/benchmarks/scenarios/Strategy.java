package io.github.poolpilot.benchmarks.scenarios;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A way of sizing a scenario's pools, set up afresh for each run: made by
 * {@link StaticStrategies}, {@link TunedStrategies} or {@link LimiterStrategies}.
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
	 * Daemon threads named after the scenario, the strategy and the pool.
	 * @param scenario the scenario
	 * @param strategy the strategy's name
	 * @param spec the pool
	 * @return the pool's thread factory
	 */
	static ThreadFactory threads(Scenario scenario, String strategy, PoolSpec spec) {
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
