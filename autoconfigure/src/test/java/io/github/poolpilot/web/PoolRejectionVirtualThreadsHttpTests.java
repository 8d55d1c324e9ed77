package io.github.poolpilot.web;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.testsupport.LocalHttp;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.stereotype.Service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that work refused by a virtual pool answers 429 with problem details and
 * Retry-After over real HTTP, from a declared pool and from Spring Boot's virtual-thread
 * {@code applicationTaskExecutor} through {@code @Async}.
 *
 * @author poolpilot authors
 */
@EnabledForJreRange(min = JRE.JAVA_21)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.threads.virtual.enabled=true", "spring.task.execution.simple.concurrency-limit=1",
				"poolpilot.existing-executors.queue-capacity=1", "poolpilot.pools.small.virtual-threads=true",
				"poolpilot.pools.small.max-threads=1", "poolpilot.pools.small.queue-capacity=1",
				"poolpilot.measurement.window=1h" })
class PoolRejectionVirtualThreadsHttpTests {

	@LocalServerPort
	private int port;

	@Autowired
	private PoolRegistry registry;

	@BeforeEach
	void holdTasksOnIdlePools() {
		// The last test's queued task may start only now: it must find the released
		// latch.
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.registry.pools()
				.stream()
				.allMatch(
						(pool) -> pool.getExecutor().getActiveCount() == 0 && pool.getExecutor().getQueueSize() == 0));
		RejectingController.hold();
	}

	@AfterEach
	void releaseTasks() {
		RejectingController.release();
	}

	@Test
	void aSaturatedVirtualPoolAnswers429WithProblemDetailsAndRetryAfter() {
		assertThat(post("/direct").getStatusCode()).isEqualTo(HttpStatus.ACCEPTED);
		assertThat(post("/direct").getStatusCode()).isEqualTo(HttpStatus.ACCEPTED);
		ResponseEntity<String> third = post("/direct");
		assertThat(third.getStatusCode()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
		assertThat(third.getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
		assertThat(Long.parseLong(third.getHeaders().getFirst(HttpHeaders.RETRY_AFTER))).isGreaterThanOrEqualTo(1);
		assertThat(third.getBody()).contains("\"pool\":\"small\"").contains("\"reason\":\"QUEUE_FULL\"");
	}

	@Test
	void aRejectionBySpringBootsVirtualExecutorThroughAsyncAnswers429() {
		assertThat(post("/async").getStatusCode()).isEqualTo(HttpStatus.ACCEPTED);
		assertThat(post("/async").getStatusCode()).isEqualTo(HttpStatus.ACCEPTED);
		ResponseEntity<String> rejected = post("/async");
		assertThat(rejected.getStatusCode()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
		assertThat(rejected.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isNotBlank();
		assertThat(rejected.getBody()).contains("\"pool\":\"applicationTaskExecutor\"");
	}

	private ResponseEntity<String> post(String path) {
		return LocalHttp.post(this.port, path);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@EnableAsync
	@Import({ RejectingController.class, SlowService.class })
	static class TestApplication {

	}

	@Service
	static class SlowService implements RejectingController.SlowWork {

		@Async
		@Override
		public void work() {
			RejectingController.awaitRelease();
		}

	}

}
