package io.github.poolpilot.grpc;

import java.util.Set;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.pool.PoolRejectedException;

/**
 * A call's events that the {@code grpc} pool refused, run on the {@link GrpcRefusalLane}:
 * while they run, {@link #current()} tells the {@link GrpcRefusalInterceptor} to answer a
 * new call with the refusal rather than start it.
 *
 * @author poolpilot authors
 */
public final class GrpcRefusal {

	private static final ThreadLocal<GrpcRefusal> current = new ThreadLocal<>();

	private final PoolRejectedException rejection;

	private final Runnable events;

	private final Set<Runnable> refusedCalls;

	GrpcRefusal(PoolRejectedException rejection, Runnable events, Set<Runnable> refusedCalls) {
		this.rejection = rejection;
		this.events = events;
		this.refusedCalls = refusedCalls;
	}

	/**
	 * Return the refusal whose events the current thread runs.
	 * @return the refusal, or {@code null} outside the refusal lane
	 */
	public static @Nullable GrpcRefusal current() {
		return current.get();
	}

	/**
	 * Return why the pool refused and when to retry.
	 * @return the pool's rejection
	 */
	public PoolRejectedException getRejection() {
		return this.rejection;
	}

	/**
	 * Mark the call refused, so that its later events go straight to the lane, until it
	 * is closed.
	 * @return what to run once the call is closed
	 */
	public Runnable refuse() {
		this.refusedCalls.add(this.events);
		return () -> this.refusedCalls.remove(this.events);
	}

	void run() {
		current.set(this);
		try {
			this.events.run();
		}
		finally {
			current.remove();
		}
	}

}
