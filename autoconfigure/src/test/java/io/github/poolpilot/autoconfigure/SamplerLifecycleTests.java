package io.github.poolpilot.autoconfigure;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.pool.PoolSampler;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SamplerLifecycle}: the tuner's windows and pulses start with the
 * context, once the pools were fitted to the budget, and stop with it.
 *
 * @author poolpilot authors
 */
class SamplerLifecycleTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(TaskExecutionAutoConfiguration.class, PoolpilotAutoConfiguration.class))
		.withPropertyValues("poolpilot.budget.max-threads=20", "poolpilot.pools.talk.max-threads=20");

	@Test
	void samplingStartsOnlyAfterEverySingletonWasCreatedAndThePoolsFitTheBudget() {
		this.runner.withUserConfiguration(StartUpWatch.class).run((context) -> {
			StartUpWatch watch = context.getBean(StartUpWatch.class);
			assertThat(watch.samplingWhenSingletonsWereReady).isFalse();
			PoolSampler sampler = context.getBean(PoolSampler.class);
			assertThat(sampler.isRunning()).isTrue();
			PoolRegistry registry = context.getBean(PoolRegistry.class);
			// Boot's applicationTaskExecutor joined a budget talk had taken whole.
			assertThat(registry.pools()).hasSize(2);
			assertThat(registry.budget().allocatedThreads()).isLessThanOrEqualTo(20);
			context.stop();
			assertThat(sampler.isRunning()).isFalse();
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class StartUpWatch {

		volatile boolean samplingWhenSingletonsWereReady;

		@Bean
		SmartInitializingSingleton samplingAtStartUp(PoolSampler sampler) {
			return () -> this.samplingWhenSingletonsWereReady = sampler.isRunning();
		}

	}

}
