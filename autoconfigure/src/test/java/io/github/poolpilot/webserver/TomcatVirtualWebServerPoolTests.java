package io.github.poolpilot.webserver;

import java.util.List;

import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * The {@code http} pool's contract on the embedded Tomcat whose requests run on virtual
 * threads ({@code spring.threads.virtual.enabled=true}): the pool is a concurrency limit.
 *
 * @author poolpilot authors
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class TomcatVirtualWebServerPoolTests extends WebServerPoolContractTests {

	@Override
	String meterPrefix() {
		return "tomcat";
	}

	@Override
	List<String> serverProperties() {
		return List.of("server.tomcat.mbeanregistry.enabled=true", "spring.threads.virtual.enabled=true");
	}

	@Override
	Integer serverMaxThreads(ConfigurableApplicationContext context, int maxPoolSize) {
		// Tomcat reports -1 for the executor Spring Boot gives it for virtual threads,
		// with or without poolpilot in front of it.
		return -1;
	}

}
