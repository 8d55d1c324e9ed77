package io.github.poolpilot.webserver;

import java.util.List;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * The {@code http} pool's contract on the embedded Jetty whose requests run on virtual
 * threads ({@code spring.threads.virtual.enabled=true}), without Tomcat on the classpath:
 * the pool is a concurrency limit.
 *
 * @author poolpilot authors
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class JettyVirtualWebServerPoolTests extends WebServerPoolContractTests {

	@Override
	String meterPrefix() {
		return "jetty";
	}

	@Override
	List<String> serverProperties() {
		return List.of("spring.threads.virtual.enabled=true");
	}

	@Override
	@Nullable Integer serverMaxThreads(ConfigurableApplicationContext context, int maxPoolSize) {
		// Spring Boot binds no maximum for Jetty's virtual-thread pool, which has none.
		return null;
	}

}
