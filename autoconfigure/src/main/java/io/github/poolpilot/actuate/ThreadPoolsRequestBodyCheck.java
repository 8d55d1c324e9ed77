package io.github.poolpilot.actuate;

import java.lang.reflect.Type;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.servlet.mvc.method.annotation.RequestBodyAdviceAdapter;

/**
 * Refuses a {@code POST /actuator/threadpools/{name}} body with a field the endpoint does
 * not know, or a known field set to {@code null}, with 400 naming it. Actuator itself
 * binds only the fields an operation declares and ignores the rest, which would let a
 * typo such as {@code "maxPoolsize"} answer 200 and change nothing.
 *
 * @author poolpilot authors
 */
@ControllerAdvice
public class ThreadPoolsRequestBodyCheck extends RequestBodyAdviceAdapter {

	private static final Set<String> FIELDS = Set.of("corePoolSize", "maxPoolSize", "tuning");

	private static final EndpointId ENDPOINT = EndpointId.of("threadpools");

	private final Supplier<@Nullable PathMappedEndpoints> endpoints;

	/**
	 * Create the check.
	 * @param endpoints where the web endpoints are mapped, to find the endpoint's path
	 * whatever {@code management.endpoints.web.base-path} and path mappings say
	 */
	public ThreadPoolsRequestBodyCheck(Supplier<@Nullable PathMappedEndpoints> endpoints) {
		this.endpoints = endpoints;
	}

	@Override
	public boolean supports(MethodParameter methodParameter, Type targetType,
			Class<? extends HttpMessageConverter<?>> converterType) {
		return Map.class.isAssignableFrom(methodParameter.getParameterType());
	}

	@Override
	public Object afterBodyRead(Object body, HttpInputMessage inputMessage, MethodParameter parameter, Type targetType,
			Class<? extends HttpMessageConverter<?>> converterType) {
		if (body instanceof Map<?, ?> fields && isThreadPoolsWrite()) {
			for (Map.Entry<?, ?> field : fields.entrySet()) {
				if (!FIELDS.contains(field.getKey())) {
					throw new InvalidFieldException(String.valueOf(field.getKey()),
							"unknown field '" + field.getKey() + "' (allowed: corePoolSize, maxPoolSize, tuning)");
				}
				if (field.getValue() == null) {
					throw new InvalidFieldException(String.valueOf(field.getKey()),
							field.getKey() + " must not be null (leave it out to keep the current value)");
				}
			}
		}
		return body;
	}

	@ExceptionHandler(InvalidFieldException.class)
	ResponseEntity<Map<String, Object>> invalidField(InvalidFieldException ex) {
		return ResponseEntity.badRequest().body(ThreadPoolsEndpointWebExtension.badRequest(ex.field, ex.getMessage()));
	}

	private boolean isThreadPoolsWrite() {
		PathMappedEndpoints endpoints = this.endpoints.get();
		String path = (endpoints != null) ? endpoints.getPath(ENDPOINT) : null;
		if (path == null
				|| !(RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes)) {
			return false;
		}
		HttpServletRequest request = attributes.getRequest();
		String uri = request.getRequestURI().substring(request.getContextPath().length());
		return "POST".equals(request.getMethod()) && uri.startsWith(path + "/");
	}

	static final class InvalidFieldException extends RuntimeException {

		private final String field;

		InvalidFieldException(String field, @Nullable String message) {
			super(message);
			this.field = field;
		}

	}

}
