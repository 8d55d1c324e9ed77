package io.github.poolpilot.autoconfigure;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The keys every kind of managed pool has: its bounds, its queue's capacity, its weight,
 * its threads' keep-alive and how long shutdown waits. A declared pool, the web server's
 * and the gRPC server's add their own.
 *
 * @author poolpilot authors
 */
public class PoolSizing {

	/**
	 * Smallest size the tuner or a manual change may give the pool. Unless set, its
	 * default, or max-threads where that is lower.
	 */
	private @Nullable Integer minThreads;

	/**
	 * What min-threads is unless set (or max-threads, where that is lower): a pool given
	 * only a small max-threads starts rather than fail on a default it did not choose.
	 */
	private final int defaultMinThreads;

	/**
	 * Largest size the tuner or a manual change may give the pool.
	 */
	private int maxThreads = 8;

	/**
	 * Capacity of the pool's queue, fixed at start.
	 */
	private int queueCapacity = 100;

	/**
	 * Share of the budget when pools compete, relative to the other pools' weights.
	 */
	private int weight = 1;

	/**
	 * How long an idle thread above the core size lives, in whole seconds (rounded up).
	 */
	private Duration keepAlive = Duration.ofSeconds(60);

	/**
	 * How long shutdown waits for queued and running tasks before cancelling them.
	 */
	private Duration awaitTermination = Duration.ofSeconds(30);

	protected PoolSizing(int defaultMinThreads) {
		this.defaultMinThreads = defaultMinThreads;
	}

	public int getMinThreads() {
		return (this.minThreads != null) ? this.minThreads : Math.min(this.defaultMinThreads, this.maxThreads);
	}

	public void setMinThreads(int minThreads) {
		this.minThreads = minThreads;
	}

	public int getMaxThreads() {
		return this.maxThreads;
	}

	public void setMaxThreads(int maxThreads) {
		this.maxThreads = maxThreads;
	}

	public int getQueueCapacity() {
		return this.queueCapacity;
	}

	public void setQueueCapacity(int queueCapacity) {
		this.queueCapacity = queueCapacity;
	}

	public int getWeight() {
		return this.weight;
	}

	public void setWeight(int weight) {
		this.weight = weight;
	}

	public Duration getKeepAlive() {
		return this.keepAlive;
	}

	public void setKeepAlive(Duration keepAlive) {
		this.keepAlive = keepAlive;
	}

	public Duration getAwaitTermination() {
		return this.awaitTermination;
	}

	public void setAwaitTermination(Duration awaitTermination) {
		this.awaitTermination = awaitTermination;
	}

}
