package io.github.poolpilot.web;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.testsupport.Blocking;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that an application's own handler for rejected work wins over poolpilot's.
 *
 * @author poolpilot authors
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "poolpilot.pools.small.max-threads=1", "poolpilot.pools.small.queue-capacity=1" })
class ApplicationExceptionHandlerPrecedenceTests {

	static final CountDownLatch release = new CountDownLatch(1);

	@LocalServerPort
	private int port;

	@AfterEach
	void releaseTasks() {
		release.countDown();
	}

	@Test
	void theApplicationsOwnHandlerAnswersRejectedWork() {
		ResponseEntity<String> last = null;
		for (int i = 0; i < 3; i++) {
			last = RestClient.create("http://localhost:" + this.port)
				.post()
				.uri("/work")
				.retrieve()
				.onStatus((status) -> true, (request, response) -> {
				})
				.toEntity(String.class);
		}
		assertThat(last.getStatusCode()).isEqualTo(HttpStatus.I_AM_A_TEAPOT);
		assertThat(last.getBody()).isEqualTo("mine");
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import({ WorkController.class, OwnHandler.class })
	static class TestApplication {

	}

	@RestController
	static class WorkController {

		private final Executor small;

		WorkController(@Qualifier("small") Executor small) {
			this.small = small;
		}

		@PostMapping("/work")
		ResponseEntity<Void> work() {
			this.small.execute(() -> Blocking.await(release));
			return ResponseEntity.accepted().build();
		}

	}

	@RestControllerAdvice
	static class OwnHandler {

		@ExceptionHandler(RejectedExecutionException.class)
		ResponseEntity<String> rejected(RejectedExecutionException ex) {
			return ResponseEntity.status(HttpStatus.I_AM_A_TEAPOT).body("mine");
		}

	}

}
