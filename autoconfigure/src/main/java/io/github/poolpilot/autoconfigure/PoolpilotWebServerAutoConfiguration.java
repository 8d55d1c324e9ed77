package io.github.poolpilot.autoconfigure;

import java.time.Duration;
import java.util.function.UnaryOperator;

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

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointProperties;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.jetty.servlet.JettyServletWebServerFactory;
import org.springframework.boot.tomcat.TomcatWebServerFactory;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletPath;
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
		ServerPools.register(registry, http.getPool());
		return http;
	}

	@Bean
	FilterRegistrationBean<HttpRefusalFilter> poolpilotHttpRefusalFilter(HttpPool http,
			ObjectProvider<ManagementPath> managementPath) {
		String basePath = managementPath.getIfAvailable(() -> ManagementPath.NONE).onServerPort();
		FilterRegistrationBean<HttpRefusalFilter> registration = new FilterRegistrationBean<>(
				new HttpRefusalFilter(http.getRejectionStatus(), basePath));
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
		return registration;
	}

	/**
	 * The actuator's endpoints on the server's port, exempt from refusals: where Spring
	 * Boot serves them, as it decides (its management port type, its cleaned base path).
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ ManagementPortType.class, WebEndpointProperties.class })
	@ConditionalOnMissingClass("org.springframework.boot.webmvc.autoconfigure.DispatcherServletPath")
	static class ActuatorConfiguration {

		@Bean
		ManagementPath poolpilotManagementPath(Environment environment) {
			return ManagementPath.of(environment, (basePath) -> basePath);
		}

	}

	/**
	 * The actuator's endpoints under Spring MVC's dispatcher servlet, whose path
	 * ({@code spring.mvc.servlet.path}) comes before theirs.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ ManagementPortType.class, WebEndpointProperties.class, DispatcherServletPath.class })
	static class ActuatorMvcConfiguration {

		@Bean
		ManagementPath poolpilotManagementPath(Environment environment,
				ObjectProvider<DispatcherServletPath> dispatcherServletPath) {
			return ManagementPath.of(environment, (basePath) -> {
				DispatcherServletPath servletPath = dispatcherServletPath.getIfAvailable();
				return (servletPath != null) ? servletPath.getRelativePath(basePath) : basePath;
			});
		}

	}

	/**
	 * The path of the actuator's endpoints on the server's port, or none.
	 *
	 * @param onServerPort the path, empty when they are not served there
	 */
	record ManagementPath(String onServerPort) {

		static final ManagementPath NONE = new ManagementPath("");

		static ManagementPath of(Environment environment, UnaryOperator<String> underServlet) {
			if (ManagementPortType.get(environment) != ManagementPortType.SAME) {
				return NONE;
			}
			String basePath = Binder.get(environment)
				.bindOrCreate("management.endpoints.web", WebEndpointProperties.class)
				.getBasePath();
			return basePath.isEmpty() ? NONE : new ManagementPath(underServlet.apply(basePath));
		}

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
