package io.github.poolpilot.benchmarks.scenarios;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the strategies of {@link StaticStrategies}, {@link TunedStrategies} and
 * {@link LimiterStrategies}: their names and descriptions, as the scenarios print them,
 * and the pools each deploys, on S5's three pools (start sizes 10, 1 and 1), without
 * running any work.
 *
 * @author poolpilot authors
 */
class StrategiesTests {

	private static final Consumer<String> QUIET = (line) -> {
	};

	private final Scenario s5 = Scenarios.s5();

	@Test
	void everyStrategyNamedIsMadeByItsFamilyWithItsDescription() {
		List<Strategy> strategies = List.of(StaticStrategies.fixed(Strategy.BEST_STATIC, new int[] { 30, 5, 5 }),
				StaticStrategies.fixed(Strategy.STATIC_SHARES, this.s5.staticSizes()),
				StaticStrategies.fixedMax(this.s5), StaticStrategies.goetz(this.s5), StaticStrategies.springDefault(),
				TunedStrategies.modelOnly(), LimiterStrategies.gradient2(), LimiterStrategies.vegas(),
				TunedStrategies.tuned(), TunedStrategies.tunedWithMaxQueueWait(Duration.ofMillis(250)));
		assertThat(strategies).extracting(Strategy::name).containsExactlyElementsOf(Strategy.NAMES);
		assertThat(strategies).extracting(Strategy::description)
			.containsExactly("static 30/5/5 threads, each pool's bounded queue",
					"static 30/5/5 threads, each pool's bounded queue",
					"static 60/60/60 threads, each pool's bounded queue", strategies.get(3).description(),
					"8 core threads, unbounded LinkedBlockingQueue",
					"poolpilot's sizing model alone (no feedback guard)",
					"Gradient2 limit in front of a 200-thread pool", "Vegas limit in front of a 200-thread pool",
					"poolpilot's tuner", "poolpilot's tuner, max-queue-wait 250 ms");
		assertThat(strategies.get(3).description()).startsWith("static ")
			.endsWith(" threads, each pool's bounded queue");
	}

	@Test
	void eachStrategyDeploysATargetPerPoolAtItsStartingSize() {
		assertSizes(StaticStrategies.fixed(Strategy.STATIC_SHARES, this.s5.staticSizes()), 30, 5, 5);
		assertSizes(StaticStrategies.fixedMax(this.s5), 60, 60, 60);
		assertSizes(StaticStrategies.springDefault(), 8, 8, 8);
		assertSizes(TunedStrategies.tuned(), 10, 1, 1);
		assertSizes(TunedStrategies.modelOnly(), 10, 1, 1);
		assertSizes(LimiterStrategies.gradient2(), 10, 1, 1);
		assertSizes(LimiterStrategies.vegas(), 10, 1, 1);
	}

	private void assertSizes(Strategy strategy, int... sizes) {
		try (Deployment deployment = strategy.deploy(this.s5, QUIET)) {
			assertThat(deployment.targets()).as(strategy.name())
				.extracting(Target::size)
				.containsExactly(sizes[0], sizes[1], sizes[2]);
			assertThat(deployment.targets()).as(strategy.name()).allSatisfy((target) -> {
				assertThat(target.liveThreads()).isZero();
				assertThat(target.queued()).isZero();
			});
		}
	}

}
