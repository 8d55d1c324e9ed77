package io.github.poolpilot.webserver;

import java.util.List;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * The {@code http} pool's contract on the embedded Tomcat.
 *
 * @author poolpilot authors
 */
class TomcatWebServerPoolTests extends WebServerPoolContractTests {

	@Override
	String meterPrefix() {
		return "tomcat";
	}

	@Override
	List<String> serverProperties() {
		// Spring Boot binds Tomcat's meters from its MBeans.
		return List.of("server.tomcat.mbeanregistry.enabled=true");
	}

	@Override
	Integer serverMaxThreads(ConfigurableApplicationContext context, int maxPoolSize) {
		// The pool's threads are Tomcat's executor's, no more and no fewer.
		return maxPoolSize;
	}

}
