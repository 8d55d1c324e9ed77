package io.github.poolpilot.webserver;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.pool.ManagedPool.SizeControl;
import io.github.poolpilot.pool.PoolExecutor;

/**
 * The {@code http} pool's executor as its {@link io.github.poolpilot.pool.ManagedPool}
 * reads it: the server's threads once the server is built, and until then the sizes the
 * pool was given, which the server is made with.
 *
 * @author poolpilot authors
 */
final class AttachableThreads implements PoolExecutor, SizeControl {

	private final int queueCapacity;

	private volatile int corePoolSize;

	private volatile int maxPoolSize;

	private volatile @Nullable ServerThreads server;

	AttachableThreads(int corePoolSize, int maxPoolSize, int queueCapacity) {
		this.corePoolSize = corePoolSize;
		this.maxPoolSize = maxPoolSize;
		this.queueCapacity = queueCapacity;
	}

	/**
	 * Hand the pool's sizes to the server's threads and read them from there on.
	 * @param server the server's threads
	 */
	synchronized void attach(ServerThreads server) {
		server.setMaximumPoolSize(this.maxPoolSize);
		server.setCorePoolSize(this.corePoolSize);
		this.server = server;
	}

	@Override
	public synchronized void setCorePoolSize(int corePoolSize) {
		this.corePoolSize = corePoolSize;
		ServerThreads server = this.server;
		if (server != null) {
			server.setCorePoolSize(corePoolSize);
		}
	}

	@Override
	public synchronized void setMaximumPoolSize(int maxPoolSize) {
		this.maxPoolSize = maxPoolSize;
		ServerThreads server = this.server;
		if (server != null) {
			server.setMaximumPoolSize(maxPoolSize);
		}
	}

	@Override
	public int getCorePoolSize() {
		ServerThreads server = this.server;
		return (server != null) ? server.getCorePoolSize() : this.corePoolSize;
	}

	@Override
	public int getMaximumPoolSize() {
		ServerThreads server = this.server;
		return (server != null) ? server.getMaximumPoolSize() : this.maxPoolSize;
	}

	@Override
	public int getPoolSize() {
		ServerThreads server = this.server;
		return (server != null) ? server.getPoolSize() : 0;
	}

	@Override
	public int getActiveCount() {
		ServerThreads server = this.server;
		return (server != null) ? server.getActiveCount() : 0;
	}

	@Override
	public int getQueueSize() {
		ServerThreads server = this.server;
		return (server != null) ? server.getQueueSize() : 0;
	}

	@Override
	public int getQueueCapacity() {
		return this.queueCapacity;
	}

	@Override
	public boolean isShutdown() {
		ServerThreads server = this.server;
		return server != null && server.isShutdown();
	}

}
