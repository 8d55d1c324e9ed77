package io.github.poolpilot.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The classpath matrix: for each optional dependency, an application without it starts
 * with poolpilot, and the features that need it step aside while the others stay.
 * poolpilot's classes are loaded as the application would load them
 * ({@link ClassPathWithout}), so that a bean method's signature naming a missing type
 * fails here as it fails there, and the auto-configurations are imported by name
 * ({@link MatrixAutoConfigurations}): all of poolpilot's, and those of Spring Boot and
 * Resilience4j that meet them where their jars are there. gRPC's case is
 * {@link GrpcClasspathMatrixTests}, which the compatibility run on Spring Boot 4.0 (which
 * has no gRPC server) leaves out.
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

	private static final String[] HEALTH_MODULE = { "org.springframework.boot.health" };

	/**
	 * Micrometer, and Resilience4j's Spring Boot module, which needs it.
	 */
	private static final String[] MICROMETER = { "io.micrometer", "org.springframework.boot.micrometer",
			"io.github.resilience4j.springboot" };

	private static final String[] PROMETHEUS = { "io.micrometer.prometheusmetrics", "io.prometheus" };

	private static final String[] SECURITY = { "org.springframework.security", "org.springframework.boot.security" };

	private static final String[] RESILIENCE4J = { "io.github.resilience4j" };

	private static final String[] REDIS = { "org.springframework.data.redis", "org.springframework.boot.data.redis",
			"io.lettuce" };

	private static final String[] TOMCAT = { "org.apache.catalina", "org.apache.coyote", "org.apache.tomcat",
			"org.springframework.boot.tomcat" };

	private static final String[] JETTY = { "org.eclipse.jetty", "org.springframework.boot.jetty" };

	private static final String[] SERVLET_API = { "jakarta.servlet" };

	private static final String[] SPRING_AMQP = { "org.springframework.amqp", "com.rabbitmq",
			"org.springframework.boot.amqp" };

	private static final String[] SPRING_KAFKA = { "org.springframework.kafka", "org.apache.kafka" };

	private static final String[] PROPERTIES = { "poolpilot.pools.work.min-threads=1",
			"poolpilot.pools.work.max-threads=2",
			"management.endpoints.web.exposure.include=threadpools,health,prometheus",
			"management.endpoint.threadpools.access=UNRESTRICTED", "spring.main.banner-mode=off" };

	static final String ENDPOINT = "threadPoolsEndpoint";

	private static final String BODY_CHECK = "threadPoolsMvcBodyErrors";

	private static final String WRITE_CHECK = "threadPoolsWriteCheck";

	private static final String WEBFLUX_BODY_ERRORS = "threadPoolsWebFluxBodyErrors";

	static final String METERS = "poolpilotMetricsBinder";

	private static final String PROMETHEUS_REGISTRY = "prometheusMeterRegistry";

	private static final String HEALTH = "threadpoolsHealthIndicator";

	private static final String CLUSTER = "poolpilotClusterCoordinator";

	private static final String CLUSTER_HEALTH = "poolpilotClusterHealthIndicator";

	private static final String REJECTIONS = "poolRejectionExceptionHandler";

	private static final String CIRCUIT_BREAKERS = "poolpilotCircuitBreakerGuards";

	private static final String TIME_LIMITERS = "poolpilotTimeLimiterGuards";

	private static final String HTTP_POOL = "poolpilotHttpPool";

	private static final String HTTP_REFUSALS = "poolpilotHttpRefusalFilter";

	private static final String TOMCAT_CUSTOMIZER = "poolpilotTomcatHttpPoolCustomizer";

	private static final String JETTY_CUSTOMIZER = "poolpilotJettyHttpPoolCustomizer";

	private static final String RABBIT_LISTENERS = "poolpilotRabbitListenerPools";

	private static final String KAFKA_LISTENERS = "poolpilotKafkaListenerPools";

	@Test
	void withoutJacksonTheKeysAreCheckedAndEverythingElseStarts() {
		ClassPathWithout classPath = new ClassPathWithout(JACKSON);
		servlet(classPath).run((context) -> assertThat(context).hasNotFailed()
			.hasBean("work")
			.hasBean(ENDPOINT)
			.hasBean(BODY_CHECK)
			.hasBean(METERS)
			.hasBean(REJECTIONS));
		servlet(classPath).withPropertyValues("poolpilot.pools.work.max-thread=2")
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("'poolpilot.pools.work.max-thread'"));
		plain(classPath).run((context) -> assertThat(context).hasNotFailed().hasBean("work"));
		servlet(classPath).withPropertyValues("poolpilot.web-server.enabled=true")
			.run((context) -> assertThat(context).hasNotFailed().hasBean(HTTP_POOL).hasBean(HTTP_REFUSALS));
	}

	@Test
	void withoutSpringMvcTheEndpointStaysAndItsServletBodyCheckStepsAside() {
		ClassPathWithout classPath = new ClassPathWithout(WEBMVC);
		plain(classPath).run((context) -> assertThat(context).hasNotFailed()
			.hasBean("work")
			.hasBean(ENDPOINT)
			.hasBean(WRITE_CHECK)
			.hasBean(HEALTH)
			.hasBean(METERS)
			.doesNotHaveBean(BODY_CHECK));
		reactive(classPath).run((context) -> assertThat(context).hasNotFailed()
			.hasBean("work")
			.hasBean(ENDPOINT)
			.hasBean(WRITE_CHECK)
			.hasBean(WEBFLUX_BODY_ERRORS)
			.doesNotHaveBean(BODY_CHECK));
	}

	@Test
	void withoutWebFluxAServletApplicationHasEverything() {
		ClassPathWithout classPath = new ClassPathWithout(WEBFLUX);
		servlet(classPath).run((context) -> assertThat(context).hasNotFailed()
			.hasBean("work")
			.hasBean(ENDPOINT)
			.hasBean(WRITE_CHECK)
			.hasBean(BODY_CHECK)
			.doesNotHaveBean(WEBFLUX_BODY_ERRORS)
			.hasBean(REJECTIONS));
	}

	@Test
	void withoutActuatorTheEndpointStepsAside() {
		ClassPathWithout classPath = new ClassPathWithout(ACTUATOR);
		servlet(classPath).run((context) -> assertThat(context).hasNotFailed()
			.hasBean("work")
			.hasBean(METERS)
			.hasBean(HEALTH)
			.hasBean(REJECTIONS)
			.doesNotHaveBean(ENDPOINT)
			.doesNotHaveBean(WRITE_CHECK)
			.doesNotHaveBean(BODY_CHECK));
		plain(classPath).run((context) -> assertThat(context).hasNotFailed().hasBean("work"));
	}

	@Test
	void withoutSpringBootHealthTheHealthContributionsStepAside() {
		ClassPathWithout classPath = new ClassPathWithout(HEALTH_MODULE);
		servlet(classPath).run((context) -> assertThat(context).hasNotFailed()
			.hasBean("work")
			.hasBean(ENDPOINT)
			.hasBean(METERS)
			.hasBean(REJECTIONS)
			.doesNotHaveBean(HEALTH));
		// No Redis listens on port 1: the coordinator starts all the same, says once
		// that it cannot reach the group, and keeps its pool on its own lease.
		servlet(classPath)
			.withPropertyValues("poolpilot.cluster.enabled=true", "poolpilot.cluster.group=matrix",
					"poolpilot.pools.work.cluster.max-threads=4", "spring.data.redis.port=1")
			.run((context) -> assertThat(context).hasNotFailed()
				.hasBean(CLUSTER)
				.doesNotHaveBean(CLUSTER_HEALTH)
				.doesNotHaveBean(HEALTH));
	}

	@Test
	void withoutMicrometerTheMetersStepAside() {
		ClassPathWithout classPath = new ClassPathWithout(MICROMETER);
		servlet(classPath).run((context) -> assertThat(context).hasNotFailed()
			.hasBean("work")
			.hasBean(ENDPOINT)
			.hasBean(HEALTH)
			.doesNotHaveBean(METERS));
	}

	@Test
	void withoutThePrometheusRegistryTheMetersGoToTheOthers() {
		ClassPathWithout classPath = new ClassPathWithout(PROMETHEUS);
		servlet(classPath).run((context) -> assertThat(context).hasNotFailed()
			.hasBean("work")
			.hasBean(METERS)
			.doesNotHaveBean(PROMETHEUS_REGISTRY));
	}

	@Test
	void withoutSpringSecurityEverythingStarts() {
		ClassPathWithout classPath = new ClassPathWithout(SECURITY);
		servlet(classPath).run((context) -> assertThat(context).hasNotFailed()
			.hasBean("work")
			.hasBean(ENDPOINT)
			.hasBean(BODY_CHECK)
			.hasBean(METERS)
			.hasBean(REJECTIONS));
	}

	@Test
	void withoutResilience4jItsGuardsStepAsideAndNamingOneIsRefused() {
		ClassPathWithout classPath = new ClassPathWithout(RESILIENCE4J);
		servlet(classPath).run((context) -> assertThat(context).hasNotFailed()
			.hasBean("work")
			.hasBean(ENDPOINT)
			.doesNotHaveBean(CIRCUIT_BREAKERS)
			.doesNotHaveBean(TIME_LIMITERS));
		servlet(classPath).withPropertyValues("poolpilot.pools.work.resilience.circuit-breaker=work")
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("poolpilot.pools.work.resilience.circuit-breaker"));
	}

	@Test
	void withoutResilience4jsCircuitBreakerItsTimeLimitersStay() {
		ClassPathWithout classPath = new ClassPathWithout("io.github.resilience4j.circuitbreaker");
		servlet(classPath).run((context) -> assertThat(context).hasNotFailed()
			.hasBean("work")
			.hasBean(TIME_LIMITERS)
			.doesNotHaveBean(CIRCUIT_BREAKERS));
		servlet(classPath).withPropertyValues("poolpilot.pools.work.resilience.circuit-breaker=work")
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("poolpilot.pools.work.resilience.circuit-breaker"));
	}

	@Test
	void withoutResilience4jsTimeLimiterItsCircuitBreakersStay() {
		ClassPathWithout classPath = new ClassPathWithout("io.github.resilience4j.timelimiter");
		servlet(classPath).run((context) -> assertThat(context).hasNotFailed()
			.hasBean("work")
			.hasBean(CIRCUIT_BREAKERS)
			.doesNotHaveBean(TIME_LIMITERS));
		servlet(classPath).withPropertyValues("poolpilot.pools.work.resilience.time-limiter=work")
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("poolpilot.pools.work.resilience.time-limiter"));
	}

	@Test
	void withoutSpringDataRedisTheApplicationStartsAndAClusterIsRefused() {
		ClassPathWithout classPath = new ClassPathWithout(REDIS);
		servlet(classPath).run((context) -> assertThat(context).hasNotFailed().hasBean("work").hasBean(ENDPOINT));
		servlet(classPath).withPropertyValues("poolpilot.cluster.enabled=true", "poolpilot.cluster.group=matrix")
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("poolpilot.cluster.enabled")
				.hasMessageContaining("spring-boot-starter-data-redis"));
	}

	@Test
	void withoutTomcatTheWebServersPoolIsJettys() {
		ClassPathWithout classPath = new ClassPathWithout(TOMCAT);
		servlet(classPath).withPropertyValues("poolpilot.web-server.enabled=true")
			.run((context) -> assertThat(context).hasNotFailed()
				.hasBean(HTTP_POOL)
				.hasBean(JETTY_CUSTOMIZER)
				.doesNotHaveBean(TOMCAT_CUSTOMIZER));
	}

	@Test
	void withoutJettyTheWebServersPoolIsTomcats() {
		ClassPathWithout classPath = new ClassPathWithout(JETTY);
		servlet(classPath).withPropertyValues("poolpilot.web-server.enabled=true")
			.run((context) -> assertThat(context).hasNotFailed()
				.hasBean(HTTP_POOL)
				.hasBean(TOMCAT_CUSTOMIZER)
				.doesNotHaveBean(JETTY_CUSTOMIZER));
	}

	@Test
	void withoutTheServletApiTheWebFeaturesStepAside() {
		ClassPathWithout classPath = new ClassPathWithout(SERVLET_API);
		plain(classPath).run((context) -> assertThat(context).hasNotFailed()
			.hasBean("work")
			.hasBean(ENDPOINT)
			.hasBean(METERS)
			.doesNotHaveBean(BODY_CHECK)
			.doesNotHaveBean(REJECTIONS)
			.doesNotHaveBean(HTTP_POOL));
	}

	@Test
	void withoutSpringAmqpTheRabbitListenersStepAside() {
		ClassPathWithout classPath = new ClassPathWithout(SPRING_AMQP);
		servlet(classPath).run((context) -> assertThat(context).hasNotFailed()
			.hasBean("work")
			.hasBean(ENDPOINT)
			.hasBean(KAFKA_LISTENERS)
			.doesNotHaveBean(RABBIT_LISTENERS));
		plain(classPath)
			.run((context) -> assertThat(context).hasNotFailed().hasBean("work").doesNotHaveBean(RABBIT_LISTENERS));
		plain(new ClassPathWithout())
			.run((context) -> assertThat(context).hasNotFailed().hasBean("work").hasBean(RABBIT_LISTENERS));
		plain(new ClassPathWithout()).withPropertyValues("poolpilot.listeners.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(RABBIT_LISTENERS));
	}

	@Test
	void withoutSpringKafkaTheKafkaListenersStepAside() {
		ClassPathWithout classPath = new ClassPathWithout(SPRING_KAFKA);
		servlet(classPath).run((context) -> assertThat(context).hasNotFailed()
			.hasBean("work")
			.hasBean(ENDPOINT)
			.hasBean(RABBIT_LISTENERS)
			.doesNotHaveBean(KAFKA_LISTENERS));
		plain(classPath)
			.run((context) -> assertThat(context).hasNotFailed().hasBean("work").doesNotHaveBean(KAFKA_LISTENERS));
		plain(new ClassPathWithout())
			.run((context) -> assertThat(context).hasNotFailed().hasBean("work").hasBean(KAFKA_LISTENERS));
		plain(new ClassPathWithout()).withPropertyValues("poolpilot.listeners.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(KAFKA_LISTENERS));
	}

	@Test
	void everyAutoConfigurationOfPoolpilotIsInTheMatrix() throws IOException {
		assertThat(lines("/META-INF/spring/io.github.poolpilot.autoconfigure.MatrixAutoConfigurations.imports"))
			.containsAll(lines("/META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports"));
	}

	private static List<String> lines(String resource) throws IOException {
		try (InputStream in = ClasspathMatrixTests.class.getResourceAsStream(resource)) {
			return new String(Objects.requireNonNull(in, resource).readAllBytes(), StandardCharsets.UTF_8).lines()
				.map(String::strip)
				.filter((line) -> !line.isEmpty())
				.toList();
		}
	}

	static ApplicationContextRunner plain(ClassPathWithout classPath) {
		return new ApplicationContextRunner().withClassLoader(classPath)
			.withUserConfiguration(Application.class)
			.withPropertyValues(PROPERTIES);
	}

	static WebApplicationContextRunner servlet(ClassPathWithout classPath) {
		return new WebApplicationContextRunner().withClassLoader(classPath)
			.withUserConfiguration(Application.class)
			.withPropertyValues(PROPERTIES);
	}

	private static ReactiveWebApplicationContextRunner reactive(ClassPathWithout classPath) {
		return new ReactiveWebApplicationContextRunner().withClassLoader(classPath)
			.withUserConfiguration(Application.class)
			.withPropertyValues(PROPERTIES);
	}

	@Configuration(proxyBeanMethods = false)
	@MatrixAutoConfigurations
	static class Application {

	}

}
