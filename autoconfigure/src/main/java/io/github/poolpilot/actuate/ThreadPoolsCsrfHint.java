package io.github.poolpilot.actuate;

import java.io.IOException;
import java.util.Map;
import java.util.function.Supplier;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.json.JsonWriter;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Names the missing CSRF token when Spring Security refuses a {@code POST
 * /actuator/threadpools/{name}} for it. With Spring Security's defaults, such a write
 * with valid credentials is refused before the credentials are read, and the error page
 * that follows, reached without them, answers 401 with {@code WWW-Authenticate: Basic},
 * which reads as a wrong password. Placed just before Spring Security's filters, this
 * answers that refusal itself: still 403, nothing let through, with a problem saying what
 * is missing and what to do. Any other refusal, and every other request, is left as it
 * was.
 *
 * @author poolpilot authors
 */
public class ThreadPoolsCsrfHint extends OncePerRequestFilter {

	private final Supplier<@Nullable PathMappedEndpoints> endpoints;

	/**
	 * Create the filter.
	 * @param endpoints where the web endpoints are mapped
	 */
	public ThreadPoolsCsrfHint(Supplier<@Nullable PathMappedEndpoints> endpoints) {
		this.endpoints = endpoints;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String path = request.getRequestURI().substring(request.getContextPath().length());
		if (!ThreadPoolsWriteCheck.isWrite(request.getMethod(), path, this.endpoints.get())) {
			chain.doFilter(request, response);
			return;
		}
		chain.doFilter(request, new HttpServletResponseWrapper(response) {

			@Override
			public void sendError(int status) throws IOException {
				sendError(status, null);
			}

			@Override
			public void sendError(int status, @Nullable String message) throws IOException {
				if (status == HttpServletResponse.SC_FORBIDDEN && isCsrfRefusal(request)) {
					writeProblem(response);
				}
				else if (message != null) {
					super.sendError(status, message);
				}
				else {
					super.sendError(status);
				}
			}

		});
	}

	/**
	 * Whether Spring Security's CSRF filter refused the request: it gave the request a
	 * token to check, and the refusal came before anyone was authenticated (a refusal for
	 * a missing role comes after).
	 */
	private static boolean isCsrfRefusal(HttpServletRequest request) {
		Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
		return request.getAttribute(CsrfToken.class.getName()) != null
				&& (authentication == null || !authentication.isAuthenticated());
	}

	private static void writeProblem(HttpServletResponse response) throws IOException {
		Map<String, Object> problem = ThreadPoolsProblem.forbidden("csrf",
				"Spring Security refused this POST for a missing or invalid CSRF token, before reading its "
						+ "credentials. For the actuator, let the SecurityFilterChain that covers it ignore CSRF "
						+ "for the endpoints (csrf.ignoringRequestMatchers(EndpointRequest.toAnyEndpoint())), or send "
						+ "the token; see 'Protecting changes with Spring Security' in poolpilot's docs/actuator.md");
		response.setStatus(HttpServletResponse.SC_FORBIDDEN);
		response.setContentType("application/problem+json");
		response.setCharacterEncoding("UTF-8");
		response.getWriter().write(JsonWriter.<Map<String, Object>>standard().writeToString(problem));
		response.flushBuffer();
	}

}
