package io.github.poolpilot.web;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.github.poolpilot.pool.PoolRejectedException;
import io.github.poolpilot.measure.RejectionReason;

import org.springframework.core.task.TaskRejectedException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link PoolRejectionExceptionHandler}'s answer to each reason a pool refuses
 * work for.
 *
 * @author poolpilot authors
 */
class PoolRejectionExceptionHandlerTests {

	private final PoolRejectionExceptionHandler handler = new PoolRejectionExceptionHandler((pool) -> 429);

	@ParameterizedTest
	@CsvSource({ "QUEUE_FULL, 429", "QUEUE_WAIT, 429", "CIRCUIT_OPEN, 503", "SHUTDOWN, 503" })
	void eachReasonHasItsStatusAndRetryAfter(RejectionReason reason, int status) {
		PoolRejectedException rejection = new PoolRejectedException("talk", reason, Duration.ofSeconds(7));
		ResponseEntity<ProblemDetail> response = this.handler
			.handleRejection(new TaskRejectedException("rejected", rejection));
		assertThat(response.getStatusCode().value()).isEqualTo(status);
		assertThat(response.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("7");
		assertThat(response.getBody()).isNotNull();
		assertThat(response.getBody().getProperties()).containsEntry("pool", "talk")
			.containsEntry("reason", reason.name())
			.containsEntry("retryAfterSeconds", 7L);
	}

	@ParameterizedTest
	@CsvSource({ "QUEUE_FULL", "QUEUE_WAIT" })
	void aPoolsRejectionStatusAppliesWhenItIsBusyNotWhenItIsUnavailable(RejectionReason reason) {
		PoolRejectionExceptionHandler strict = new PoolRejectionExceptionHandler((pool) -> 503);
		assertThat(strict.handleRejection(new PoolRejectedException("talk", reason, Duration.ofSeconds(1)))
			.getStatusCode()
			.value()).isEqualTo(503);
	}

	@Test
	void otherRejectionsAreLeftToOtherHandlers() {
		RejectedExecutionException other = new RejectedExecutionException("not a managed pool");
		assertThatExceptionOfType(RejectedExecutionException.class)
			.isThrownBy(() -> this.handler.handleRejection(other))
			.isSameAs(other);
	}

}
