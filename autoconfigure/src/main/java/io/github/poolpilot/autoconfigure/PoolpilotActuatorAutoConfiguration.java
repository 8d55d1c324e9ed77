package io.github.poolpilot.autoconfigure;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.poolpilot.actuate.ThreadPoolsCsrfHint;
import io.github.poolpilot.actuate.ThreadPoolsEndpoint;
import io.github.poolpilot.actuate.ThreadPoolsEndpointWebExtension;
import io.github.poolpilot.actuate.ThreadPoolsMvcBodyErrors;
import io.github.poolpilot.actuate.ThreadPoolsWebFluxBodyErrors;
import io.github.poolpilot.actuate.ThreadPoolsWriteCheck;
import io.github.poolpilot.actuate.TunerAuditListener;
import io.github.poolpilot.cluster.ClusterCoordinator;
import io.github.poolpilot.cluster.PoolLease;
import io.github.poolpilot.history.HistoryFeed;
import io.github.poolpilot.history.PoolHistory;
import io.github.poolpilot.measure.NanoClock;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.tuning.Tuner;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.web.server.WebExceptionHandler;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} for the {@code threadpools} Actuator endpoint. Only
 * {@code @ConditionalOnClass} stands on the class itself: every other condition, and
 * every type of an optional dependency, is on a nested configuration, read only where
 * Actuator (and for each, its dependency) is there, so that the class loads in an
 * application without them.
 *
 * @author poolpilot authors
 */
@AutoConfiguration(after = PoolpilotAutoConfiguration.class)
@ConditionalOnClass(Endpoint.class)
@ConditionalOnBooleanProperty(name = "poolpilot.enabled", matchIfMissing = true)
public final class PoolpilotActuatorAutoConfiguration {

	private static final Log logger = LogFactory.getLog(PoolpilotActuatorAutoConfiguration.class);

	/**
	 * The endpoint, its web extension and the audit of the tuner's changes.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnAvailableEndpoint(ThreadPoolsEndpoint.class)
	static class ThreadPoolsEndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnBean(PoolRegistry.class)
		ThreadPoolsEndpoint threadPoolsEndpoint(PoolRegistry registry, Tuner tuner, ApplicationEventPublisher events,
				ObjectProvider<ClusterCoordinator> cluster) {
			ThreadPoolsEndpoint endpoint = new ThreadPoolsEndpoint(registry, tuner, events);
			endpoint.setClusters((pool) -> {
				ClusterCoordinator coordinator = cluster.getIfAvailable();
				PoolLease lease = (coordinator != null) ? coordinator.lease(pool) : null;
				return (lease != null) ? lease.status() : null;
			});
			return endpoint;
		}

		/**
		 * The check of a write's body, on every web stack: Actuator hands it the body's
		 * fields before it binds them.
		 */
		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnBean(PoolRegistry.class)
		ThreadPoolsWriteCheck threadPoolsWriteCheck() {
			return new ThreadPoolsWriteCheck();
		}

