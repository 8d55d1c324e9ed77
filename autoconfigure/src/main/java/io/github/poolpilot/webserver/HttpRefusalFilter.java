package io.github.poolpilot.webserver;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.pool.PoolRejectedException;
import io.github.poolpilot.web.RejectionProblem;

import org.springframework.boot.json.JsonWriter;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
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

	/**
	 * Writes a problem detail as Spring MVC does, its properties at the top level, with
	 * Spring Boot's own writer: the application may have no JSON library.
	 */
	private static final JsonWriter<Map<String, Object>> JSON = JsonWriter.standard();

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
		HttpStatus status = RejectionProblem.status(rejection, this.rejectionStatus);
		ProblemDetail problem = RejectionProblem.of(rejection, status);
		problem.setInstance(instance(request));
		byte[] body = JSON.writeToString(members(problem)).getBytes(StandardCharsets.UTF_8);
		response.setStatus(status.value());
		response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(RejectionProblem.retryAfterSeconds(rejection)));
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
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
	 * The problem's members in the order Spring MVC writes them, those without a value
	 * left out.
	 */
	private static Map<String, Object> members(ProblemDetail problem) {
		Map<String, Object> members = new LinkedHashMap<>();
		putIfPresent(members, "type", problem.getType());
		putIfPresent(members, "title", problem.getTitle());
		members.put("status", problem.getStatus());
		putIfPresent(members, "detail", problem.getDetail());
		putIfPresent(members, "instance", problem.getInstance());
		Map<String, @Nullable Object> properties = problem.getProperties();
		if (properties != null) {
			properties.forEach((name, value) -> putIfPresent(members, name, value));
		}
		return members;
	}

	private static void putIfPresent(Map<String, Object> members, String name, @Nullable Object value) {
		if (value != null) {
			members.put(name, (value instanceof URI uri) ? uri.toString() : value);
		}
	}

	/**
	 * The refused request's path as the problem's instance, as Spring MVC sets it.
	 */
	private static @Nullable URI instance(HttpServletRequest request) {
		try {
			return URI.create(request.getRequestURI());
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

}
