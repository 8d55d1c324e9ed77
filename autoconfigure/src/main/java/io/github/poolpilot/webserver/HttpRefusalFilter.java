package io.github.poolpilot.webserver;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.github.poolpilot.pool.PoolRejectedException;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Answers each request the {@code http} pool refused, first of all filters and without
 * running the application: the pool's rejection status (503 when the server is shutting
 * down) with {@code Retry-After} in whole seconds and an {@code application/problem+json}
 * body naming the pool, as a managed pool's refusal is answered anywhere. Requests under
 * the management base path are served instead, so that health checks are answered while
 * the application's requests are refused.
 *
 * @author poolpilot authors
 */
public class HttpRefusalFilter extends OncePerRequestFilter {

	private final int rejectionStatus;

	private final String managementBasePath;

	/**
	 * Create the filter.
	 * @param rejectionStatus the status of a request refused because the pool is full
	 * @param managementBasePath the path of the management endpoints on the server's port
	 * (such as {@code /actuator}), served even when refused; empty for none
	 */
	public HttpRefusalFilter(int rejectionStatus, String managementBasePath) {
		this.rejectionStatus = rejectionStatus;
		this.managementBasePath = managementBasePath;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		PoolRejectedException rejection = HttpRefusal.current();
		if (rejection == null || isManagement(request)) {
			chain.doFilter(request, response);
			return;
		}
		int status = rejection.getReason().isUnavailable() ? HttpStatus.SERVICE_UNAVAILABLE.value()
				: this.rejectionStatus;
		long retryAfterSeconds = Math.max(1, rejection.getRetryAfter().toSeconds());
		response.setStatus(status);
		response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds));
		response.setContentType("application/problem+json");
		byte[] body = problem(status, rejection, request.getRequestURI(), retryAfterSeconds)
			.getBytes(StandardCharsets.UTF_8);
		response.setContentLength(body.length);
		response.getOutputStream().write(body);
	}

	private boolean isManagement(HttpServletRequest request) {
		if (this.managementBasePath.isEmpty()) {
			return false;
		}
		String path = request.getRequestURI().substring(request.getContextPath().length());
		return path.equals(this.managementBasePath) || path.startsWith(this.managementBasePath + "/");
	}

	/**
	 * The body of a managed pool's refusal (RFC 9457), with the pool, the reason and the
	 * retry delay, as {@code PoolRejectionExceptionHandler} writes it.
	 */
	static String problem(int status, PoolRejectedException rejection, String instance, long retryAfterSeconds) {
		HttpStatus httpStatus = HttpStatus.valueOf(status);
		return "{\"type\":\"about:blank\",\"title\":\"" + json(httpStatus.getReasonPhrase()) + "\",\"status\":" + status
				+ ",\"detail\":\"" + json(String.valueOf(rejection.getMessage())) + "\",\"instance\":\""
				+ json(instance) + "\",\"pool\":\"" + json(rejection.getPool()) + "\",\"reason\":\""
				+ rejection.getReason().name() + "\",\"retryAfterSeconds\":" + retryAfterSeconds + "}";
	}

	private static String json(String text) {
		StringBuilder escaped = new StringBuilder(text.length());
		for (char c : text.toCharArray()) {
			if (c == '"' || c == '\\') {
				escaped.append('\\').append(c);
			}
			else if (c < 0x20) {
				escaped.append(String.format("\\u%04x", (int) c));
			}
			else {
				escaped.append(c);
			}
		}
		return escaped.toString();
	}

}
