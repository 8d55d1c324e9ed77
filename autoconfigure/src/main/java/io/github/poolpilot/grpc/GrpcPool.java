package io.github.poolpilot.grpc;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.github.poolpilot.execution.ManagedExecutor;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRejectedException;
import io.github.poolpilot.task.PoolLifecycle;

/**
 * The gRPC server's executor as the managed pool named {@code grpc}. gRPC hands each
 * call's events (its start, its messages, its end) to the executor in one serializing
 * runnable per call; the pool measures each hand-over from the moment it is made and
 * holds at most its queue's capacity waiting. A hand-over the pool cannot take goes to
 * the {@link GrpcRefusalLane}, which answers a new call at once with the pool's status
 * ({@link GrpcRefusalInterceptor}) and serves what must not be refused; it is never
 * dropped. The later events of a refused call go straight to the lane, so that a refusal
 * is counted once.
 *
 * @author poolpilot authors
 */
public final class GrpcPool implements Executor {

	/**
	 * The pool's name.
	 */
	public static final String NAME = "grpc";

	private final ManagedExecutor executor;

	private final GrpcRefusalLane lane;

	private final Duration awaitTermination;

	/**
	 * The serializing runnables of the calls refused and not yet closed, by identity.
	 */
	private final Set<Runnable> refusedCalls = ConcurrentHashMap.newKeySet();

	/**
	 * Create the pool at its min-threads.
	 * @param recorder the recorder that measures its call events
	 * @param bounds the range its sizes must stay in
	 * @param queueCapacity the call events that may wait for a thread
	 * @param keepAlive how long a thread above the core size may stay idle
	 * @param awaitTermination how long {@link #close} waits for the pool's work
	 */
	public GrpcPool(PoolRecorder recorder, PoolBounds bounds, int queueCapacity, Duration keepAlive,
			Duration awaitTermination) {
		this.executor = ManagedExecutor.builder(NAME, bounds, queueCapacity)
			.sizes(bounds.minThreads(), bounds.minThreads())
			.keepAlive(keepAlive)
			.recorder(recorder)
			.build();
		this.lane = new GrpcRefusalLane(NAME + "-refusal-");
		this.awaitTermination = awaitTermination;
	}

	/**
	 * Return the managed pool.
	 * @return the pool
	 */
	public ManagedPool getPool() {
		return this.executor.getPool();
	}

	/**
	 * Return the pool's executor, to bind Spring Boot's {@code executor.*} meters to.
	 * @return the executor
	 */
	public ThreadPoolExecutor asThreadPoolExecutor() {
		return this.executor;
	}

	/**
	 * Run a call's events on the pool, or on the refusal lane when the pool cannot take
	 * them or the call was refused.
	 * @param events gRPC's serializing runnable of one call
	 */
	@Override
	public void execute(Runnable events) {
		if (this.refusedCalls.contains(events)) {
			this.lane.run(events);
			return;
		}
		try {
			this.executor.execute(events);
		}
		catch (PoolRejectedException ex) {
			this.lane.refuse(new GrpcRefusal(ex, events, this.refusedCalls));
		}
	}

	/**
	 * Stop the pool once the server stopped: the events under way and queued run, up to
	 * the await-termination period; what is left then is interrupted, and its queued
	 * events are counted abandoned.
	 * @throws InterruptedException if interrupted while waiting
	 */
	public void close() throws InterruptedException {
		this.executor.shutdown();
		this.lane.close();
		if (!this.executor.awaitTermination(this.awaitTermination.toMillis(), TimeUnit.MILLISECONDS)) {
			PoolLifecycle.stopNow(this.executor, "did not finish within " + this.awaitTermination);
		}
	}

}
