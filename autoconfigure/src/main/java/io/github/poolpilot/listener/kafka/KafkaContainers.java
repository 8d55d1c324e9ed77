package io.github.poolpilot.listener.kafka;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.listener.ListenerConsumers;
import io.github.poolpilot.listener.ListenerPools;
import io.github.poolpilot.listener.ListenerSettings.Own;

import org.springframework.kafka.listener.AbstractMessageListenerContainer;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.requestreply.ReplyingKafkaTemplate;

/**
 * The application's {@link ConcurrentMessageListenerContainer}s (its beans and those of
 * {@code @KafkaListener}) as {@link ListenerPools} manages them: each named by its id or
 * bean name, bounded by its own concurrency unless configured. A container has no scaling
 * rule of its own. A container whose listener is a {@link ReplyingKafkaTemplate} (its
 * reply container) is left alone: it is not the application's work.
 *
 * @author poolpilot authors
 */
public final class KafkaContainers implements ListenerPools.Broker<ConcurrentMessageListenerContainer<?, ?>> {

	/**
	 * Just before the containers'
	 * ({@link AbstractMessageListenerContainer#DEFAULT_PHASE}): started before them and
	 * stopped after them.
	 */
	public static final int PHASE = AbstractMessageListenerContainer.DEFAULT_PHASE - 1;

	private final Supplier<List<ConcurrentMessageListenerContainer<?, ?>>> containers;

	private final int settleFactor;

	private final Duration minimumSettle;

	/**
	 * Create the broker's side of the pools.
	 * @param containers the application's containers, found when it starts
	 * @param settleFactor how many times its last restart's cost a container settles
	 * after a restart, the tuner leaving its concurrency alone meanwhile
	 * @param minimumSettle the least it settles after a restart
	 */
	public KafkaContainers(Supplier<List<ConcurrentMessageListenerContainer<?, ?>>> containers, int settleFactor,
			Duration minimumSettle) {
		this.containers = containers;
		this.settleFactor = settleFactor;
		this.minimumSettle = minimumSettle;
	}

	@Override
	public List<ConcurrentMessageListenerContainer<?, ?>> containers() {
		return this.containers.get();
	}

	@Override
	public @Nullable Own own(ConcurrentMessageListenerContainer<?, ?> container) {
		Object listener = container.getContainerProperties().getMessageListener();
		String name = container.getListenerId();
		if (listener == null || listener instanceof ReplyingKafkaTemplate || name == null) {
			return null;
		}
		return new Own(name, container.getConcurrency(), container.getConcurrency(), false);
	}

	@Override
	public boolean scalesItself() {
		return false;
	}

	@Override
	public ListenerConsumers consumers(ConcurrentMessageListenerContainer<?, ?> container, Own own) {
		return new KafkaConsumers(container, own.name(), this.settleFactor, this.minimumSettle);
	}

}
