package io.github.poolpilot.actuate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.util.MimeType;

/**
 * The one body of every refusal by the {@code threadpools} endpoint: an RFC 9457 problem
 * ({@code application/problem+json}) naming the offending field, or the pool, and what is
 * allowed. Built as a map so that it reads the same through Spring MVC, WebFlux and JMX,
 * whatever JSON mapper the application configures.
 *
 * @author poolpilot authors
 */
public final class ThreadPoolsProblem {

	/**
	 * The media type of every refusal.
	 */
	public static final MimeType MEDIA_TYPE = MimeType.valueOf("application/problem+json");

	private ThreadPoolsProblem() {
	}

	/**
	 * Return the body of a change refused for one field.
	 * @param field the offending field ({@code body} when the body itself is wrong)
	 * @param detail what is wrong and what is allowed
	 * @return the body
	 */
	public static Map<String, Object> badRequest(String field, @Nullable String detail) {
		Map<String, Object> body = problem(WebEndpointResponse.STATUS_BAD_REQUEST, "Bad Request", detail);
		body.put("field", field);
		return body;
	}

	/**
	 * Return the body of a change refused before it reached the endpoint.
	 * @param field what is missing
	 * @param detail what is wrong and what to do
	 * @return the body
	 */
	public static Map<String, Object> forbidden(String field, String detail) {
		Map<String, Object> body = problem(403, "Forbidden", detail);
		body.put("field", field);
		return body;
	}

	/**
	 * Return the body answering a write sent as a content type it does not read.
	 * @param detail what was sent and what to send
	 * @return the body
	 */
	public static Map<String, Object> unsupportedMediaType(String detail) {
		Map<String, Object> body = problem(415, "Unsupported Media Type", detail);
		body.put("field", "Content-Type");
		return body;
	}

	/**
	 * Return the body answering a pool name that names no managed pool.
	 * @param pool the name asked for
	 * @param pools the names of the managed pools
	 * @return the body
	 */
	public static Map<String, Object> unknownPool(String pool, List<String> pools) {
		Map<String, Object> body = problem(WebEndpointResponse.STATUS_NOT_FOUND, "Not Found",
				"No managed pool is named '" + pool + "' (the pools are " + pools + ")");
		body.put("pool", pool);
		body.put("pools", pools);
		return body;
	}

	/**
	 * Return a refusal as the endpoint's web extension answers it.
	 * @param body the problem
	 * @return the response
	 */
	static WebEndpointResponse<Object> response(Map<String, Object> body) {
		return new WebEndpointResponse<>(body, (int) body.get("status"), MEDIA_TYPE);
	}

	private static Map<String, Object> problem(int status, String title, @Nullable String detail) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("type", "about:blank");
		body.put("title", title);
		body.put("status", status);
		body.put("detail", detail);
		return body;
	}

}
