package io.github.poolpilot.listener.kafka;

import java.time.Duration;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.listener.ListenerConsumers;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.pool.Restarts;
import io.github.poolpilot.pool.Settling;

import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.GenericMessageListener;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * A {@link ConcurrentMessageListenerContainer}'s consumers as their pool reads and sizes
 * them: its concurrency is the pool's size (core and maximum alike: a consumer is a
 * thread that polls and runs the listener), each running child container a live thread,
 * each record being handled an active thread, and its group's lag the pool's queue. A new
 * concurrency takes effect through the container's restart ({@link ConcurrencyRestarts}),
 * after which the pool settles; the partitions of its topics are the pool's ceiling, for
 * a consumer beyond them would get none.
 *
 * @author poolpilot authors
 */
final class KafkaConsumers extends ListenerConsumers {

	/**
	 * Every listener type's delivery: a record, or a batch of them, with or without an
	 * acknowledgment and the consumer.
	 */
	private static final Set<String> DELIVERIES = Set.of("onMessage");

	private final ConcurrentMessageListenerContainer<?, ?> container;

	private final ConcurrencyRestarts restarts;

	private final ConsumerLag lag;

	private volatile int corePoolSize;

	/**
	 * The partitions of its topics, as last read; 0 before the first reading.
	 */
	private volatile int partitions;

	KafkaConsumers(ConcurrentMessageListenerContainer<?, ?> container, String name, int settleFactor,
			Duration minimumSettle) {
		this.container = container;
		this.restarts = new ConcurrencyRestarts(container, name, settleFactor, minimumSettle);
		this.lag = new ConsumerLag(container, name);
		this.corePoolSize = container.getConcurrency();
	}

	@Override
	@SuppressWarnings("rawtypes")
	protected void measure(PoolRecorder recorder) {
		Object listener = this.container.getContainerProperties().getMessageListener();
		if (listener instanceof GenericMessageListener generic) {
			this.container.setupMessageListener(measured(generic, GenericMessageListener.class, DELIVERIES, recorder));
		}
	}

	/**
	 * Read the group's lag, and the partitions of its topics, while the container runs:
	 * one that never started may have no broker to ask.
	 */
	@Override
	protected int readQueue() {
		if (!this.container.isRunning()) {
			return -1;
		}
		ConsumerLag.Reading reading = this.lag.read();
		this.partitions = reading.partitions();
		return (int) Math.min(Integer.MAX_VALUE, reading.lag());
	}

	@Override
	protected @Nullable Ceiling readCeiling() {
		int partitions = this.partitions;
		return (partitions > 0)
				? new Ceiling(partitions,
						"the " + partitions + " partitions of its topics: a " + "consumer beyond them would get none")
				: null;
	}

	@Override
	protected void stop() {
		try {
			this.restarts.close();
		}
		finally {
			this.lag.close();
		}
	}

	@Override
	public void setCorePoolSize(int corePoolSize) {
		this.corePoolSize = corePoolSize;
	}

	@Override
	public void setMaximumPoolSize(int maxPoolSize) {
		// Ignored once the container stopped for good (REFUSED_CLOSED), its pool about to
		// leave the registry: this door cannot refuse (docs/adapters.md, Kafka
		// listeners).
		this.restarts.concurrency(maxPoolSize);
	}

	@Override
	public int getCorePoolSize() {
		return Math.min(this.corePoolSize, getMaximumPoolSize());
	}

	/**
	 * The concurrency asked for last, which the container has once a restart ran.
	 */
	@Override
	public int getMaximumPoolSize() {
		return this.restarts.wanted();
	}

	@Override
	public int getPoolSize() {
		int running = 0;
		for (MessageListenerContainer child : this.container.getContainers()) {
			if (child.isRunning()) {
				running++;
			}
		}
		return running;
	}

	@Override
	public @Nullable Settling settling() {
		return this.restarts.settling();
	}

	@Override
	public Restarts restarts() {
		return new Restarts(this.restarts.restarts(), this.restarts.lastCost(), this.restarts.settling(),
				this.restarts.failure());
	}

	/**
	 * Return how long the container's last restart took until every new consumer had its
	 * partitions.
	 * @return the cost, or {@code null} before the first restart
	 */
	@Nullable Duration lastRestartCost() {
		return this.restarts.lastCost();
	}

}
