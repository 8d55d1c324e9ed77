package io.github.poolpilot.actuate;

import java.lang.reflect.Type;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.servlet.mvc.method.annotation.RequestBodyAdviceAdapter;

/**
 * Refuses a {@code POST /actuator/threadpools/{name}} body with a field the endpoint does
 * not know, a known field set to {@code null}, a size that is not a whole number in
 * range, or a body that is not a JSON object, with 400 and a problem naming the field
 * ({@link ThreadPoolsProblem}). Actuator itself binds only the fields an operation
 * declares and ignores the rest, which would let a typo such as {@code "maxPoolsize"}
 * answer 200 and change nothing.
 *
 * @author poolpilot authors
 */
@ControllerAdvice
public class ThreadPoolsRequestBodyCheck extends RequestBodyAdviceAdapter {

	private static final Set<String> FIELDS = Set.of("corePoolSize", "maxPoolSize", "tuning");

	private static final Pattern WHOLE_NUMBER = Pattern.compile("-?\\d+");

	private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?");

	/**
	 * The field named in a JSON mapper's message about a value it could not read:
	 * {@code ... reference chain: java.util.LinkedHashMap["corePoolSize"]}.
	 */
	private static final Pattern REFERENCE = Pattern.compile("\\[\"([A-Za-z]+)\"\\]");

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
				checkType(String.valueOf(field.getKey()), field.getValue());
			}
		}
		return body;
	}

	/**
	 * Refuse a size that is not a whole number in range here, naming its field: Actuator
	 * reads every value of the body as text and would otherwise answer a bare 400 that
	 * names nothing. {@code tuning} is checked by the endpoint.
	 */
	private static void checkType(String field, Object value) {
		if (field.equals("tuning") || !(value instanceof String text)) {
			return;
		}
		try {
			Integer.parseInt(text);
		}
		catch (NumberFormatException ex) {
			throw new InvalidFieldException(field, field + " must be a whole number (a JSON integer) between the "
					+ "pool's minThreads and maxThreads, not " + shown(text));
		}
	}

	private static String shown(String text) {
		if (WHOLE_NUMBER.matcher(text).matches()) {
			return "the number " + text + ", which is out of range";
		}
		if (NUMBER.matcher(text).matches()) {
			return "the fraction " + text;
		}
		return "the string \"" + ((text.length() > 40) ? text.substring(0, 40) + "…" : text) + "\"";
	}

	@ExceptionHandler(InvalidFieldException.class)
	ResponseEntity<Map<String, Object>> invalidField(InvalidFieldException ex) {
		return problem(ThreadPoolsProblem.badRequest(ex.field, ex.getMessage()));
	}

	/**
	 * Answer a body that is not a JSON object with a problem, for this endpoint's writes
	 * only: for any other request the exception is thrown again, which hands it back to
	 * Spring MVC's own handling.
	 * @param ex what could not be read
	 * @return the problem
	 * @throws HttpMessageNotReadableException for any other request
	 */
	@ExceptionHandler(HttpMessageNotReadableException.class)
	ResponseEntity<Map<String, Object>> unreadableBody(HttpMessageNotReadableException ex) {
		if (!isThreadPoolsWrite()) {
			throw ex;
		}
		String message = ex.getMostSpecificCause().getMessage();
		Matcher reference = REFERENCE.matcher((message != null) ? message : "");
		if (reference.find() && FIELDS.contains(reference.group(1))) {
			String field = reference.group(1);
			return problem(ThreadPoolsProblem.badRequest(field, field
					+ (field.equals("tuning") ? " must be \"auto\" or \"manual\""
							: " must be a whole number "
									+ "(a JSON integer) between the pool's minThreads and maxThreads")
					+ ", not an array or an object"));
		}
		return problem(ThreadPoolsProblem.badRequest("body", "the body must be a JSON object with any of "
				+ "corePoolSize and maxPoolSize (whole numbers) and tuning (\"auto\" or \"manual\")"));
	}

	private static ResponseEntity<Map<String, Object>> problem(Map<String, Object> body) {
		return ResponseEntity.status((int) body.get("status"))
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.body(body);
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
