package io.github.poolpilot.webserver;

import java.util.function.BooleanSupplier;

/**
 * The {@code http} pool's sizes as {@link RequestPermits}: the maximum size is the
 * requests served at once, the active threads are the permits in use, the queue is the
 * line of requests waiting for a permit. On virtual threads that is all there is: the
 * live threads are the permits in use too (a virtual thread is not kept idle), and the
 * core size is kept and checked (core &le; max) so that resizing reads as for any pool,
 * without effect. A server whose platform threads run the requests sizes them around
 * these (Jetty's).
 *
 * @author poolpilot authors
 */
public final class PermitThreads implements ServerThreads {

	private final RequestPermits permits;

	private final BooleanSupplier shutdown;

	private volatile int corePoolSize;

	/**
	 * Create the sizes.
	 * @param permits the permits
	 * @param shutdown whether the server's threads no longer take requests
	 */
	public PermitThreads(RequestPermits permits, BooleanSupplier shutdown) {
		this.permits = permits;
		this.shutdown = shutdown;
	}

	@Override
	public int getCorePoolSize() {
		return this.corePoolSize;
	}

	@Override
	public int getMaximumPoolSize() {
		return this.permits.getLimit();
	}

	@Override
	public int getPoolSize() {
		return this.permits.getInUse();
	}

	@Override
	public int getActiveCount() {
		return this.permits.getInUse();
	}

	@Override
	public int getQueueSize() {
		return this.permits.getWaiting();
	}

	@Override
	public boolean isShutdown() {
		return this.shutdown.getAsBoolean();
	}

	@Override
	public void setCorePoolSize(int corePoolSize) {
		this.corePoolSize = corePoolSize;
	}

	@Override
	public void setMaximumPoolSize(int maxPoolSize) {
		this.permits.setLimit(maxPoolSize);
	}

}
