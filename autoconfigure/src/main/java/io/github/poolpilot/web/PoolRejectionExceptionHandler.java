package io.github.poolpilot.web;

import java.util.concurrent.RejectedExecutionException;
import java.util.function.ToIntFunction;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.pool.PoolRejectedException;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Answers work rejected by a managed pool, whether submitted directly or through
 * {@code @Async}, with the pool's rejection status (503 while it shuts down or its
 * circuit is open), a problem body naming the pool and a {@code Retry-After} header. It
 * has the lowest precedence and, being auto-configured, is registered after the
 * application's own advice, so an application's handler for the same exception wins even
 * without an {@code @Order}. Rejections from pools poolpilot does not manage are left to
 * other handlers.
 *
 * @author poolpilot authors
 */
@RestControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
public class PoolRejectionExceptionHandler {

	private final ToIntFunction<String> rejectionStatus;

	/**
	 * Create a handler.
	 * @param rejectionStatus the HTTP status to answer for each pool's rejections
	 */
	public PoolRejectionExceptionHandler(ToIntFunction<String> rejectionStatus) {
		this.rejectionStatus = rejectionStatus;
	}

	@ExceptionHandler(RejectedExecutionException.class)
	ResponseEntity<ProblemDetail> handleRejection(RejectedExecutionException ex) throws RejectedExecutionException {
		PoolRejectedException rejection = findPoolRejection(ex);
		if (rejection == null) {
			throw ex;
		}
		HttpStatus status = RejectionProblem.status(rejection, this.rejectionStatus.applyAsInt(rejection.getPool()));
		return ResponseEntity.status(status)
			.header(HttpHeaders.RETRY_AFTER, Long.toString(RejectionProblem.retryAfterSeconds(rejection)))
			.body(RejectionProblem.of(rejection, status));
	}

	private static @Nullable PoolRejectedException findPoolRejection(Throwable ex) {
		for (Throwable candidate = ex; candidate != null; candidate = candidate.getCause()) {
			if (candidate instanceof PoolRejectedException rejection) {
				return rejection;
			}
		}
		return null;
	}

}
