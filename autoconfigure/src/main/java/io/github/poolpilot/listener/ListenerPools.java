package io.github.poolpilot.listener;

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

import io.github.poolpilot.listener.ListenerSettings.Own;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.tuning.Tuner;
import io.github.poolpilot.tuning.TuningMode;

import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * Makes the consumers of each of one broker's listener containers a managed pool, named
 * by the container's id or bean name, before the containers start: its listener measured
 * per delivery, its consumers sized through the pool's door, and what waits for them read
 * once a window. After the containers stopped (their consumers finished what they were
 * delivered), the pools leave the registry. What differs from broker to broker is its
 * {@link Broker}.
 *
 * @param <C> the broker's container type
 * @author poolpilot authors
 */
public final class ListenerPools<C> implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(ListenerPools.class);

	private final Broker<C> broker;

	private final int phase;

	private final PoolRegistry registry;

	private final Tuner tuner;

	private final ListenerSettings.Source settings;

	private final Supplier<PoolRecorder> recorders;

	private final Duration readInterval;

	private final List<Managed> managed = new ArrayList<>();

	/**
	 * What each container was made with, read when the pools first started: once managed,
	 * its sizes are the pool's, not its own.
	 */
	private final Map<C, Own> owns = new IdentityHashMap<>();

	private List<String> containerNames = List.of();

	private volatile @Nullable ScheduledExecutorService reader;

	private volatile boolean running;

	/**
	 * Create the pools' manager.
	 * @param broker how the broker's containers are found, read and sized
	 * @param phase the lifecycle phase, just before the containers' own: started before
	 * them and stopped after them
	 * @param registry the registry the pools join
	 * @param tuner the tuner, told of the pools that keep their container's own scaling
	 * @param settings each container's settings
	 * @param recorders a new recorder for each pool
	 * @param readInterval how often what waits for the consumers is read
	 */
	public ListenerPools(Broker<C> broker, int phase, PoolRegistry registry, Tuner tuner,
			ListenerSettings.Source settings, Supplier<PoolRecorder> recorders, Duration readInterval) {
		this.broker = broker;
		this.phase = phase;
		this.registry = registry;
		this.tuner = tuner;
		this.settings = settings;
		this.recorders = recorders;
		this.readInterval = readInterval;
	}

	@Override
	public synchronized void start() {
		if (isRunning()) {
			return;
		}
		// Every container's settings are read before any container is changed, so that
		// a bad key fails start-up with no container resized or pool registered.
		Set<C> seen = Collections.newSetFromMap(new IdentityHashMap<>());
		List<Planned<C>> plans = new ArrayList<>();
		for (C container : this.broker.containers()) {
			Own own = seen.add(container) ? own(container) : null;
			if (own != null) {
				plans.add(new Planned<>(container, own, this.settings.settings(own)));
			}
		}
		this.containerNames = plans.stream().map((plan) -> plan.own().name()).toList();
		try {
			for (Planned<C> plan : plans) {
				Managed pool = manage(plan.container(), plan.own(), plan.settings());
				if (pool != null) {
					this.managed.add(pool);
				}
			}
		}
		catch (RuntimeException ex) {
			release();
			throw ex;
		}
		this.running = true;
		if (!this.managed.isEmpty()) {
			ScheduledExecutorService reader = Executors
				.newSingleThreadScheduledExecutor(new CustomizableThreadFactory("poolpilot-listener-queues-"));
			long nanos = this.readInterval.toNanos();
			reader.scheduleWithFixedDelay(this::read, 0, nanos, TimeUnit.NANOSECONDS);
			this.reader = reader;
		}
	}

	private @Nullable Own own(C container) {
		Own own = this.owns.get(container);
		if (own == null) {
			own = this.broker.own(container);
			if (own != null) {
				this.owns.put(container, own);
			}
		}
		return own;
	}

	/**
	 * Return the names of the broker's containers found when the pools last started,
	 * managed or not.
	 * @return the containers' ids or bean names
	 */
	public synchronized List<String> containerNames() {
		return this.containerNames;
	}

	private @Nullable Managed manage(C container, Own own, ListenerSettings settings) {
		String name = own.name();
		if (this.registry.get(name) != null) {
			logger.warn("The listener container '" + name + "' is not managed: a pool of that name exists already "
					+ "(give the container another id)");
			return null;
		}
		ListenerConsumers consumers = this.broker.consumers(container, own);
		PoolRecorder recorder = this.recorders.get();
		ManagedPool pool = new ManagedPool(name, consumers, consumers, recorder, settings.bounds());
		pool.setWeight(settings.weight());
		// Sized within its bounds before it joins, so that the registry fits the sizes it
		// starts with into what the budget has left, not the container's own.
		boolean keepsItsRule = settings.containerScaling() && this.broker.scalesItself();
		if (keepsItsRule) {
			int[] sizes = pool.sizesWithin(settings.bounds());
			pool.resize(sizes[0], sizes[1]);
		}
		else {
			pool.resize(settings.initialConsumers(), settings.initialConsumers());
		}
		this.registry.register(pool);
		if (keepsItsRule) {
			// Manual even while tuning is off, so that switching it on later does not
			// hand the container's consumers to the tuner: only pools in auto go back.
			this.tuner.setMode(name, TuningMode.MANUAL);
		}
		consumers.measure(recorder);
		return new Managed(pool, consumers);
	}

	private void read() {
		for (Managed pool : List.copyOf(this.managed)) {
			try {
				pool.consumers().read(pool.pool());
			}
			catch (RuntimeException ex) {
				// The broker is away: what was read last stands until it is back.
				logger.debug("Could not read what waits for listener '" + pool.pool().getName() + "'", ex);
			}
		}
	}

	@Override
	public synchronized void stop() {
		if (!this.running) {
			return;
		}
		this.running = false;
		ScheduledExecutorService reader = this.reader;
		if (reader != null) {
			reader.shutdownNow();
			this.reader = null;
		}
		release();
	}

	/**
	 * Let every managed pool go: its consumers no longer measured, the pool out of the
	 * registry.
	 */
	private void release() {
		for (Managed pool : this.managed) {
			try {
				pool.consumers().stopped();
			}
			finally {
				this.registry.unregister(pool.pool());
			}
		}
		this.managed.clear();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return this.phase;
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

	private record Planned<C>(C container, Own own, ListenerSettings settings) {

	}

	private record Managed(ManagedPool pool, ListenerConsumers consumers) {

	}

	/**
	 * One broker's listener containers, as its pools need them.
	 *
	 * @param <C> the broker's container type
	 */
	public interface Broker<C> {

		/**
		 * Return the application's containers, found when it starts.
		 * @return the containers, maybe some twice
		 */
		List<C> containers();

		/**
		 * Return what a container was made with, read before it is managed.
		 * @param container a container
		 * @return what it was made with, its pool's name among it, or {@code null} when
		 * it is not the application's work (a reply container) or has no name
		 */
		@Nullable Own own(C container);

		/**
		 * Return whether the broker's containers have a scaling rule of their own, which
		 * {@code poolpilot.listeners.container-scaling} keeps.
		 * @return whether they scale themselves
		 */
		boolean scalesItself();

		/**
		 * Return a container's consumers as its pool reads and sizes them.
		 * @param container the container
		 * @param own what it was made with
		 * @return its consumers
		 */
		ListenerConsumers consumers(C container, Own own);

	}

}
