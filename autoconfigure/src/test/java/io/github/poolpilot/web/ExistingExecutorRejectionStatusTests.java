package io.github.poolpilot.web;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.autoconfigure.PoolpilotAutoConfiguration;
import io.github.poolpilot.autoconfigure.PoolpilotWebAutoConfiguration;
import io.github.poolpilot.measure.RejectionReason;
import io.github.poolpilot.pool.PoolRejectedException;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An existing executor's {@code rejection-status}, configured by its bean name, is what
 * its refusals answer over HTTP.
 *
 * @author poolpilot authors
 */
class ExistingExecutorRejectionStatusTests {

	@Test
	void anExistingExecutorsRefusalsAnswerItsConfiguredStatus() {
		new WebApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(PoolpilotAutoConfiguration.class, PoolpilotWebAutoConfiguration.class))
			.withUserConfiguration(ReportExecutorConfiguration.class)
			.withPropertyValues("poolpilot.existing-executors.reportExecutor.rejection-status=503")
			.run((context) -> {
				PoolRejectionExceptionHandler handler = context.getBean(PoolRejectionExceptionHandler.class);
				assertThat(handler.handleRejection(rejection("reportExecutor")).getStatusCode().value()).isEqualTo(503);
				assertThat(handler.handleRejection(rejection("another")).getStatusCode().value()).isEqualTo(429);
			});
	}

	private static PoolRejectedException rejection(String pool) {
		return new PoolRejectedException(pool, RejectionReason.QUEUE_FULL, Duration.ofSeconds(1));
	}

	@Configuration(proxyBeanMethods = false)
	static class ReportExecutorConfiguration {

		@Bean
		ThreadPoolTaskExecutor reportExecutor() {
			ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
			executor.setQueueCapacity(10);
			return executor;
		}

	}

}
