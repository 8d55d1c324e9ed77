package io.github.poolpilot.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

import io.github.poolpilot.actuate.ThreadPoolsEndpoint;
import io.github.poolpilot.history.PoolHistory;
import io.github.poolpilot.ui.PoolsPage;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.actuate.endpoint.EndpointAccessResolver;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.web.servlet.handler.SimpleUrlHandlerMapping;

/**
 * The live page of the pools ({@code poolpilot.ui.path}), served where the actuator's
 * endpoints are: on the application's server, or on the management server when it has a
 * port of its own. On while the {@code threadpools} endpoint is exposed over HTTP, off
 * with {@code poolpilot.ui.enabled=false}.
 *
 * @author poolpilot authors
 */
@ManagementContextConfiguration(value = ManagementContextType.ANY, proxyBeanMethods = false)
@ConditionalOnWebApplication(type = Type.SERVLET)
@ConditionalOnClass({ SimpleUrlHandlerMapping.class, JsonMapper.class })
@ConditionalOnBooleanProperty(name = "poolpilot.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "poolpilot.ui.enabled", matchIfMissing = true)
@ConditionalOnAvailableEndpoint(endpoint = ThreadPoolsEndpoint.class, exposure = EndpointExposure.WEB)
public class PoolpilotUiManagementContextConfiguration {

	@Bean
	SimpleUrlHandlerMapping poolpilotUiHandlerMapping(Environment environment, ObjectProvider<PoolHistory> history,
			ObjectProvider<PathMappedEndpoints> endpoints, EndpointAccessResolver access,
			ObjectProvider<JsonMapper> json, BeanFactory beanFactory) {
		String path = path(environment);
		Map<String, Object> urls = new LinkedHashMap<>();
		PoolHistory poolHistory = history.getIfAvailable();
		if (poolHistory != null) {
			PoolsPage page = new PoolsPage(path, poolHistory,
					() -> endpoints.getObject().getPath(EndpointId.of("threadpools")), access, beanFactory,
					json.getIfAvailable(JsonMapper::new));
			urls.put(path, page);
			urls.put(path + "/", page);
			urls.put(path + "/*", page);
		}
		// Before the application's own mappings and static resources: the path is
		// poolpilot's by configuration.
		return new SimpleUrlHandlerMapping(urls, Ordered.HIGHEST_PRECEDENCE + 10);
	}

	static String path(Environment environment) {
		String path = Binder.get(environment).bind("poolpilot.ui.path", String.class).orElse("/poolpilot");
		if (!path.startsWith("/") || path.length() < 2 || path.endsWith("/") || path.contains("*")
				|| path.contains("{")) {
			throw new InvalidPoolpilotPropertyException("poolpilot.ui.path", path,
					"must start with '/', not end with '/' and hold no pattern ('*', '{'), such as /poolpilot");
		}
		return path;
	}

}
