package io.github.poolpilot.autoconfigure;

import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.tuning.Tuner;
import io.github.poolpilot.tuning.TuningMode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link PoolsConfigurationRefresher}, driven by Spring Cloud's
 * {@link EnvironmentChangeEvent}.
 *
 * @author poolpilot authors
 */
@ExtendWith(OutputCaptureExtension.class)
class PoolsConfigurationRefresherTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(PoolpilotAutoConfiguration.class))
		.withPropertyValues("poolpilot.budget.max-threads=20", "poolpilot.pools.talk.min-threads=2",
				"poolpilot.pools.talk.max-threads=6", "poolpilot.pools.talk.initial-threads=6",
				"poolpilot.pools.stop.max-threads=4", "poolpilot.pools.stop.initial-threads=4");

	@Test
	void newBoundsWeightsBudgetAndTuningSwitchApplyWithoutARestart() {
		this.runner.run((context) -> {
			ManagedPool talk = context.getBean(PoolRegistry.class).get("talk");
			assertThat(talk.getExecutor().getMaximumPoolSize()).isEqualTo(6);
			change(context, "poolpilot.pools.talk.max-threads=3", "poolpilot.pools.talk.initial-threads=3",
					"poolpilot.pools.talk.weight=4", "poolpilot.budget.max-threads=12",
					"poolpilot.tuning.enabled=false");
			assertThat(talk.getBounds()).isEqualTo(new PoolBounds(2, 3));
			assertThat(talk.getExecutor().getMaximumPoolSize()).isEqualTo(3);
			assertThat(talk.getExecutor().getCorePoolSize()).isEqualTo(3);
			assertThat(talk.getWeight()).isEqualTo(4);
			Tuner tuner = context.getBean(Tuner.class);
			assertThat(tuner.state("talk").getMode()).isEqualTo(TuningMode.OFF);
			assertThat(context.getBean(PoolRegistry.class).budget().maxThreads()).isEqualTo(12);
			change(context, "poolpilot.tuning.enabled=true");
			assertThat(tuner.state("talk").getMode()).isEqualTo(TuningMode.AUTO);
		});
	}

	@Test
	void invalidNewValuesAreRefusedWithALoggedErrorAndTheOldOnesKept(CapturedOutput output) {
		this.runner.run((context) -> {
			PoolRegistry registry = context.getBean(PoolRegistry.class);
			ManagedPool talk = registry.get("talk");
			int weight = talk.getWeight();
			int budget = registry.budget().maxThreads();
			// One invalid value refuses the whole change: the valid ones beside it too.
			change(context, "poolpilot.pools.talk.min-threads=0", "poolpilot.pools.talk.max-threads=2",
					"poolpilot.pools.talk.weight=" + (weight + 6), "poolpilot.budget.max-threads=" + (budget + 10));
			assertThat(talk.getBounds()).isEqualTo(new PoolBounds(2, 6));
			assertThat(talk.getExecutor().getMaximumPoolSize()).isEqualTo(6);
			assertThat(talk.getWeight()).isEqualTo(weight);
			assertThat(registry.budget().maxThreads()).isEqualTo(budget);
			assertThat(output).contains("Refused the new poolpilot configuration")
				.contains("poolpilot.pools.talk.min-threads")
				.contains("must be at least 1");
		});
	}

	@Test
	void aLowerBudgetTakesTheThreadsIdlePoolsLend(CapturedOutput output) {
		this.runner.run((context) -> {
			PoolRegistry registry = context.getBean(PoolRegistry.class);
			change(context, "poolpilot.budget.max-threads=5");
			assertThat(registry.budget().maxThreads()).isEqualTo(5);
			assertThat(registry.budget().allocatedThreads()).isLessThanOrEqualTo(5);
			assertThat(registry.get("talk").maxPoolSize()).isGreaterThanOrEqualTo(2);
			assertThat(output).contains("lent idle threads to a lower budget");
		});
	}

	@Test
	void aBudgetBelowWhatThePoolsHoldIsRefusedWhenNoPoolMayLend(CapturedOutput output) {
		this.runner.run((context) -> {
			// Out of the tuner's hands, no pool lends.
			change(context, "poolpilot.tuning.enabled=false");
			change(context, "poolpilot.tuning.enabled=false", "poolpilot.budget.max-threads=5");
			assertThat(context.getBean(PoolRegistry.class).budget().maxThreads()).isEqualTo(20);
			assertThat(output).contains("'poolpilot.budget.max-threads' is 5 but with their new bounds the pools "
					+ "hold 10 threads, of which idle pools can lend only 0");
		});
	}

	@Test
	void theWebServersPoolTakesItsNewBoundsAndWeight() {
		new WebApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(PoolpilotAutoConfiguration.class, PoolpilotWebServerAutoConfiguration.class))
			.withPropertyValues("poolpilot.web-server.enabled=true", "poolpilot.web-server.max-threads=20")
			.run((context) -> {
				ManagedPool http = context.getBean(PoolRegistry.class).get("http");
				assertThat(http.getBounds()).isEqualTo(new PoolBounds(10, 20));
				change(context, "poolpilot.web-server.min-threads=4", "poolpilot.web-server.max-threads=8",
						"poolpilot.web-server.weight=3");
				assertThat(http.getBounds()).isEqualTo(new PoolBounds(4, 8));
				assertThat(http.getExecutor().getMaximumPoolSize()).isEqualTo(8);
				assertThat(http.getWeight()).isEqualTo(3);
			});
	}

	private static void change(ConfigurableApplicationContext context, String... properties) {
		TestPropertyValues.of(properties).applyTo(context);
		context.publishEvent(new EnvironmentChangeEvent(context, Set.of("poolpilot")));
	}

}
