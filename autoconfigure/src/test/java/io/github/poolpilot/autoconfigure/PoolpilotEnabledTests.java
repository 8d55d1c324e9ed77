package io.github.poolpilot.autoconfigure;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.actuate.ThreadPoolsEndpoint;
import io.github.poolpilot.actuate.ThreadPoolsHealthIndicator;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.web.PoolRejectionExceptionHandler;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@code poolpilot.enabled}.
 *
 * @author poolpilot authors
 */
class PoolpilotEnabledTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class, EndpointAutoConfiguration.class,
				PoolpilotAutoConfiguration.class, PoolpilotWebAutoConfiguration.class,
				PoolpilotActuatorAutoConfiguration.class, PoolpilotMetricsAutoConfiguration.class,
				PoolpilotResilienceAutoConfiguration.class, PoolpilotHealthAutoConfiguration.class))
		.withPropertyValues("poolpilot.pools.talk.max-threads=4",
				"management.endpoints.web.exposure.include=threadpools");

	@Test
	void poolpilotIsOnByDefault() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(PoolRegistry.class)
				.hasBean("talk")
				.hasSingleBean(ThreadPoolsEndpoint.class)
				.hasSingleBean(ThreadPoolsHealthIndicator.class)
				.hasSingleBean(PoolRejectionExceptionHandler.class);
			assertThat(AopUtils.isAopProxy(context.getBean("applicationTaskExecutor"))).isTrue();
		});
	}

	@Test
	void disabledPoolpilotDoesNothingAtAll() {
		this.runner.withPropertyValues("poolpilot.enabled=false").run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(PoolRegistry.class)
				.doesNotHaveBean("talk")
				.doesNotHaveBean(ThreadPoolsEndpoint.class)
				.doesNotHaveBean(ThreadPoolsHealthIndicator.class)
				.doesNotHaveBean(PoolRejectionExceptionHandler.class)
				.doesNotHaveBean(PoolpilotProperties.class);
			Object executor = context.getBean("applicationTaskExecutor");
			assertThat(AopUtils.isAopProxy(executor)).isFalse();
			assertThat(executor.getClass()).isEqualTo(ThreadPoolTaskExecutor.class);
		});
	}

}
