package io.github.poolpilot.actuate;

import java.util.Map;
import java.util.function.Supplier;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;

/**
 * On Spring MVC, what it refuses of a {@code POST /actuator/threadpools/{name}} before
 * Actuator sees the body (a body that is not a JSON object, a value that is an array or
 * an object, a content type other than JSON) answered with the problems of
 * {@link ThreadPoolsWriteCheck}. For any other request the exception is thrown again,
 * which hands it back to Spring MVC's own handling.
 *
 * @author poolpilot authors
 */
@ControllerAdvice
public class ThreadPoolsMvcBodyErrors {

	private final Supplier<@Nullable PathMappedEndpoints> endpoints;

	/**
	 * Create the handler.
	 * @param endpoints where the web endpoints are mapped, to find the endpoint's path
	 * whatever {@code management.endpoints.web.base-path} and path mappings say
	 */
	public ThreadPoolsMvcBodyErrors(Supplier<@Nullable PathMappedEndpoints> endpoints) {
		this.endpoints = endpoints;
	}

	/**
	 * Answer a body that could not be read.
	 * @param ex what could not be read
	 * @param request the request
	 * @return the problem
	 * @throws HttpMessageNotReadableException for any other request
	 */
	@ExceptionHandler(HttpMessageNotReadableException.class)
	ResponseEntity<Map<String, Object>> unreadableBody(HttpMessageNotReadableException ex, HttpServletRequest request) {
		if (!isThreadPoolsWrite(request)) {
			throw ex;
		}
		return problem(ThreadPoolsWriteCheck.unreadable(ex.getMostSpecificCause().getMessage()));
	}

	/**
	 * Answer a body of a content type the write does not read.
	 * @param ex what was refused
	 * @param request the request
	 * @return the problem
	 * @throws HttpMediaTypeNotSupportedException for any other request
	 */
	@ExceptionHandler(HttpMediaTypeNotSupportedException.class)
	ResponseEntity<Map<String, Object>> unsupportedContentType(HttpMediaTypeNotSupportedException ex,
			HttpServletRequest request) throws HttpMediaTypeNotSupportedException {
		if (!isThreadPoolsWrite(request)) {
			throw ex;
		}
		return problem(ThreadPoolsWriteCheck.unsupportedContentType(request.getContentType()));
	}

	private boolean isThreadPoolsWrite(HttpServletRequest request) {
		String uri = request.getRequestURI().substring(request.getContextPath().length());
		return ThreadPoolsWriteCheck.isWrite(request.getMethod(), uri, this.endpoints.get());
	}

	private static ResponseEntity<Map<String, Object>> problem(Map<String, Object> body) {
		return ResponseEntity.status((int) body.get("status"))
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.body(body);
	}

}
