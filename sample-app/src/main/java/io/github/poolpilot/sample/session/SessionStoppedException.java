package io.github.poolpilot.sample.session;

import java.time.OffsetDateTime;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * The session was stopped already: answered with 409.
 *
 * @author poolpilot authors
 */
public class SessionStoppedException extends ErrorResponseException {

	public SessionStoppedException(long sessionId, @Nullable OffsetDateTime stoppedAt) {
		super(HttpStatus.CONFLICT, ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT,
				"Session " + sessionId + " was stopped at " + stoppedAt), null);
	}

}
