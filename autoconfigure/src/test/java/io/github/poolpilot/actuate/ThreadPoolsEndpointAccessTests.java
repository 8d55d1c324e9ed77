package io.github.poolpilot.actuate;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.testsupport.LocalHttp;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the {@code threadpools} endpoint is read-only unless the application opts
 * in.
 *
 * @author poolpilot authors
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=threadpools", "poolpilot.pools.talk.max-threads=4",
				// The tuner would resize idle pools while the test reads their sizes.
				"poolpilot.measurement.window=1h" })
class ThreadPoolsEndpointAccessTests {

	@LocalServerPort
	private int port;

	@Autowired
	private PoolRegistry registry;

	@Test
	void readsAreAllowedAndWritesRefusedByDefault() {
		assertThat(LocalHttp.get(this.port, "/actuator/threadpools/talk").getStatusCode()).isEqualTo(HttpStatus.OK);
		// Pools start at their min-threads: ask for another size than the one it has.
		int core = this.registry.get("talk").getExecutor().getCorePoolSize();
		HttpStatusCode status = LocalHttp
			.post(this.port, "/actuator/threadpools/talk", "{\"corePoolSize\":" + (core + 1) + "}")
			.getStatusCode();
		assertThat(status).isEqualTo(HttpStatus.METHOD_NOT_ALLOWED);
		assertThat(this.registry.get("talk").getExecutor().getCorePoolSize()).isEqualTo(core);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

	}

}
