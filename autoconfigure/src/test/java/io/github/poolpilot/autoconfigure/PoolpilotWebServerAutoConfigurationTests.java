package io.github.poolpilot.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.github.poolpilot.autoconfigure.PoolpilotWebServerAutoConfiguration.ManagementPath;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.webserver.HttpPool;
import io.github.poolpilot.webserver.tomcat.TomcatHttpPoolCustomizer;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletPath;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link PoolpilotWebServerAutoConfiguration}: off unless enabled, the pool
 * {@code http} with the server's defaults and its budget share, and clear failures for
 * what it cannot manage.
 *
 * @author poolpilot authors
 */
class PoolpilotWebServerAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class, PoolpilotAutoConfiguration.class,
				PoolpilotWebServerAutoConfiguration.class));

	@Test
	void theServerIsLeftAloneUnlessEnabled() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(HttpPool.class);
			assertThat(context.getBean(PoolRegistry.class).get("http")).isNull();
		});
	}

	@Test
	void enabledTheServersThreadsAreThePoolHttpWithTheServersDefaults() {
		this.runner.withPropertyValues("poolpilot.web-server.enabled=true").run((context) -> {
			assertThat(context).hasSingleBean(TomcatHttpPoolCustomizer.class);
			ManagedPool http = context.getBean(PoolRegistry.class).get("http");
			assertThat(http).isSameAs(context.getBean(HttpPool.class).getPool());
			assertThat(http.minThreads()).isEqualTo(10);
			assertThat(http.maxThreads()).isEqualTo(200);
			assertThat(http.getExecutor().getQueueCapacity()).isEqualTo(100);
			assertThat(context.getBean(HttpPool.class).getRejectionStatus()).isEqualTo(503);
		});
	}

	@ParameterizedTest
	@CsvSource({ "8, 8", "1, 1", "10, 10", "11, 10", "200, 10" })
	void aMaxThreadsAloneBelowTheDefaultMinThreadsIsTheMinThreadsToo(int maxThreads, int minThreads) {
		this.runner
			.withPropertyValues("poolpilot.web-server.enabled=true", "poolpilot.web-server.max-threads=" + maxThreads)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				ManagedPool http = context.getBean(PoolRegistry.class).get("http");
				assertThat(http.minThreads()).isEqualTo(minThreads);
				assertThat(http.maxThreads()).isEqualTo(maxThreads);
			});
	}

	@Test
	void aMinThreadsSetAboveMaxThreadsIsRefusedNamingBoth() {
		this.runner
			.withPropertyValues("poolpilot.web-server.enabled=true", "poolpilot.web-server.min-threads=9",
					"poolpilot.web-server.max-threads=8")
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("poolpilot.web-server.max-threads")
				.hasMessageContaining("min-threads (9)"));
	}

	@Test
	void onWebFluxTheSettingIsRefusedNamingIt() {
		new ReactiveWebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class,
					PoolpilotAutoConfiguration.class, PoolpilotWebServerAutoConfiguration.class))
			.withPropertyValues("poolpilot.web-server.enabled=true")
			.run((context) -> {
				assertThat(context).getFailure().isInstanceOf(BeanCreationException.class);
				FailureAnalysis analysis = new InvalidPoolpilotPropertyFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).contains("'poolpilot.web-server.enabled' is true");
				assertThat(analysis.getAction()).contains("this is a WebFlux application");
			});
	}

	@Test
	void itsMinThreadsCountAgainstTheBudget() {
		this.runner
			.withPropertyValues("poolpilot.web-server.enabled=true", "poolpilot.web-server.min-threads=6",
					"poolpilot.pools.talk.min-threads=2", "poolpilot.budget.max-threads=7")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new InvalidPoolpilotPropertyFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis.getAction()).contains("poolpilot.budget.max-threads")
					.contains("(8: talk 2 + http 6)");
			});
	}

	@Test
	void withoutAWebServerItsMinThreadsTakeNothingOfTheBudget() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(PoolpilotAutoConfiguration.class, PoolpilotWebServerAutoConfiguration.class))
			.withPropertyValues("poolpilot.web-server.enabled=true", "poolpilot.web-server.min-threads=6",
					"poolpilot.pools.talk.min-threads=2", "poolpilot.budget.max-threads=7")
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(HttpPool.class);
				PoolRegistry registry = context.getBean(PoolRegistry.class);
				assertThat(registry.get("http")).isNull();
				assertThat(registry.get("talk").minThreads()).isEqualTo(2);
			});
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|',
			textBlock = """
					poolpilot.web-server.resilience.timeout=1s        | poolpilot.web-server.resilience    | cannot be timed out
					poolpilot.web-server.cluster.max-threads=10       | poolpilot.web-server.cluster.max-threads | a cluster-wide limit is for the pools under poolpilot.pools
					poolpilot.web-server.cluster.local-share=5        | poolpilot.web-server.cluster.local-share | a cluster-wide limit is for the pools under poolpilot.pools
					poolpilot.web-server.virtual-threads=true         | poolpilot.web-server.virtual-threads | spring.threads.virtual.enabled
					poolpilot.web-server.initial-threads=20           | poolpilot.web-server.initial-threads | its threads start at min-threads
					poolpilot.web-server.queue-capacity=0             | poolpilot.web-server.queue-capacity | must be at least 1
					poolpilot.web-server.rejection-status=500         | poolpilot.web-server.rejection-status | must be 429 or 503
					""")
	void whatTheServersPoolCannotHaveFailsStartUpNamingTheKey(String setting, String key, String allowed) {
		this.runner.withPropertyValues("poolpilot.web-server.enabled=true", setting).run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new InvalidPoolpilotPropertyFailureAnalyzer()
				.analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getAction()).contains(key).contains(allowed);
		});
	}

	@Test
	void aDeclaredPoolNamedHttpFailsStartUpNamingItsKey() {
		this.runner.withPropertyValues("poolpilot.web-server.enabled=true", "poolpilot.pools.http.max-threads=4")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new InvalidPoolpilotPropertyFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getAction()).contains("poolpilot.pools.http").contains("web server");
			});
	}

	@Test
	void withoutTomcatOrJettyEnablingItFailsStartUpSayingSo() {
		this.runner.withClassLoader(new FilteredClassLoader("org.apache.coyote", "org.springframework.boot.jetty"))
			.withPropertyValues("poolpilot.web-server.enabled=true")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new InvalidPoolpilotPropertyFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis.getAction()).contains("poolpilot.web-server.enabled")
					.contains("an embedded Tomcat or Jetty");
			});
	}

	@Test
	void theActuatorIsExemptWhereSpringBootServesItOnTheServersPort() {
		WebApplicationContextRunner enabled = this.runner
			.withConfiguration(AutoConfigurations.of(DispatcherServletAutoConfiguration.class))
			.withPropertyValues("poolpilot.web-server.enabled=true");
		enabled.withPropertyValues("spring.mvc.servlet.path=/api")
			.run((context) -> assertThat(context.getBean(ManagementPath.class).onServerPort())
				.isEqualTo("/api/actuator"));
		enabled
			.withPropertyValues("management.endpoints.web.base-path=/manage/", "server.port=8081",
					"management.server.port=8081")
			.run((context) -> assertThat(context.getBean(ManagementPath.class).onServerPort()).isEqualTo("/manage"));
		enabled.withPropertyValues("management.server.port=9090")
			.run((context) -> assertThat(context.getBean(ManagementPath.class)).isEqualTo(ManagementPath.NONE));
		enabled.withPropertyValues("management.endpoints.web.base-path=/")
			.run((context) -> assertThat(context.getBean(ManagementPath.class)).isEqualTo(ManagementPath.NONE));
	}

	@Test
	void withoutSpringMvcTheActuatorIsExemptAtItsBasePathAndWithoutTheActuatorNothingIs() {
		WebApplicationContextRunner enabled = this.runner.withPropertyValues("poolpilot.web-server.enabled=true");
		enabled.withClassLoader(new FilteredClassLoader(DispatcherServletPath.class))
			.withPropertyValues("spring.mvc.servlet.path=/api")
			.run((context) -> assertThat(context.getBean(ManagementPath.class).onServerPort()).isEqualTo("/actuator"));
		enabled.withClassLoader(new FilteredClassLoader(ManagementPortType.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(ManagementPath.class)
				.hasBean("poolpilotHttpRefusalFilter"));
	}

	@Test
	void anApplicationsExecutorNamedHttpFailsStartUpNamingWhatToDo() {
		WebApplicationContextRunner enabled = this.runner.withPropertyValues("poolpilot.web-server.enabled=true");
		enabled.withBean("http", ThreadPoolTaskExecutor.class)
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("A pool named 'http' is registered already")
				.hasMessageContaining("poolpilot.exclude=http"));
	}

}
