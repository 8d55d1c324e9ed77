package io.github.poolpilot.webserver;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.pool.PoolRejectedException;

/**
 * The refusal of the request the current thread serves, if the {@code http} pool refused
 * it: the server still reads the request, on the {@link RefusalLane} or on the thread
 * that took it from the queue too late, and the {@link HttpRefusalFilter} answers it.
 *
 * @author poolpilot authors
 */
public final class HttpRefusal {

	private static final ThreadLocal<PoolRejectedException> current = new ThreadLocal<>();

	private HttpRefusal() {
	}

	/**
	 * Run a refused request: every request it reads is answered with the refusal.
	 * @param request the server's unit of work
	 * @param rejection the refusal
	 */
	public static void runRefused(Runnable request, PoolRejectedException rejection) {
		PoolRejectedException previous = current.get();
		current.set(rejection);
		try {
			request.run();
		}
		finally {
			if (previous != null) {
				current.set(previous);
			}
			else {
				current.remove();
			}
		}
	}

	/**
	 * Return the refusal of the request the current thread serves.
	 * @return the refusal, or {@code null} when the request was admitted
	 */
	public static @Nullable PoolRejectedException current() {
		return current.get();
	}

}
