package io.github.poolpilot.webserver.tomcat;

import java.util.concurrent.RejectedExecutionException;
import java.util.function.BooleanSupplier;

import org.apache.tomcat.util.threads.VirtualThreadExecutor;

import io.github.poolpilot.pool.PoolRejectedException;
import io.github.poolpilot.webserver.HttpPool;
import io.github.poolpilot.webserver.RefusalLane;
import io.github.poolpilot.webserver.RequestPermits;

/**
 * Tomcat's virtual-thread executor (what {@code spring.threads.virtual.enabled=true}
 * gives the connector) with the {@code http} pool in front: each request is timed from
 * the hand-over, started on a virtual thread of its own while a permit is free, waits in
 * the pool's line while none is, and is answered by the refusal lane when the line is
 * full. The pool is then a concurrency limit, as a virtual managed pool is.
 *
 * @author poolpilot authors
 */
final class PermittedVirtualExecutor implements HttpExecutor {

	private final VirtualThreadExecutor threads;

	private final RequestPermits permits;

	private final HttpPool http;

	private final RefusalLane lane;

	private final BooleanSupplier open;

	PermittedVirtualExecutor(VirtualThreadExecutor threads, RequestPermits permits, HttpPool http, RefusalLane lane,
			BooleanSupplier open) {
		this.threads = threads;
		this.permits = permits;
		this.http = http;
		this.lane = lane;
		this.open = open;
	}

	@Override
	public void execute(Runnable command) {
		Runnable task;
		try {
			task = this.http.accept(command, this.open.getAsBoolean());
		}
		catch (PoolRejectedException ex) {
			this.lane.refuse(command, ex);
			return;
		}
		switch (this.permits.admit(() -> start(task))) {
			case SERVE -> {
				if (!start(task)) {
					throw new RejectedExecutionException("Tomcat's virtual threads are shut down");
				}
			}
			case WAIT -> {
				// Started by the release of a permit.
			}
			case REFUSE -> this.lane.refuse(command, this.http.refused(task));
		}
	}

	/**
	 * Start a request that holds a permit on a virtual thread, which releases the permit
	 * when the request ends.
	 */
	private boolean start(Runnable task) {
		try {
			this.threads.execute(() -> {
				try {
					task.run();
				}
				finally {
					this.permits.release();
				}
			});
			return true;
		}
		catch (RejectedExecutionException ex) {
			this.permits.release();
			return false;
		}
	}

	@Override
	public int queued() {
		return this.permits.getWaiting();
	}

	@Override
	public int running() {
		return this.permits.getInUse();
	}

}
