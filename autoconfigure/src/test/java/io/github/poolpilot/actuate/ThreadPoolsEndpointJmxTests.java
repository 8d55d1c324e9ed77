package io.github.poolpilot.actuate;

import java.lang.management.ManagementFactory;
import java.util.Map;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the {@code threadpools} endpoint is available over JMX, as VisualVM and
 * JConsole see it.
 *
 * @author poolpilot authors
 */
@SpringBootTest(properties = { "spring.jmx.enabled=true", "management.endpoints.jmx.exposure.include=threadpools",
		"poolpilot.pools.talk.max-threads=2", "poolpilot.existing-executors.enabled=false" })
class ThreadPoolsEndpointJmxTests {

	@Test
	void theEndpointIsAnMBeanWhoseReadOperationListsThePools() throws Exception {
		MBeanServer server = ManagementFactory.getPlatformMBeanServer();
		ObjectName name = server
			.queryNames(new ObjectName("org.springframework.boot:type=Endpoint,name=Threadpools,*"), null)
			.iterator()
			.next();
		Object result = server.invoke(name, "threadPools", new Object[0], new String[0]);
		assertThat(result).isInstanceOf(Map.class);
		Object pools = ((Map<?, ?>) result).get("pools");
		assertThat(((Map<?, ?>) pools).keySet()).extracting(Object::toString).contains("talk");
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

	}

}
