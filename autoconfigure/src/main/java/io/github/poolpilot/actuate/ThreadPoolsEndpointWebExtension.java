package io.github.poolpilot.actuate;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.actuate.ThreadPoolsDescriptor.PoolDescriptor;
import io.github.poolpilot.pool.InvalidPoolSizeException;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

/**
 * {@link EndpointWebExtension @EndpointWebExtension} for the {@link ThreadPoolsEndpoint}
 * that answers a change over HTTP with 200 and the pool's new state, or refuses it with
 * an {@code application/problem+json} body ({@link ThreadPoolsProblem}): 404 naming an
 * unknown pool and the managed ones, 400 naming the offending field and what is allowed.
 *
 * @author poolpilot authors
 */
@EndpointWebExtension(endpoint = ThreadPoolsEndpoint.class)
public class ThreadPoolsEndpointWebExtension {

	private final ThreadPoolsEndpoint delegate;

	public ThreadPoolsEndpointWebExtension(ThreadPoolsEndpoint delegate) {
		this.delegate = delegate;
	}

	/**
	 * Show one pool, or answer 404 naming the managed pools.
	 * @param name the pool's name
	 * @return the pool, or the refusal
	 */
	@ReadOperation
	public WebEndpointResponse<Object> threadPool(@Selector String name) {
		PoolDescriptor pool = this.delegate.threadPool(name);
		return (pool != null) ? new WebEndpointResponse<>(pool, WebEndpointResponse.STATUS_OK)
				: ThreadPoolsProblem.response(ThreadPoolsProblem.unknownPool(name, this.delegate.poolNames()));
	}

	/**
	 * Change a pool, answering its new state, or a problem naming the offending field or
	 * the unknown pool.
	 * @param securityContext who asks
	 * @param name the pool's name
	 * @param corePoolSize the new core size, if it changes
	 * @param maxPoolSize the new maximum size, if it changes
	 * @param tuning {@code "auto"} or {@code "manual"}, if the mode changes
	 * @return the response
	 */
	@WriteOperation
	public WebEndpointResponse<Object> updateThreadPool(SecurityContext securityContext, @Selector String name,
			@Nullable Integer corePoolSize, @Nullable Integer maxPoolSize, @Nullable String tuning) {
		try {
			PoolDescriptor pool = this.delegate.updateThreadPool(securityContext, name, corePoolSize, maxPoolSize,
					tuning);
			return (pool != null) ? new WebEndpointResponse<>(pool, WebEndpointResponse.STATUS_OK)
					: ThreadPoolsProblem.response(ThreadPoolsProblem.unknownPool(name, this.delegate.poolNames()));
		}
		catch (InvalidPoolSizeException ex) {
			return ThreadPoolsProblem.response(ThreadPoolsProblem.badRequest(ex.getField(), ex.getMessage()));
		}
		catch (InvalidChangeException ex) {
			return ThreadPoolsProblem.response(ThreadPoolsProblem.badRequest(ex.getField(), ex.getMessage()));
		}
	}

}
