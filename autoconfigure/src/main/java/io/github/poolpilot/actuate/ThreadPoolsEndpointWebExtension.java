package io.github.poolpilot.actuate;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.actuate.ThreadPoolsDescriptor.PoolDescriptor;
import io.github.poolpilot.pool.InvalidPoolSizeException;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

/**
 * {@link EndpointWebExtension @EndpointWebExtension} for the {@link ThreadPoolsEndpoint}
 * that answers a change over HTTP with 200 and the pool's new state, 404 for an unknown
 * pool, or 400 with a body naming the offending field and the allowed values.
 *
 * @author poolpilot authors
 */
@EndpointWebExtension(endpoint = ThreadPoolsEndpoint.class)
public class ThreadPoolsEndpointWebExtension {

	private final ThreadPoolsEndpoint delegate;

	public ThreadPoolsEndpointWebExtension(ThreadPoolsEndpoint delegate) {
		this.delegate = delegate;
	}

	@WriteOperation
	public WebEndpointResponse<Object> updateThreadPool(SecurityContext securityContext, @Selector String name,
			@Nullable Integer corePoolSize, @Nullable Integer maxPoolSize, @Nullable String tuning) {
		try {
			PoolDescriptor pool = this.delegate.updateThreadPool(securityContext, name, corePoolSize, maxPoolSize,
					tuning);
			return (pool != null) ? new WebEndpointResponse<>(pool, WebEndpointResponse.STATUS_OK)
					: new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);
		}
		catch (InvalidPoolSizeException ex) {
			return new WebEndpointResponse<>(badRequest(ex.getField(), ex.getMessage()),
					WebEndpointResponse.STATUS_BAD_REQUEST);
		}
		catch (InvalidChangeException ex) {
			return new WebEndpointResponse<>(badRequest(ex.getField(), ex.getMessage()),
					WebEndpointResponse.STATUS_BAD_REQUEST);
		}
	}

	/**
	 * Return the body of a refused change: the offending field and what is allowed.
	 * @param field the field
	 * @param message what is wrong and what is allowed
	 * @return the body
	 */
	static Map<String, Object> badRequest(String field, @Nullable String message) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("status", WebEndpointResponse.STATUS_BAD_REQUEST);
		body.put("error", "Bad Request");
		body.put("field", field);
		body.put("message", message);
		return body;
	}

}
