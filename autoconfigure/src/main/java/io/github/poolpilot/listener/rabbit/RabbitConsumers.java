package io.github.poolpilot.listener.rabbit;

import java.util.concurrent.atomic.AtomicInteger;

import io.github.poolpilot.pool.ManagedPool.SizeControl;
import io.github.poolpilot.pool.PoolExecutor;

import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;

/**
 * A {@link SimpleMessageListenerContainer}'s consumers as their pool reads and sizes
 * them: the core size is the container's concurrent consumers, the maximum size its
 * max-concurrent consumers, each live consumer a thread, each message being handled an
 * active thread, and the broker's ready messages on its queues the pool's queue. Only the
 * pool's checked door ({@link io.github.poolpilot.pool.ManagedPool#resize}) calls the
 * setters, which are the container's own runtime setters: a consumer removed finishes the
 * messages it was delivered before it stops, so a resize neither loses a message nor has
 * one delivered twice.
 *
 * @author poolpilot authors
 */
final class RabbitConsumers implements PoolExecutor, SizeControl {

	private final SimpleMessageListenerContainer container;

	private final AtomicInteger handling = new AtomicInteger();

	/**
	 * The sizes last set, which the container has no getters for.
	 */
	private volatile int concurrentConsumers;

	private volatile int maxConcurrentConsumers;

	private volatile int queueDepth;

	private volatile boolean stopped;

	RabbitConsumers(SimpleMessageListenerContainer container, int concurrentConsumers, int maxConcurrentConsumers) {
		this.container = container;
		this.concurrentConsumers = concurrentConsumers;
		this.maxConcurrentConsumers = maxConcurrentConsumers;
	}

	SimpleMessageListenerContainer container() {
		return this.container;
	}

	AtomicInteger handling() {
		return this.handling;
	}

	void queueDepth(int depth) {
		this.queueDepth = depth;
	}

	void stopped() {
		this.stopped = true;
	}

	@Override
	public synchronized void setCorePoolSize(int corePoolSize) {
		this.container.setConcurrentConsumers(corePoolSize);
		this.concurrentConsumers = corePoolSize;
	}

	@Override
	public synchronized void setMaximumPoolSize(int maxPoolSize) {
		this.container.setMaxConcurrentConsumers(maxPoolSize);
		this.maxConcurrentConsumers = maxPoolSize;
	}

	@Override
	public int getCorePoolSize() {
		return this.concurrentConsumers;
	}

	@Override
	public int getMaximumPoolSize() {
		return this.maxConcurrentConsumers;
	}

	@Override
	public int getPoolSize() {
		return this.container.getActiveConsumerCount();
	}

	@Override
	public int getActiveCount() {
		return this.handling.get();
	}

	@Override
	public int getQueueSize() {
		return this.queueDepth;
	}

	/**
	 * A broker's queue has no capacity that the container knows of.
	 * @return 0
	 */
	@Override
	public int getQueueCapacity() {
		return 0;
	}

	@Override
	public boolean isShutdown() {
		return this.stopped;
	}

}
