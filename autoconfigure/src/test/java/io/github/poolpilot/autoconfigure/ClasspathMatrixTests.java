package io.github.poolpilot.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.assertj.AssertableReactiveWebApplicationContext;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ContextConsumer;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The classpath matrix: for each optional dependency, an application without it starts
 * with poolpilot, and the features that need it step aside while the others stay.
 * poolpilot's classes are loaded as the application would load them
 * ({@link ClassPathWithout}), so that a bean method's signature naming a missing type
 * fails here as it fails there. Each context has the auto-configurations an application
 * would have of Spring Boot's and Resilience4j's, where their jars are there, and all of
 * poolpilot's.
 *
 * @author poolpilot authors
 */
class ClasspathMatrixTests {

	private static final String[] JACKSON = { "tools.jackson", "com.fasterxml.jackson", "com.google.gson",
			"org.springframework.boot.jackson" };

	private static final String[] WEBMVC = { "org.springframework.web.servlet", "org.springframework.boot.webmvc" };

	private static final String[] WEBFLUX = { "org.springframework.web.reactive", "org.springframework.boot.webflux",
			"reactor.netty", "org.springframework.boot.reactor" };

	private static final String[] ACTUATOR = { "org.springframework.boot.actuate" };

	private static final String[] MICROMETER = { "io.micrometer", "org.springframework.boot.micrometer" };

	private static final String[] PROMETHEUS = { "io.micrometer.prometheusmetrics", "io.prometheus" };

	private static final String[] SECURITY = { "org.springframework.security", "org.springframework.boot.security" };

	private static final String[] RESILIENCE4J = { "io.github.resilience4j" };

	private static final String[] REDIS = { "org.springframework.data.redis", "org.springframework.boot.data.redis",
			"io.lettuce" };

	private static final String[] TOMCAT = { "org.apache.catalina", "org.apache.coyote", "org.apache.tomcat",
			"org.springframework.boot.tomcat" };

	private static final String[] JETTY = { "org.eclipse.jetty", "org.springframework.boot.jetty" };

	private static final String[] SERVLET_API = { "jakarta.servlet" };

	/**
	 * Spring Boot's and Resilience4j's auto-configurations that meet poolpilot's, as an
	 * application with their jars has them.
	 */
	private static final List<String> OTHERS = List.of(
			"org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration",
			"org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration",
			"org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration",
			"org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration",
			"org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration",
			"org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration",
			"org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration",
			"org.springframework.boot.actuate.autoconfigure.endpoint.jackson.JacksonEndpointAutoConfiguration",
			"org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration",
			"org.springframework.boot.actuate.autoconfigure.web.server.ManagementContextAutoConfiguration",
			"org.springframework.boot.servlet.autoconfigure.actuate.web.ServletManagementContextAutoConfiguration",
			"org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration",
			"org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration",
			"org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration",
			"org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
			"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
			"org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration",
			"org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration",
			"org.springframework.boot.micrometer.metrics.autoconfigure.task.TaskExecutorMetricsAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration",
			"org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
			"io.github.resilience4j.springboot.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration",
			"io.github.resilience4j.springboot.timelimiter.autoconfigure.TimeLimiterAutoConfiguration");

	private static final String[] PROPERTIES = { "poolpilot.pools.work.min-threads=1",
			"poolpilot.pools.work.max-threads=2", "poolpilot.pools.work.resilience.circuit-breaker=work",
			"management.endpoints.web.exposure.include=threadpools,health,prometheus",
			"management.endpoint.threadpools.access=UNRESTRICTED", "spring.main.banner-mode=off" };

	private static final String ENDPOINT = "threadPoolsEndpoint";

	private static final String BODY_CHECK = "threadPoolsRequestBodyCheck";

	private static final String METERS = "poolpilotMetricsBinder";

	private static final String PROMETHEUS_REGISTRY = "prometheusMeterRegistry";

	private static final String HEALTH = "threadpoolsHealthIndicator";

	private static final String REJECTIONS = "poolRejectionExceptionHandler";

	private static final String CIRCUIT_BREAKERS = "poolpilotCircuitBreakerGuards";

	@Test
	void withoutJacksonTheKeysAreCheckedAndEverythingElseStarts() {
		ClassPathWithout classPath = new ClassPathWithout(JACKSON);
		servlet(classPath).run((context) -> {
			assertThat(context).hasBean("work").hasBean(ENDPOINT).hasBean(BODY_CHECK).hasBean(METERS);
		});
		servlet(classPath).withPropertyValues("poolpilot.pools.work.max-thread=2")
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("'poolpilot.pools.work.max-thread'"));
		plain(classPath).run((context) -> assertThat(context).hasNotFailed().hasBean("work"));
	}

	private static ApplicationContextRunner plain(ClassPathWithout classPath) {
		return new ApplicationContextRunner().withClassLoader(classPath)
			.withConfiguration(autoConfigurations(classPath))
			.withPropertyValues(PROPERTIES);
	}

	private static WebApplicationContextRunner servlet(ClassPathWithout classPath) {
		return new WebApplicationContextRunner().withClassLoader(classPath)
			.withConfiguration(autoConfigurations(classPath))
			.withPropertyValues(PROPERTIES);
	}

	private static ReactiveWebApplicationContextRunner reactive(ClassPathWithout classPath) {
		return new ReactiveWebApplicationContextRunner().withClassLoader(classPath)
			.withConfiguration(autoConfigurations(classPath))
			.withPropertyValues(PROPERTIES);
	}

	/**
	 * The auto-configurations an application with this class path has: poolpilot's all,
	 * the others where their jar is there. They are sorted with the class path as the
	 * thread's, where Spring Boot looks their sorted names up again.
	 */
	private static AutoConfigurations autoConfigurations(ClassPathWithout classPath) {
		List<String> names = new ArrayList<>(OTHERS);
		try (InputStream in = ClasspathMatrixTests.class
			.getResourceAsStream("/META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports")) {
			new String(Objects.requireNonNull(in).readAllBytes(), StandardCharsets.UTF_8).lines()
				.filter((line) -> line.startsWith("io.github.poolpilot."))
				.forEach(names::add);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		Class<?>[] classes = names.stream().map(classPath::find).filter(Objects::nonNull).toArray(Class<?>[]::new);
		Thread thread = Thread.currentThread();
		ClassLoader previous = thread.getContextClassLoader();
		thread.setContextClassLoader(classPath);
		try {
			return AutoConfigurations.of(classes);
		}
		finally {
			thread.setContextClassLoader(previous);
		}
	}

}
