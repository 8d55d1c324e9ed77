package io.github.poolpilot.listener.rabbit;

import java.util.List;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.listener.ListenerConsumers;
import io.github.poolpilot.listener.ListenerPools;
import io.github.poolpilot.listener.ListenerSettings.Own;

import org.springframework.amqp.core.MessageListener;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.amqp.rabbit.support.ListenerContainerAware;
import org.springframework.beans.ConfigurablePropertyAccessor;
import org.springframework.beans.PropertyAccessorFactory;

/**
 * The application's {@link SimpleMessageListenerContainer}s (its beans and those of
 * {@code @RabbitListener}) as {@link ListenerPools} manages them: each named by its id or
 * bean name, its consumers counted and sized by the container's own runtime setters, the
 * broker's ready messages on its queues its pool's queue. A container whose listener is a
 * {@link ListenerContainerAware} (a {@code RabbitTemplate}'s reply container) is left
 * alone: it is not the application's work.
 *
 * @author poolpilot authors
 */
public final class RabbitContainers implements ListenerPools.Broker<SimpleMessageListenerContainer> {

	/**
	 * Just before the containers, which start in the last phase: started before them and
	 * stopped after them.
	 */
	public static final int PHASE = Integer.MAX_VALUE - 1;

	private final Supplier<List<SimpleMessageListenerContainer>> containers;

	/**
	 * Create the broker's side of the pools.
	 * @param containers the application's containers, found when it starts
	 */
	public RabbitContainers(Supplier<List<SimpleMessageListenerContainer>> containers) {
		this.containers = containers;
	}

	@Override
	public List<SimpleMessageListenerContainer> containers() {
		return this.containers.get();
	}

	/**
	 * What the container was made with. It has no getters for its consumer counts, so
	 * they are read once, here, through Spring's field accessor; from then on the pool
	 * sets them.
	 */
	@Override
	public @Nullable Own own(SimpleMessageListenerContainer container) {
		MessageListener listener = container.getMessageListener();
		String name = container.getListenerId();
		if (listener == null || listener instanceof ListenerContainerAware || name == null) {
			return null;
		}
		ConfigurablePropertyAccessor fields = PropertyAccessorFactory.forDirectFieldAccess(container);
		int concurrency = (fields.getPropertyValue("concurrentConsumers") instanceof Integer core) ? core : 1;
		int max = (fields.getPropertyValue("maxConcurrentConsumers") instanceof Integer most) ? most : concurrency;
		return new Own(name, concurrency, Math.max(concurrency, max),
				Boolean.TRUE.equals(fields.getPropertyValue("exclusive")));
	}

	@Override
	public boolean scalesItself() {
		return true;
	}

	@Override
	public ListenerConsumers consumers(SimpleMessageListenerContainer container, Own own) {
		return new RabbitConsumers(container, own.concurrency(), own.maxConcurrency());
	}

}
