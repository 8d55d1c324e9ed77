package io.github.poolpilot.webserver.tomcat;

import java.util.concurrent.RejectedExecutionException;

import org.apache.tomcat.util.threads.VirtualThreadExecutor;

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

	private final TomcatHandOver handOver;

	PermittedVirtualExecutor(VirtualThreadExecutor threads, RequestPermits permits, TomcatHandOver handOver) {
		this.threads = threads;
		this.permits = permits;
		this.handOver = handOver;
	}

	@Override
	public void execute(Runnable command) {
		Runnable task = this.handOver.accept(command);
		if (task == null) {
			return;
		}
		switch (this.permits.admit(() -> startWaiting(task))) {
			case SERVE -> {
				if (!start(task)) {
					this.handOver.http().refused(task);
					throw new RejectedExecutionException("Tomcat's virtual threads are shut down");
				}
			}
			case WAIT -> {
				// Started by the release of a permit.
			}
			case REFUSE -> this.handOver.refuse(command, task);
		}
	}

	/**
	 * Start a request that waited for its permit; when the virtual threads are shut down
	 * it is counted as refused, and Tomcat closes its connection as it stops.
	 */
	private void startWaiting(Runnable task) {
		if (!start(task)) {
			this.handOver.http().refused(task);
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
