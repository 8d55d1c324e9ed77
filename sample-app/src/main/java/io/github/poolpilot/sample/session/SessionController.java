package io.github.poolpilot.sample.session;

import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClientException;

/**
 * The start, talk and stop APIs. Each hands its work to its pool and returns at once: the
 * servlet thread is free while the work waits or runs, and the pool's bounds, not the
 * servlet container's, decide how much work is taken. And talk-blocking, talk's work on
 * the request's own thread, for the web server's request pool to protect.
 *
 * @author poolpilot authors
 */
@RestController
@RequestMapping("/api")
class SessionController {

	/**
	 * The longest message the {@code sample_exchange} table holds.
	 */
	static final int MAX_MESSAGE_LENGTH = 1000;

	private final SessionService service;

	SessionController(SessionService service) {
		this.service = service;
	}

	@PostMapping("/start")
	CompletableFuture<StartedSession> start() {
		return this.service.start();
	}

	@PostMapping("/talk")
	CompletableFuture<TalkReply> talk(@RequestBody TalkRequest request) {
		return this.service.talk(required("sessionId", request.sessionId()), message(request));
	}

	/**
	 * Talk as the thread-per-request applications do: the request's own thread waits for
	 * the downstream, so the web server's request pool, not a pool of the application's,
	 * decides how much work is taken (profile {@code blocking}).
	 */
	@PostMapping("/talk-blocking")
	TalkReply talkBlocking(@RequestBody TalkRequest request) {
		return this.service.talkOnThisThread(required("sessionId", request.sessionId()), message(request));
	}

	@PostMapping("/stop")
	CompletableFuture<StoppedSession> stop(@RequestBody StopRequest request) {
		return this.service.stop(required("sessionId", request.sessionId()));
	}

	@ExceptionHandler(RestClientException.class)
	ProblemDetail downstreamFailed(RestClientException ex) {
		return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_GATEWAY, "The downstream failed: " + ex.getMessage());
	}

	private static String message(TalkRequest request) {
		String message = required("message", request.message());
		if (message.length() > MAX_MESSAGE_LENGTH) {
			throw badRequest("'message' must not be longer than " + MAX_MESSAGE_LENGTH + " characters");
		}
		return message;
	}

	private static <T> T required(String field, @Nullable T value) {
		if (value == null) {
			throw badRequest("'" + field + "' is required");
		}
		return value;
	}

	private static ErrorResponseException badRequest(String detail) {
		return new ErrorResponseException(HttpStatus.BAD_REQUEST,
				ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, detail), null);
	}

	/**
	 * The body of {@code POST /api/talk} and {@code /api/talk-blocking}.
	 *
	 * @param sessionId the session
	 * @param message what to say
	 */
	record TalkRequest(@Nullable Long sessionId, @Nullable String message) {

	}

	/**
	 * The body of {@code POST /api/stop}.
	 *
	 * @param sessionId the session
	 */
	record StopRequest(@Nullable Long sessionId) {

	}

}
