package io.github.poolpilot.core;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.jspecify.annotations.Nullable;

/**
 * Closes every registered pool's measurement window at a fixed interval, so that each
 * pool always has a recent {@link PoolSnapshot} for the endpoint, the metrics and the
 * tuner. A failure in one tick is logged and counted; it never reaches the pools.
 *
 * @author poolpilot authors
 */
public class PoolSampler implements AutoCloseable {

	private static final Logger logger = Logger.getLogger(PoolSampler.class.getName());

	private final PoolRegistry registry;

	private final Duration window;

	private final LongAdder failedTicks = new LongAdder();

	private final Runnable afterWindow;

	private @Nullable ScheduledExecutorService scheduler;

	/**
	 * Create a sampler.
	 * @param registry the pools to sample
	 * @param window how long each measurement window lasts
	 */
	public PoolSampler(PoolRegistry registry, Duration window) {
		this(registry, window, () -> {
		});
	}

	/**
	 * Create a sampler that runs an action, such as the tuner, after each window closed.
	 * @param registry the pools to sample
	 * @param window how long each measurement window lasts
	 * @param afterWindow what to run once every pool's window closed
	 */
	public PoolSampler(PoolRegistry registry, Duration window, Runnable afterWindow) {
		if (window.isNegative() || window.isZero()) {
			throw new IllegalArgumentException("window must be positive but was " + window);
		}
		this.registry = registry;
		this.window = window;
		this.afterWindow = afterWindow;
	}

	/**
	 * Start sampling on a daemon thread of its own.
	 */
	public synchronized void start() {
		if (this.scheduler != null) {
			return;
		}
		this.scheduler = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "poolpilot-sampler");
			thread.setDaemon(true);
			return thread;
		});
		long nanos = this.window.toNanos();
		this.scheduler.scheduleAtFixedRate(this::tick, nanos, nanos, TimeUnit.NANOSECONDS);
	}

	/**
	 * Close the window of every pool now, then run the after-window action.
	 */
	public void tick() {
		for (ManagedPool pool : this.registry.pools()) {
			try {
				pool.takeSnapshot();
			}
			catch (RuntimeException ex) {
				this.failedTicks.increment();
				logger.log(Level.WARNING, "Could not take a snapshot of pool '" + pool.getName() + "'", ex);
			}
		}
		this.afterWindow.run();
	}

	/**
	 * Return how many snapshots failed.
	 * @return the failed snapshot count
	 */
	public long failedTicks() {
		return this.failedTicks.sum();
	}

	@Override
	public synchronized void close() {
		if (this.scheduler != null) {
			this.scheduler.shutdownNow();
			this.scheduler = null;
		}
	}

}
