package io.github.poolpilot.sample.session;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * There is no session of the given id: answered with 404.
 *
 * @author poolpilot authors
 */
public class SessionNotFoundException extends ErrorResponseException {

	public SessionNotFoundException(long sessionId) {
		super(HttpStatus.NOT_FOUND, ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, "No session " + sessionId),
				null);
	}

}
