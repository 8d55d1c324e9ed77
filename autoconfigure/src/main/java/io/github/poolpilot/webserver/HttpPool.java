package io.github.poolpilot.webserver;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.guard.TaskGuard;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.measure.RejectionReason;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRejectedException;

/**
 * The embedded web server's request threads as the managed pool named {@code http}: the
 * server hands each request (its connection's unit of work) to {@link #accept} on its way
 * to the server's executor, runs what it gets back, and asks {@link #refused} for the
 * refusal when the executor's queue is full. A refused request is answered by the
 * {@link RefusalLane}, never dropped.
 *
 * @author poolpilot authors
 */
public final class HttpPool {

	/**
	 * The pool's name.
	 */
	public static final String NAME = "http";

	private final ManagedPool pool;

	private final AttachableThreads threads;

	private final PoolRecorder recorder;

	private final int rejectionStatus;

	private volatile @Nullable TaskGuard guard;

	/**
	 * Create the pool.
	 * @param recorder the recorder that measures its requests
	 * @param bounds the range its sizes must stay in
	 * @param queueCapacity the requests that may wait for a thread
	 * @param rejectionStatus the HTTP status of a request refused because the pool is
	 * full (429 or 503)
	 */
	public HttpPool(PoolRecorder recorder, PoolBounds bounds, int queueCapacity, int rejectionStatus) {
		this.recorder = recorder;
		this.threads = new AttachableThreads(bounds.minThreads(), bounds.maxThreads(), queueCapacity);
		this.pool = new ManagedPool(NAME, this.threads, this.threads, recorder, bounds);
		this.rejectionStatus = rejectionStatus;
	}

	/**
	 * Return the managed pool.
	 * @return the pool
	 */
	public ManagedPool getPool() {
		return this.pool;
	}

	/**
	 * Return the capacity of the server's request queue.
	 * @return the queue's capacity
	 */
	public int getQueueCapacity() {
		return this.threads.getQueueCapacity();
	}

	/**
	 * Return the HTTP status of a request refused because the pool is full.
	 * @return 429 or 503
	 */
	public int getRejectionStatus() {
		return this.rejectionStatus;
	}

	/**
	 * Set what the pool checks around each request (its max-queue-wait).
	 * @param guard the guard, or {@code null} for none
	 */
	public void setGuard(@Nullable TaskGuard guard) {
		this.guard = guard;
	}

	/**
	 * Read the server's threads from now on, handing them the pool's sizes.
	 * @param server the server's threads
	 */
	public void attach(ServerThreads server) {
		this.threads.attach(server);
	}

	/**
	 * Count a request handed to the pool, let the guard admit it, and return it as it is
	 * to run: timed from now.
	 * @param request the server's unit of work
	 * @param beforeShutdown whether it was handed over before the server began to shut
	 * down, so that it is served even after
	 * @return the task to hand to the server's executor
	 * @throws PoolRejectedException when the guard refuses it (expected wait over
	 * max-queue-wait), counted as rejected
	 */
	public Runnable accept(Runnable request, boolean beforeShutdown) {
		PoolRecorder recorder = this.recorder;
		recorder.taskSubmitted();
		TaskGuard guard = this.guard;
		long submittedAt = (guard != null || recorder.timesThisTask()) ? recorder.now() : HttpTask.UNTIMED;
		HttpTask task = new HttpTask(request, submittedAt, recorder, guard, beforeShutdown);
		if (guard != null) {
			try {
				guard.beforeSubmit();
			}
			catch (PoolRejectedException ex) {
				recorder.taskRejected(ex.getReason());
				throw ex;
			}
		}
		return task;
	}

	/**
	 * Count a request the server's executor refused after {@link #accept} (its queue was
	 * full) and return the refusal to answer it with.
	 * @param task the task {@link #accept} returned
	 * @return the refusal, with its Retry-After
	 */
	public PoolRejectedException refused(Runnable task) {
		RejectionReason reason = this.pool.rejectionReason();
		this.recorder.taskRejected(reason);
		TaskGuard guard = this.guard;
		if (guard != null) {
			guard.notRun();
		}
		return new PoolRejectedException(NAME, reason, this.pool.retryAfter(this.pool.getExecutor().getQueueSize()));
	}

	/**
	 * Return whether the current thread serves a request handed to the pool before the
	 * server began to shut down.
	 * @return whether it does
	 */
	public static boolean servesRequestFromBeforeShutdown() {
		return HttpTask.servesRequestFromBeforeShutdown();
	}

}
