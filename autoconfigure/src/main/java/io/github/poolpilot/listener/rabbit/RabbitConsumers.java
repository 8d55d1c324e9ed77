package io.github.poolpilot.listener.rabbit;

import java.util.Set;

import io.github.poolpilot.listener.ListenerConsumers;
import io.github.poolpilot.measure.PoolRecorder;

import org.springframework.amqp.core.MessageListener;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;

/**
 * A {@link SimpleMessageListenerContainer}'s consumers as their pool reads and sizes
 * them: the core size is the container's concurrent consumers, the maximum size its
 * max-concurrent consumers, each live consumer a thread, and the broker's ready messages
 * on its queues the pool's queue. The setters are the container's own runtime setters: a
 * consumer removed finishes the messages it was delivered before it stops, so a resize
 * neither loses a message nor has one delivered twice.
 *
 * @author poolpilot authors
 */
final class RabbitConsumers extends ListenerConsumers {

	/**
	 * {@code onMessage} for one message, {@code onMessageBatch} for a batch.
	 */
	private static final Set<String> DELIVERIES = Set.of("onMessage", "onMessageBatch");

	private final SimpleMessageListenerContainer container;

	private final BrokerQueueDepth depth;

	/**
	 * The sizes last set, which the container has no getters for.
	 */
	private volatile int concurrentConsumers;

	private volatile int maxConcurrentConsumers;

	RabbitConsumers(SimpleMessageListenerContainer container, int concurrentConsumers, int maxConcurrentConsumers) {
		this.container = container;
		this.depth = new BrokerQueueDepth(container);
		this.concurrentConsumers = concurrentConsumers;
		this.maxConcurrentConsumers = maxConcurrentConsumers;
	}

	@Override
	protected void measure(PoolRecorder recorder) {
		MessageListener listener = this.container.getMessageListener();
		if (listener != null) {
			this.container.setMessageListener(measured(listener, MessageListener.class, DELIVERIES, recorder));
		}
	}

	@Override
	protected int readQueue() {
		return this.depth.read();
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

}
