package io.github.poolpilot.web;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

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
 * Tests that work rejected by a managed pool answers 429 or 503 with problem details and
 * Retry-After over real HTTP.
 *
 * @author poolpilot authors
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "poolpilot.pools.small.max-threads=1", "poolpilot.pools.small.queue-capacity=1",
				"poolpilot.pools.strict.max-threads=1", "poolpilot.pools.strict.queue-capacity=1",
				"poolpilot.pools.strict.rejection-status=503" })
class PoolRejectionHttpTests {

	@LocalServerPort
	private int port;

	@Autowired
	private PoolRegistry registry;

	@BeforeEach
	void holdTasksOnIdlePools() {
		// A scheduler's pool runs its jobs whenever they are due (the gRPC server's
		// health updates turn scheduling on): these tests hold the other pools. The
		// last test's queued task may start only now: it must find the released latch,
		// so the new one is set once every pool is idle.
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.registry.pools()
				.stream()
				.filter((pool) -> pool.getRecorder().scheduledRuns() == null)
				.allMatch(
						(pool) -> pool.getExecutor().getActiveCount() == 0 && pool.getExecutor().getQueueSize() == 0));
		RejectingController.hold();
	}

	@AfterEach
	void releaseTasks() {
		RejectingController.release();
	}

	@Test
	void aSaturatedPoolAnswers429WithProblemDetailsAndRetryAfter() {
		ResponseEntity<String> first = post("/direct");
		ResponseEntity<String> second = post("/direct");
		ResponseEntity<String> third = post("/direct");
		assertThat(first.getStatusCode()).isEqualTo(HttpStatus.ACCEPTED);
		assertThat(second.getStatusCode()).isEqualTo(HttpStatus.ACCEPTED);
		assertThat(third.getStatusCode()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
		assertThat(third.getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
		assertThat(Long.parseLong(third.getHeaders().getFirst(HttpHeaders.RETRY_AFTER))).isGreaterThanOrEqualTo(1);
		assertThat(third.getBody()).contains("\"pool\":\"small\"").contains("\"status\":429");
	}

	@Test
	void aRejectionThroughAsyncAnswersThePoolsConfiguredStatus() {
		assertThat(post("/async").getStatusCode()).isEqualTo(HttpStatus.ACCEPTED);
		assertThat(post("/async").getStatusCode()).isEqualTo(HttpStatus.ACCEPTED);
		ResponseEntity<String> rejected = post("/async");
		assertThat(rejected.getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
		assertThat(rejected.getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
		assertThat(rejected.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isNotBlank();
		assertThat(rejected.getBody()).contains("\"pool\":\"strict\"");
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

		@Async("strict")
		@Override
		public void work() {
			RejectingController.awaitRelease();
		}

	}

}
