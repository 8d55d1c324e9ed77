package io.github.poolpilot.actuate;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.codec.HttpMessageWriter;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.reactive.result.view.ViewResolver;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebInputException;
import org.springframework.web.server.UnsupportedMediaTypeStatusException;
import org.springframework.web.server.WebExceptionHandler;

/**
 * On WebFlux, what it refuses of a {@code POST /actuator/threadpools/{name}} before
 * Actuator sees the body (a body that is not a JSON object, a value that is an array or
 * an object, a content type other than JSON) answered with the problems of
 * {@link ThreadPoolsWriteCheck}, as {@link ThreadPoolsMvcBodyErrors} does on Spring MVC.
 * Ordered before Spring Boot's error handler; any other request's error goes on to it.
 *
 * @author poolpilot authors
 */
public class ThreadPoolsWebFluxBodyErrors implements WebExceptionHandler, Ordered {

	private final Supplier<@Nullable PathMappedEndpoints> endpoints;

	private final ServerResponse.Context writers;

	/**
	 * Create the handler.
	 * @param endpoints where the web endpoints are mapped
	 * @param writers the application's message writers, for the problem's JSON
	 */
	public ThreadPoolsWebFluxBodyErrors(Supplier<@Nullable PathMappedEndpoints> endpoints,
			List<HttpMessageWriter<?>> writers) {
		this.endpoints = endpoints;
		this.writers = new ServerResponse.Context() {

			@Override
			public List<HttpMessageWriter<?>> messageWriters() {
				return writers;
			}

			@Override
			public List<ViewResolver> viewResolvers() {
				return List.of();
			}

		};
	}

	@Override
	public Mono<Void> handle(ServerWebExchange exchange, Throwable ex) {
		ServerHttpRequest request = exchange.getRequest();
		if (!ThreadPoolsWriteCheck.isWrite(request.getMethod().name(),
				request.getPath().pathWithinApplication().value(), this.endpoints.get())) {
			return Mono.error(ex);
		}
		Map<String, Object> problem;
		if (ex instanceof UnsupportedMediaTypeStatusException) {
			MediaType contentType = request.getHeaders().getContentType();
			problem = ThreadPoolsWriteCheck
				.unsupportedContentType((contentType != null) ? contentType.toString() : null);
		}
		else if (ex instanceof ServerWebInputException) {
			Throwable cause = NestedExceptionUtils.getMostSpecificCause(ex);
			problem = ThreadPoolsWriteCheck.unreadable(cause.getMessage());
		}
		else {
			return Mono.error(ex);
		}
		return ServerResponse.status(HttpStatus.valueOf((int) problem.get("status")))
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.bodyValue(problem)
			.flatMap((response) -> response.writeTo(exchange, this.writers));
	}

	/**
	 * Before Spring Boot's {@code ErrorWebExceptionHandler} (-1).
	 */
	@Override
	public int getOrder() {
		return -2;
	}

}
