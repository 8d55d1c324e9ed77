package io.github.poolpilot.autoconfigure;

import io.github.poolpilot.actuate.ThreadPoolsEndpoint;
import io.github.poolpilot.actuate.ThreadPoolsEndpointWebExtension;
import io.github.poolpilot.actuate.ThreadPoolsRequestBodyCheck;
import io.github.poolpilot.actuate.TunerAuditListener;
import io.github.poolpilot.cluster.ClusterCoordinator;
import io.github.poolpilot.cluster.PoolLease;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.tuning.Tuner;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.mvc.method.annotation.RequestBodyAdviceAdapter;

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
	 * The check of a write's body on Spring MVC, whose types it names. On the endpoint's
	 * own conditions: a nested configuration is read before the beans of another.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnAvailableEndpoint(ThreadPoolsEndpoint.class)
	@ConditionalOnWebApplication(type = Type.SERVLET)
	@ConditionalOnClass(RequestBodyAdviceAdapter.class)
	static class WebMvcBodyCheckConfiguration {

		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnBean(PoolRegistry.class)
		ThreadPoolsRequestBodyCheck threadPoolsRequestBodyCheck(ObjectProvider<PathMappedEndpoints> endpoints) {
			return new ThreadPoolsRequestBodyCheck(endpoints::getIfAvailable);
		}

	}

}
