package io.github.poolpilot.webserver.jetty;

import org.eclipse.jetty.util.thread.ThreadPool.SizedThreadPool;

import io.github.poolpilot.webserver.PermitThreads;
import io.github.poolpilot.webserver.ServerThreads;

/**
 * Jetty's requests on its own platform threads: the requests served at once are the
 * {@code http} pool's permits, and Jetty's thread pool is sized around them through its
 * own setters, so that Spring Boot's {@code jetty.threads.*} meters read the live values.
 * Jetty runs its connectors (acceptors, selectors), its reserved threads and the threads
 * that read new requests while every permit is taken on the same pool: those are Jetty's
 * own threads, added to the pool's sizes and left out of its live threads, as Tomcat's
 * acceptor and poller threads are outside its executor.
 *
 * @author poolpilot authors
 */
final class JettyThreads implements ServerThreads {

	private final PermitThreads permits;

	private final SizedThreadPool threads;

	private final int ownThreads;

	/**
	 * Create the sizes.
	 * @param permits the requests served at once
	 * @param threads Jetty's thread pool
	 * @param ownThreads Jetty's own threads in it, beyond the permits
	 */
	JettyThreads(PermitThreads permits, SizedThreadPool threads, int ownThreads) {
		this.permits = permits;
		this.threads = threads;
		this.ownThreads = ownThreads;
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
		// Jetty's own threads are counted as configured, whether started yet or not.
		return Math.max(this.permits.getActiveCount(), this.threads.getThreads() - this.ownThreads);
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
		this.threads.setMinThreads(corePoolSize + this.ownThreads);
	}

	@Override
	public void setMaximumPoolSize(int maxPoolSize) {
		// Threads before permits when growing, permits before threads when shrinking.
		if (maxPoolSize > this.permits.getMaximumPoolSize()) {
			this.threads.setMaxThreads(maxPoolSize + this.ownThreads);
			this.permits.setMaximumPoolSize(maxPoolSize);
		}
		else {
			this.permits.setMaximumPoolSize(maxPoolSize);
			this.threads.setMaxThreads(maxPoolSize + this.ownThreads);
		}
	}

}
