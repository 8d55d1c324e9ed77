package io.github.poolpilot.webserver.jetty;

import org.eclipse.jetty.util.thread.ThreadPool.SizedThreadPool;

import io.github.poolpilot.webserver.PermitThreads;
import io.github.poolpilot.webserver.ServerThreads;

/**
 * Jetty's requests on its own platform threads: the requests served at once are the
 * {@code http} pool's permits, and Jetty's thread pool is sized around them through its
 * own setters, so that Spring Boot's {@code jetty.threads.*} meters read the live values.
 * Jetty runs its connectors (acceptors, selectors) and its reserved threads, which read
 * new requests while every permit is taken, on the same pool: those threads are added to
 * the pool's sizes and left out of its live threads, as Tomcat's acceptor and poller
 * threads are outside its executor.
 *
 * @author poolpilot authors
 */
final class JettyThreads implements ServerThreads {

	private final PermitThreads permits;

	private final SizedThreadPool threads;

	private final int connectorThreads;

	/**
	 * Create the sizes.
	 * @param permits the requests served at once
	 * @param threads Jetty's thread pool
	 * @param connectorThreads the threads Jetty's connectors and reserved threads lease
	 * from it
	 */
	JettyThreads(PermitThreads permits, SizedThreadPool threads, int connectorThreads) {
		this.permits = permits;
		this.threads = threads;
		this.connectorThreads = connectorThreads;
	}

	@Override
	public int getCorePoolSize() {
		return this.permits.getCorePoolSize();
	}

	@Override
	public int getMaximumPoolSize() {
		return this.permits.getMaximumPoolSize();
	}

	@Override
	public int getPoolSize() {
		return Math.max(0, this.threads.getThreads() - this.connectorThreads);
	}

	@Override
	public int getActiveCount() {
		return this.permits.getActiveCount();
	}

	@Override
	public int getQueueSize() {
		return this.permits.getQueueSize();
	}

	@Override
	public boolean isShutdown() {
		return this.permits.isShutdown();
	}

	@Override
	public void setCorePoolSize(int corePoolSize) {
		this.permits.setCorePoolSize(corePoolSize);
		this.threads.setMinThreads(corePoolSize + this.connectorThreads);
	}

	@Override
	public void setMaximumPoolSize(int maxPoolSize) {
		// Threads before permits when growing, permits before threads when shrinking.
		if (maxPoolSize > this.permits.getMaximumPoolSize()) {
			this.threads.setMaxThreads(maxPoolSize + this.connectorThreads);
			this.permits.setMaximumPoolSize(maxPoolSize);
		}
		else {
			this.permits.setMaximumPoolSize(maxPoolSize);
			this.threads.setMaxThreads(maxPoolSize + this.connectorThreads);
		}
	}

}
