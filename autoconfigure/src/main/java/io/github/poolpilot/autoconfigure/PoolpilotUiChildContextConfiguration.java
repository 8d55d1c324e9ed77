package io.github.poolpilot.autoconfigure;

import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.handler.SimpleUrlHandlerMapping;
import org.springframework.web.servlet.mvc.HttpRequestHandlerAdapter;

/**
 * On a management server of its own, whose dispatcher only uses the handler adapters of
 * its own context, the adapter that runs the live page's handler.
 *
 * @author poolpilot authors
 */
@ManagementContextConfiguration(value = ManagementContextType.CHILD, proxyBeanMethods = false)
@ConditionalOnWebApplication(type = Type.SERVLET)
@ConditionalOnClass(SimpleUrlHandlerMapping.class)
public class PoolpilotUiChildContextConfiguration {

	@Bean
	HttpRequestHandlerAdapter poolpilotUiHandlerAdapter() {
		return new HttpRequestHandlerAdapter();
	}

}
