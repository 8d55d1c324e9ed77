package io.github.poolpilot.actuate;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import javax.management.MBeanException;
import javax.management.MBeanParameterInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;

import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Tests that the {@code threadpools} endpoint is available over JMX, as VisualVM and
 * JConsole see it, and that a change through it is checked as one over HTTP is.
 *
 * @author poolpilot authors
 */
@SpringBootTest(properties = { "spring.jmx.enabled=true", "management.endpoints.jmx.exposure.include=threadpools",
		"management.endpoint.threadpools.access=unrestricted", "poolpilot.pools.talk.max-threads=2",
		"poolpilot.existing-executors.enabled=false", "poolpilot.tuning.enabled=false" })
class ThreadPoolsEndpointJmxTests {

	private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();

	@Autowired
	private PoolRegistry registry;

	private ManagedPool talk;

	@BeforeEach
	void resetTalk() {
		this.talk = this.registry.get("talk");
		this.talk.resize(1, 1);
	}

	@Test
	void theEndpointIsAnMBeanWhoseReadOperationListsThePools() throws Exception {
		Object result = this.server.invoke(endpoint(), "threadPools", new Object[0], new String[0]);
		assertThat(result).isInstanceOf(Map.class);
		Object pools = ((Map<?, ?>) result).get("pools");
		assertThat(((Map<?, ?>) pools).keySet()).extracting(Object::toString).contains("talk");
	}

	@Test
	void aValidChangeOverJmxResizesThePool() throws Exception {
		Object result = update("talk", 2, 2, null);
		assertThat(((Map<?, ?>) result).get("maxPoolSize")).isEqualTo(2);
		assertThat(this.talk.getExecutor().getMaximumPoolSize()).isEqualTo(2);
	}

	@Test
	void aSizeBeyondTheBoundsOverJmxIsRefusedNamingItAndChangesNothing() {
		MBeanException refused = catchThrowableOfType(MBeanException.class, () -> update("talk", 3, 3, null));
		assertThat(refused.getCause()).hasMessageStartingWith("corePoolSize 3 of pool 'talk'")
			.hasMessageEndingWith("(allowed: 1 to 2)");
		assertThat(this.talk.getExecutor().getCorePoolSize()).isEqualTo(1);
		assertThat(this.talk.getExecutor().getMaximumPoolSize()).isEqualTo(1);
	}

	@Test
	void anUnknownTuningModeOverJmxIsRefusedSayingWhatIsAllowedAndChangesNothing() {
		MBeanException refused = catchThrowableOfType(MBeanException.class, () -> update("talk", 2, 2, "fast"));
		assertThat(refused.getCause()).hasMessageContaining("\"fast\"")
			.hasMessageContaining("allowed: \"auto\", \"manual\"");
		assertThat(this.talk.getExecutor().getMaximumPoolSize()).isEqualTo(1);
	}

	/**
	 * Invoke the write operation with its arguments in the order and types its
	 * {@code MBeanInfo} gives, as JConsole does.
	 */
	private Object update(String pool, Integer corePoolSize, Integer maxPoolSize, @Nullable String tuning)
			throws Exception {
		Map<String, @Nullable Object> arguments = new HashMap<>();
		// Listed among the operation's parameters over JMX, and supplied by Spring Boot.
		arguments.put("securityContext", null);
		arguments.put("name", pool);
		arguments.put("corePoolSize", corePoolSize);
		arguments.put("maxPoolSize", maxPoolSize);
		arguments.put("tuning", tuning);
		ObjectName endpoint = endpoint();
		MBeanParameterInfo[] parameters = Arrays.stream(this.server.getMBeanInfo(endpoint).getOperations())
			.filter((operation) -> operation.getName().equals("updateThreadPool"))
			.findFirst()
			.orElseThrow()
			.getSignature();
		assertThat(parameters).extracting(MBeanParameterInfo::getName)
			.containsExactlyInAnyOrderElementsOf(arguments.keySet());
		return this.server.invoke(endpoint, "updateThreadPool",
				Arrays.stream(parameters).map((parameter) -> arguments.get(parameter.getName())).toArray(),
				Arrays.stream(parameters).map(MBeanParameterInfo::getType).toArray(String[]::new));
	}

	private ObjectName endpoint() throws Exception {
		return this.server.queryNames(new ObjectName("org.springframework.boot:type=Endpoint,name=Threadpools,*"), null)
			.iterator()
			.next();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

	}

}