		@Bean
		@ConditionalOnMissingBean
		TunerAuditListener poolpilotTunerAuditListener(ApplicationEventPublisher events) {
			return new TunerAuditListener(events);
		}

		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnBean(ThreadPoolsEndpoint.class)
		ThreadPoolsEndpointWebExtension threadPoolsEndpointWebExtension(ThreadPoolsEndpoint endpoint) {
			return new ThreadPoolsEndpointWebExtension(endpoint);
		}

	}

	/**
	 * The last ten minutes of every pool, for the live page and its JSON: kept only where
	 * the page may be served ({@link PoolpilotUiManagementContextConfiguration}), a
	 * Spring MVC application that exposes the endpoint over HTTP, so that no other
	 * application pays for it.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.SERVLET)
	@ConditionalOnClass(name = { "org.springframework.web.servlet.handler.SimpleUrlHandlerMapping",
			"tools.jackson.databind.json.JsonMapper" })
	@ConditionalOnBooleanProperty(name = "poolpilot.ui.enabled", matchIfMissing = true)
	@ConditionalOnAvailableEndpoint(endpoint = ThreadPoolsEndpoint.class, exposure = EndpointExposure.WEB)
	static class PoolHistoryConfiguration {

		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnBean(PoolRegistry.class)
		PoolHistory poolpilotPoolHistory(PoolpilotProperties properties) {
			return new PoolHistory(properties.getMeasurement().getWindow(), NanoClock.SYSTEM,
					System.currentTimeMillis());
		}

		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnBean(PoolRegistry.class)
		HistoryFeed poolpilotHistoryFeed(PoolHistory history, PoolRegistry registry, Tuner tuner) {
			return new HistoryFeed(history, registry, tuner);
		}

	}

	/**
	 * On Spring MVC, the answers to the bodies it refuses before Actuator sees them: its
	 * types are Spring MVC's. On the endpoint's own conditions: a nested configuration is
	 * read before the beans of another.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnAvailableEndpoint(ThreadPoolsEndpoint.class)
	@ConditionalOnWebApplication(type = Type.SERVLET)
	@ConditionalOnClass(name = "org.springframework.web.servlet.DispatcherServlet")
	static class WebMvcBodyErrorsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnBean(PoolRegistry.class)
		ThreadPoolsMvcBodyErrors threadPoolsMvcBodyErrors(ObjectProvider<PathMappedEndpoints> endpoints) {
			return new ThreadPoolsMvcBodyErrors(endpoints::getIfAvailable);
		}

	}

	/**
	 * On WebFlux, the answers to the bodies it refuses before Actuator sees them, and the
	 * line that says the live page is not served there.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnAvailableEndpoint(ThreadPoolsEndpoint.class)
	@ConditionalOnWebApplication(type = Type.REACTIVE)
	@ConditionalOnClass(WebExceptionHandler.class)
	static class WebFluxBodyErrorsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnBean(PoolRegistry.class)
		ThreadPoolsWebFluxBodyErrors threadPoolsWebFluxBodyErrors(ObjectProvider<PathMappedEndpoints> endpoints,
				ObjectProvider<ServerCodecConfigurer> codecs) {
			return new ThreadPoolsWebFluxBodyErrors(endpoints::getIfAvailable,
					codecs.getIfAvailable(ServerCodecConfigurer::create).getWriters());
		}

		/**
		 * The live page is served by Spring MVC only: say so once, where a person would
		 * look for it, rather than answer 404 without a word.
		 */
		@Bean
		@ConditionalOnBooleanProperty(name = "poolpilot.ui.enabled", matchIfMissing = true)
		@ConditionalOnAvailableEndpoint(endpoint = ThreadPoolsEndpoint.class, exposure = EndpointExposure.WEB)
		SmartInitializingSingleton poolpilotUiServletOnly(Environment environment) {
			return () -> logger
				.info("poolpilot's live page (" + environment.getProperty("poolpilot.ui.path", "/poolpilot")
						+ ") is served on Spring MVC only: this WebFlux application serves the threadpools endpoint, "
						+ "which the page reads, without the page (poolpilot.ui.enabled=false leaves this line out)");
		}

	}

	/**
	 * With Spring Security, the answer that names a missing CSRF token on a write, where
	 * Spring Security's defaults answer 401 as for a wrong password.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnAvailableEndpoint(ThreadPoolsEndpoint.class)
	@ConditionalOnWebApplication(type = Type.SERVLET)
	@ConditionalOnClass(name = "org.springframework.security.web.csrf.CsrfToken")
	static class CsrfHintConfiguration {

		/**
		 * Just before Spring Security's filters (its default order is -100).
		 */
		private static final int ORDER = -101;

		@Bean
		@ConditionalOnBean(PoolRegistry.class)
		FilterRegistrationBean<ThreadPoolsCsrfHint> poolpilotThreadPoolsCsrfHint(
				ObjectProvider<PathMappedEndpoints> endpoints) {
			FilterRegistrationBean<ThreadPoolsCsrfHint> registration = new FilterRegistrationBean<>(
					new ThreadPoolsCsrfHint(endpoints::getIfAvailable));
			registration.setOrder(ORDER);
			return registration;
		}

	}

}
