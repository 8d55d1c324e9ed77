package io.github.poolpilot.web;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerApplicationContext;
import org.springframework.context.ApplicationContext;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that work rejected by a managed pool answers the same 429 or 503 problem details
 * and Retry-After on WebFlux as on Spring MVC, over real HTTP on a reactive server.
 *
 * @author poolpilot authors
 */
@SpringBootTest(classes = PoolRejectionHttpTests.TestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "poolpilot.pools.small.max-threads=1",
				"poolpilot.pools.small.queue-capacity=1", "poolpilot.pools.strict.max-threads=1",
				"poolpilot.pools.strict.queue-capacity=1", "poolpilot.pools.strict.rejection-status=503" })
class PoolRejectionWebFluxHttpTests extends PoolRejectionHttpTests {

	@Autowired
	private ApplicationContext context;

	@Test
	void runsOnAReactiveServer() {
		assertThat(this.context).isInstanceOf(ReactiveWebServerApplicationContext.class);
	}

}
