package io.github.poolpilot.resilience;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreaker.State;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.measure.NanoClock;
import io.github.poolpilot.pool.PoolRejectedException;
import io.github.poolpilot.measure.RejectionReason;
import io.github.poolpilot.guard.TaskGuard;

/**
 * Puts a pool's tasks through a Resilience4j {@link CircuitBreaker}: each task asks for a
 * permission before it is queued, and its outcome and service time are recorded when it
 * ends (a slow task counts as a slow call). While the circuit is open the pool refuses
 * tasks at once, with {@link RejectionReason#CIRCUIT_OPEN} and a retry-after of the time
 * the circuit stays open, rather than letting them queue for a failing downstream.
 *
 * @author poolpilot authors
 */
public final class CircuitBreakerGuard implements TaskGuard {

	private final ManagedPool pool;

	private final CircuitBreaker circuitBreaker;

	private final NanoClock clock;

	private volatile long openedAt;

	/**
	 * Guard a pool with a circuit breaker.
	 * @param pool the pool
	 * @param circuitBreaker the circuit breaker
	 */
	public CircuitBreakerGuard(ManagedPool pool, CircuitBreaker circuitBreaker) {
		this(pool, circuitBreaker, NanoClock.SYSTEM);
	}

	CircuitBreakerGuard(ManagedPool pool, CircuitBreaker circuitBreaker, NanoClock clock) {
		this.pool = pool;
		this.circuitBreaker = circuitBreaker;
		this.clock = clock;
		this.openedAt = clock.nanoTime();
		circuitBreaker.getEventPublisher().onStateTransition((event) -> {
			if (event.getStateTransition().getToState() == State.OPEN) {
				this.openedAt = this.clock.nanoTime();
			}
		});
	}

	/**
	 * Return the circuit breaker.
	 * @return the circuit breaker
	 */
	public CircuitBreaker getCircuitBreaker() {
		return this.circuitBreaker;
	}

	@Override
	public void beforeSubmit() {
		if (!this.circuitBreaker.tryAcquirePermission()) {
			throw new PoolRejectedException(this.pool.getName(), RejectionReason.CIRCUIT_OPEN, retryAfter());
		}
	}

	@Override
	public void afterRun(long serviceNanos, @Nullable Throwable failure) {
		if (failure == null) {
			this.circuitBreaker.onSuccess(serviceNanos, TimeUnit.NANOSECONDS);
		}
		else {
			this.circuitBreaker.onError(serviceNanos, TimeUnit.NANOSECONDS, failure);
		}
	}

	@Override
	public void notRun() {
		this.circuitBreaker.releasePermission();
	}

	/**
	 * Return how long the circuit stays open, at least a second: the wait in the open
	 * state less what has passed since it opened.
	 */
	Duration retryAfter() {
		if (this.circuitBreaker.getState() != State.OPEN) {
			return Duration.ofSeconds(1);
		}
		long waitMillis = this.circuitBreaker.getCircuitBreakerConfig().getWaitIntervalFunctionInOpenState().apply(1);
		long left = TimeUnit.MILLISECONDS.toNanos(waitMillis) - (this.clock.nanoTime() - this.openedAt);
		return PoolRejectedException.retryAfter(left / 1e9);
	}

}
