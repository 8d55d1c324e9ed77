package io.github.poolpilot.actuate;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.OperationType;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvoker;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvokerAdvisor;
import org.springframework.boot.actuate.endpoint.invoke.OperationParameter;
import org.springframework.boot.actuate.endpoint.invoke.OperationParameters;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.web.WebServerNamespace;

/**
 * The one owner of what a {@code POST /actuator/threadpools/{name}} body may hold, on
 * every web stack: as an {@link OperationInvokerAdvisor}, it sees the body's fields
 * before Actuator binds them to the write operation's parameters, and refuses a field the
 * endpoint does not know, a known field set to {@code null}, or a size that is not a
 * whole number, with 400 and a problem naming the field ({@link ThreadPoolsProblem}).
 * Actuator itself binds only the fields an operation declares and ignores the rest, which
 * would let a typo such as {@code "maxPoolsize"} answer 200 and change nothing, and
 * answers a value it cannot convert with a bare 400. What a web stack refuses before
 * Actuator sees the body (a body that is not JSON, a value that is an array, a content
 * type other than JSON) is answered by each stack's adapter with the problems built here.
 *
 * @author poolpilot authors
 */
public final class ThreadPoolsWriteCheck implements OperationInvokerAdvisor {

	static final EndpointId ENDPOINT = EndpointId.of("threadpools");

	private static final Set<String> FIELDS = Set.of("corePoolSize", "maxPoolSize", "tuning");

	private static final Pattern WHOLE_NUMBER = Pattern.compile("-?\\d+");

	private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?");

	/**
	 * The field named in a JSON mapper's message about a value it could not read:
	 * {@code ... reference chain: java.util.LinkedHashMap["corePoolSize"]}.
	 */
	private static final Pattern REFERENCE = Pattern.compile("\\[\"([A-Za-z]+)\"\\]");

	/**
	 * The content types the write accepts, as Actuator maps it.
	 */
	static final String ACCEPTED = "application/json or application/vnd.spring-boot.actuator.v3+json";

	@Override
	public OperationInvoker apply(EndpointId endpointId, OperationType operationType, OperationParameters parameters,
			OperationInvoker invoker) {
		if (!ENDPOINT.equals(endpointId) || operationType != OperationType.WRITE) {
			return invoker;
		}
		Set<String> selectors = new HashSet<>();
		for (OperationParameter parameter : parameters) {
			if (parameter.getAnnotation(Selector.class) != null) {
				selectors.add(parameter.getName());
			}
		}
		return (context) -> {
			// Only a web request carries a body of its own; JMX hands the operation's
			// parameters, typed.
			if (context.canResolve(WebServerNamespace.class)) {
				Map<String, Object> fields = new LinkedHashMap<>(context.getArguments());
				selectors.forEach(fields::remove);
				Map<String, Object> problem = check(fields);
				if (problem != null) {
					return ThreadPoolsProblem.response(problem);
				}
			}
			return invoker.invoke(context);
		};
	}

	/**
	 * Check a body's fields.
	 * @param fields the fields, their values as the web stack read them
	 * @return the problem, or {@code null} when the fields may go to the endpoint
	 */
	static @Nullable Map<String, Object> check(Map<String, ?> fields) {
		for (Map.Entry<String, ?> field : fields.entrySet()) {
			String name = field.getKey();
			if (!FIELDS.contains(name)) {
				return ThreadPoolsProblem.badRequest(name,
						"unknown field '" + name + "' (allowed: corePoolSize, maxPoolSize, tuning)");
			}
			if (field.getValue() == null) {
				return ThreadPoolsProblem.badRequest(name,
						name + " must not be null (leave it out to keep the current value)");
			}
			if (!name.equals("tuning") && !isWholeNumber(field.getValue())) {
				return ThreadPoolsProblem.badRequest(name, name + " must be a whole number (a JSON integer) between "
						+ "the pool's minThreads and maxThreads, not " + shown(String.valueOf(field.getValue())));
			}
		}
		return null;
	}

	private static boolean isWholeNumber(Object value) {
		if (value instanceof Integer) {
			return true;
		}
		try {
			Integer.parseInt(String.valueOf(value));
			return true;
		}
		catch (NumberFormatException ex) {
			return false;
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

	/**
	 * Return the problem for a body the web stack could not read into fields.
	 * @param message the JSON reader's message, which names the field whose value it
	 * could not read, if any
	 * @return the problem
	 */
	public static Map<String, Object> unreadable(@Nullable String message) {
		Matcher reference = REFERENCE.matcher((message != null) ? message : "");
		if (reference.find() && FIELDS.contains(reference.group(1))) {
			String field = reference.group(1);
			return ThreadPoolsProblem.badRequest(field,
					field + (field.equals("tuning") ? " must be \"auto\" or \"manual\""
							: " must be a whole number (a JSON integer) between the pool's minThreads and maxThreads")
							+ ", not an array or an object");
		}
		return ThreadPoolsProblem.badRequest("body", "the body must be a JSON object with any of "
				+ "corePoolSize and maxPoolSize (whole numbers) and tuning (\"auto\" or \"manual\")");
	}

	/**
	 * Return the problem for a body sent as a content type the write does not read.
	 * @param contentType the request's content type, if it had one
	 * @return the problem, with status 415
	 */
	public static Map<String, Object> unsupportedContentType(@Nullable String contentType) {
		return ThreadPoolsProblem
			.unsupportedMediaType(((contentType != null) ? "a body of " + contentType : "a body without a Content-Type")
					+ " is not read: send the JSON object with Content-Type: " + ACCEPTED
					+ " (curl: -H 'Content-Type: application/json')");
	}

	/**
	 * Return whether a request is a write to the endpoint, wherever it is mapped.
	 * @param method the request's method
	 * @param path its path within the application
	 * @param endpoints where the web endpoints are mapped
	 * @return whether the request changes a pool
	 */
	public static boolean isWrite(String method, String path, @Nullable PathMappedEndpoints endpoints) {
		String endpoint = (endpoints != null) ? endpoints.getPath(ENDPOINT) : null;
		return endpoint != null && "POST".equals(method) && path.startsWith(endpoint + "/");
	}

}
