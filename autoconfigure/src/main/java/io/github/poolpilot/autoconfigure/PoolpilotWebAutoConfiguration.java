package io.github.poolpilot.autoconfigure;

import io.github.poolpilot.web.PoolRejectionExceptionHandler;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.http.ProblemDetail;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} for answering rejected work over HTTP with 429 or 503 problem
 * details, on Spring MVC and on WebFlux.
 *
 * @author poolpilot authors
 */
@AutoConfiguration(after = PoolpilotAutoConfiguration.class)
@ConditionalOnWebApplication
@ConditionalOnClass(ProblemDetail.class)
@ConditionalOnBooleanProperty(name = "poolpilot.web.rejection-handler-enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "poolpilot.enabled", matchIfMissing = true)
public final class PoolpilotWebAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	PoolRejectionExceptionHandler poolRejectionExceptionHandler(PoolpilotProperties properties,
			Environment environment) {
		return new PoolRejectionExceptionHandler((pool) -> {
			PoolProperties settings = properties.getPools().get(pool);
			if (settings == null) {
				settings = ExistingExecutorsBinding.configured(environment, pool);
			}
			return (settings != null) ? settings.getRejectionStatus() : 429;
		});
	}

}
