package io.github.poolpilot.web;

import io.github.poolpilot.pool.PoolRejectedException;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/**
 * The one answer to work a managed pool refused, wherever it is answered (a controller's
 * {@code @Async} call or the web server's own request pool): the pool's rejection status,
 * 503 when the pool is shutting down or its circuit is open, and a problem detail naming
 * the pool, the reason and the seconds to wait before trying again.
 *
 * @author poolpilot authors
 */
public final class RejectionProblem {

	private RejectionProblem() {
	}

	/**
	 * Return the status to answer a rejection with.
	 * @param rejection the rejection
	 * @param rejectionStatus the pool's configured status for a full pool (429 or 503)
	 * @return the status
	 */
	public static HttpStatus status(PoolRejectedException rejection, int rejectionStatus) {
		return rejection.getReason().isUnavailable() ? HttpStatus.SERVICE_UNAVAILABLE
				: HttpStatus.valueOf(rejectionStatus);
	}

	/**
	 * Return the {@code Retry-After} of a rejection in whole seconds.
	 * @param rejection the rejection
	 * @return the seconds, at least 1
	 */
	public static long retryAfterSeconds(PoolRejectedException rejection) {
		return Math.max(1, rejection.getRetryAfter().toSeconds());
	}

	/**
	 * Return the problem detail of a rejection.
	 * @param rejection the rejection
	 * @param status its status
	 * @return the problem detail, with the properties {@code pool}, {@code reason} and
	 * {@code retryAfterSeconds}
	 */
	public static ProblemDetail of(PoolRejectedException rejection, HttpStatus status) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, rejection.getMessage());
		problem.setProperty("pool", rejection.getPool());
		problem.setProperty("reason", rejection.getReason().name());
		problem.setProperty("retryAfterSeconds", retryAfterSeconds(rejection));
		return problem;
	}

}
