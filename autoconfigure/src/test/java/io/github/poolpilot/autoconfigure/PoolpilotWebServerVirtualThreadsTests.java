package io.github.poolpilot.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.webserver.HttpPool;
import io.github.poolpilot.webserver.tomcat.TomcatHttpPoolCustomizer;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the web server's pool is made when the server's requests run on virtual
 * threads, and that the server is left alone without the setting.
 *
 * @author poolpilot authors
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class PoolpilotWebServerVirtualThreadsTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class, PoolpilotAutoConfiguration.class,
				PoolpilotWebServerAutoConfiguration.class));

	@Test
	void enabledWithVirtualThreadsTheServersRequestsAreThePoolHttp() {
		this.runner.withPropertyValues("spring.threads.virtual.enabled=true", "poolpilot.web-server.enabled=true")
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(TomcatHttpPoolCustomizer.class);
				assertThat(context.getBean(PoolRegistry.class).get("http"))
					.isSameAs(context.getBean(HttpPool.class).getPool());
			});
	}

	@Test
	void withVirtualThreadsAndTheSettingLeftOutTheServerIsLeftAlone() {
		this.runner.withPropertyValues("spring.threads.virtual.enabled=true")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(HttpPool.class));
	}

}
