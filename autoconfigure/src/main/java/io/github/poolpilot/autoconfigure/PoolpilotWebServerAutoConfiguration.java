package io.github.poolpilot.autoconfigure;

import java.time.Duration;

import org.apache.coyote.http11.Http11NioProtocol;
import org.eclipse.jetty.server.Server;

import io.github.poolpilot.autoconfigure.PoolpilotProperties.WebServer;
import io.github.poolpilot.guard.QueueWaitLimit;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.webserver.HttpPool;
import io.github.poolpilot.webserver.HttpRefusalFilter;
import io.github.poolpilot.webserver.jetty.JettyHttpPoolCustomizer;
import io.github.poolpilot.webserver.tomcat.TomcatHttpPoolCustomizer;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.jetty.servlet.JettyServletWebServerFactory;
import org.springframework.boot.tomcat.TomcatWebServerFactory;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * The embedded web server's request threads as the managed pool named {@code http}, with
 * {@code poolpilot.web-server.enabled=true}: registered with the other pools (sharing
 * their budget, tuned, listed by the endpoint), run by the server's own threads, and
 * refusing with 503 and Retry-After when full, on an embedded Tomcat or Jetty. Without
 * either, start-up fails, naming the setting.
 *
 * @author poolpilot authors
 */
@AutoConfiguration(after = PoolpilotAutoConfiguration.class)
@ConditionalOnWebApplication(type = Type.SERVLET)
@ConditionalOnBooleanProperty(name = "poolpilot.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "poolpilot.web-server.enabled")
public final class PoolpilotWebServerAutoConfiguration {

	@Bean
	HttpPool poolpilotHttpPool(PoolpilotProperties properties, PoolRegistry registry) {
		WebServer settings = properties.getWebServer();
		HttpPool http = new HttpPool(ManagedPoolsRegistrar.recorder(properties.getMeasurement()).build(),
				new PoolBounds(settings.getMinThreads(), settings.getMaxThreads()), settings.getQueueCapacity(),
				settings.getRejectionStatus());
		http.getPool().setWeight(settings.getWeight());
		Duration maxQueueWait = settings.getMaxQueueWait();
		if (maxQueueWait != null) {
			http.setGuard(new QueueWaitLimit(http.getPool(), maxQueueWait));
		}
		registry.register(http.getPool());
		return http;
	}

	@Bean
	FilterRegistrationBean<HttpRefusalFilter> poolpilotHttpRefusalFilter(HttpPool http, Environment environment) {
		String basePath = separateManagementPort(environment) ? "" : underDispatcherServlet(environment,
				environment.getProperty("management.endpoints.web.base-path", "/actuator"));
		FilterRegistrationBean<HttpRefusalFilter> registration = new FilterRegistrationBean<>(
				new HttpRefusalFilter(http.getRejectionStatus(), basePath));
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
		return registration;
	}

	/**
	 * The management base path as Spring MVC serves it: under the dispatcher servlet's
	 * path ({@code spring.mvc.servlet.path}), as Spring Boot maps the endpoints.
	 */
	private static String underDispatcherServlet(Environment environment, String basePath) {
		// Spring Boot drops a trailing slash from the base path.
		if (basePath.endsWith("/")) {
			basePath = basePath.substring(0, basePath.length() - 1);
		}
		if (basePath.isEmpty()) {
			return basePath;
		}
		String servletPath = environment.getProperty("spring.mvc.servlet.path", "/");
		int wildcard = servletPath.indexOf('*');
		String prefix = (wildcard != -1) ? servletPath.substring(0, wildcard) : servletPath;
		if (prefix.endsWith("/")) {
			prefix = prefix.substring(0, prefix.length() - 1);
		}
		return prefix + (basePath.startsWith("/") ? basePath : "/" + basePath);
	}

	/**
	 * Whether the management endpoints are served on a port of their own, as Spring Boot
	 * decides it: a management port that is the server's own (or 8080 while the server's
	 * is left at its default) serves them on the server's port.
	 */
	private static boolean separateManagementPort(Environment environment) {
		Integer managementPort = environment.getProperty("management.server.port", Integer.class);
		if (managementPort == null) {
			return false;
		}
		if (managementPort < 0) {
			return true;
		}
		Integer serverPort = environment.getProperty("server.port", Integer.class);
		boolean same = (serverPort == null && managementPort == 8080)
				|| (managementPort != 0 && managementPort.equals(serverPort));
		return !same;
	}

	/**
	 * An embedded Tomcat: its own executor, resized in place.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ Http11NioProtocol.class, TomcatWebServerFactory.class })
	static class TomcatConfiguration {

		@Bean
		TomcatHttpPoolCustomizer poolpilotTomcatHttpPoolCustomizer(HttpPool http, PoolpilotProperties properties) {
			WebServer settings = properties.getWebServer();
			return new TomcatHttpPoolCustomizer(http, settings.getKeepAlive(), settings.getAwaitTermination());
		}

	}

	/**
	 * An embedded Jetty: a handler before the application and Jetty's own thread pool.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ Server.class, JettyServletWebServerFactory.class })
	static class JettyConfiguration {

		@Bean
		JettyHttpPoolCustomizer poolpilotJettyHttpPoolCustomizer(HttpPool http, PoolpilotProperties properties) {
			return new JettyHttpPoolCustomizer(http, properties.getWebServer().getKeepAlive());
		}

	}

	/**
	 * Without Tomcat or Jetty the setting cannot be honoured: say so at start-up rather
	 * than leave the server unbounded without a word.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingClass({ "org.apache.coyote.http11.Http11NioProtocol",
			"org.springframework.boot.jetty.servlet.JettyServletWebServerFactory" })
	static class NoSupportedServerConfiguration {

		@Bean
		Object poolpilotHttpPoolUnsupported() {
			throw new InvalidPoolpilotPropertyException("poolpilot.web-server.enabled", true,
					"manages the request threads of an embedded Tomcat or Jetty, and this application runs on "
							+ "neither: leave the property out");
		}

	}

}
