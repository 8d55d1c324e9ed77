package io.github.poolpilot.listener.rabbit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.listener.ListenerSettings;
import io.github.poolpilot.listener.ListenerSettings.Own;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.tuning.Tuner;
import io.github.poolpilot.tuning.TuningMode;

import org.springframework.amqp.core.MessageListener;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.amqp.rabbit.support.ListenerContainerAware;
import org.springframework.beans.ConfigurablePropertyAccessor;
import org.springframework.beans.PropertyAccessorFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * Makes the consumers of each of the application's
 * {@link SimpleMessageListenerContainer}s (its beans and those of
 * {@code @RabbitListener}) a managed pool, named by the container's id or bean name,
 * before the containers start: its listener measured per delivery, its consumers sized
 * through the pool's door, and the broker's queue depth read once a window. After the
 * containers stopped (their consumers finished what they were delivered), the pools leave
 * the registry.
 * <p>
 * A container whose listener is a {@link ListenerContainerAware} (a
 * {@code RabbitTemplate}'s reply container) is left alone: it is not the application's
 * work.
 *
 * @author poolpilot authors
 */
public final class RabbitListenerPools implements SmartLifecycle {

	/**
	 * Just before the containers, which start in the last phase: started before them and
	 * stopped after them.
	 */
	static final int PHASE = Integer.MAX_VALUE - 1;

	private static final Log logger = LogFactory.getLog(RabbitListenerPools.class);

	private final PoolRegistry registry;

	private final Tuner tuner;

	private final Supplier<List<SimpleMessageListenerContainer>> containers;

	private final ListenerSettings.Source settings;

	private final Supplier<PoolRecorder> recorders;

	private final Duration depthInterval;

	private final List<Managed> managed = new ArrayList<>();

	private volatile @Nullable ScheduledExecutorService depthReader;

	private volatile boolean running;

	/**
	 * Create the pools' manager.
	 * @param registry the registry the pools join
	 * @param tuner the tuner, told of the pools that keep their container's own scaling
	 * @param containers the application's containers, found when it starts
	 * @param settings each container's settings
	 * @param recorders a new recorder for each pool
	 * @param depthInterval how often the broker's queue depths are read
	 */
	public RabbitListenerPools(PoolRegistry registry, Tuner tuner,
			Supplier<List<SimpleMessageListenerContainer>> containers, ListenerSettings.Source settings,
			Supplier<PoolRecorder> recorders, Duration depthInterval) {
		this.registry = registry;
		this.tuner = tuner;
		this.containers = containers;
		this.settings = settings;
		this.recorders = recorders;
		this.depthInterval = depthInterval;
	}

	@Override
	public synchronized void start() {
		if (isRunning()) {
			return;
		}
		Set<SimpleMessageListenerContainer> seen = Collections.newSetFromMap(new IdentityHashMap<>());
		for (SimpleMessageListenerContainer container : this.containers.get()) {
			if (seen.add(container)) {
				Managed pool = manage(container);
				if (pool != null) {
					this.managed.add(pool);
				}
			}
		}
		this.running = true;
		if (!this.managed.isEmpty()) {
			ScheduledExecutorService depthReader = Executors
				.newSingleThreadScheduledExecutor(new CustomizableThreadFactory("poolpilot-listener-queues-"));
			long nanos = this.depthInterval.toNanos();
			depthReader.scheduleWithFixedDelay(this::readDepths, 0, nanos, TimeUnit.NANOSECONDS);
			this.depthReader = depthReader;
		}
	}

	private @Nullable Managed manage(SimpleMessageListenerContainer container) {
		MessageListener listener = container.getMessageListener();
		String name = container.getListenerId();
		if (listener == null || listener instanceof ListenerContainerAware || name == null) {
			return null;
		}
		if (this.registry.get(name) != null) {
			logger.warn("The listener container '" + name + "' is not managed: a pool of that name exists already "
					+ "(give the container another id)");
			return null;
		}
		Own own = own(name, container);
		ListenerSettings settings = this.settings.settings(own);
		RabbitConsumers consumers = new RabbitConsumers(container, own.concurrency(), own.maxConcurrency());
		PoolRecorder recorder = this.recorders.get();
		ManagedPool pool = new ManagedPool(name, consumers, consumers, recorder, settings.bounds());
		pool.setWeight(settings.weight());
		this.registry.register(pool);
		try {
			if (settings.containerScaling()) {
				int[] sizes = pool.sizesWithin(settings.bounds());
				pool.resize(sizes[0], sizes[1]);
				if (this.tuner.isEnabled()) {
					this.tuner.setMode(name, TuningMode.MANUAL);
				}
			}
			else {
				pool.resize(settings.initialConsumers(), settings.initialConsumers());
			}
		}
		catch (RuntimeException ex) {
			this.registry.unregister(pool);
			throw ex;
		}
		container.setMessageListener(MeasuringListenerInterceptor.measure(listener, recorder, consumers.handling()));
		return new Managed(pool, consumers, new BrokerQueueDepth(container));
	}

	/**
	 * What the container was made with. It has no getters for its consumer counts, so
	 * they are read once, here, through Spring's field accessor; from then on the pool
	 * sets them.
	 */
	private static Own own(String name, SimpleMessageListenerContainer container) {
		ConfigurablePropertyAccessor fields = PropertyAccessorFactory.forDirectFieldAccess(container);
		int concurrency = (fields.getPropertyValue("concurrentConsumers") instanceof Integer core) ? core : 1;
		int max = (fields.getPropertyValue("maxConcurrentConsumers") instanceof Integer most) ? most : concurrency;
		return new Own(name, concurrency, Math.max(concurrency, max),
				Boolean.TRUE.equals(fields.getPropertyValue("exclusive")));
	}

	private void readDepths() {
		for (Managed pool : List.copyOf(this.managed)) {
			try {
				int depth = pool.depth().read();
				if (depth >= 0) {
					pool.consumers().queueDepth(depth);
				}
			}
			catch (RuntimeException ex) {
				// The broker is away: the depth last read stands until it is back.
				logger.debug("Could not read the queue depth of listener '" + pool.pool().getName() + "'", ex);
			}
		}
	}

	@Override
	public synchronized void stop() {
		if (!this.running) {
			return;
		}
		this.running = false;
		ScheduledExecutorService depthReader = this.depthReader;
		if (depthReader != null) {
			depthReader.shutdownNow();
			this.depthReader = null;
		}
		for (Managed pool : this.managed) {
			pool.consumers().stopped();
			this.registry.unregister(pool.pool());
		}
		this.managed.clear();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	/**
	 * Return the pools managed now.
	 * @return the pools, by name
	 */
	public synchronized Map<String, ManagedPool> pools() {
		Map<String, ManagedPool> pools = new LinkedHashMap<>();
		this.managed.forEach((pool) -> pools.put(pool.pool().getName(), pool.pool()));
		return pools;
	}

	private record Managed(ManagedPool pool, RabbitConsumers consumers, BrokerQueueDepth depth) {

	}

}
