package io.github.poolpilot.pool;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Closes every registered pool's measurement window at a fixed interval, so that each
 * pool always has a recent {@link PoolSnapshot} for the endpoint, the metrics and the
 * tuner. A failure in one tick is logged; it never reaches the pools. It may also run a
 * second, cheaper action between windows at a shorter interval (the tuner's fast path),
 * on the same thread, so that the two never run at once.
 * <p>
 * While a pool does not time every task (one that runs more than about a thousand tasks a
 * window), the same thread also samples its occupancy, queued tasks and busy threads,
 * every {@link #OCCUPANCY_INTERVAL}, from which its mean times follow by Little's law;
 * while no pool needs that, the sampler wakes only for windows and pulses.
 *
 * @author poolpilot authors
 */
public class PoolSampler implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(PoolSampler.class);

	/**
	 * How often the occupancy of pools that need it is sampled: the mean times derived
	 * from it are off by at most about twice this, and on average by much less.
	 */
	public static final Duration OCCUPANCY_INTERVAL = Duration.ofMillis(1);

	private final PoolRegistry registry;

	private final Duration window;

	private final Runnable afterWindow;

	private final Duration pulseInterval;

	private final Runnable pulse;

	private @Nullable ScheduledExecutorService scheduler;

	/**
	 * The occupancy sampling while some pool needs it, guarded by this.
	 */
	private @Nullable ScheduledFuture<?> occupancy;

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
		this(registry, window, afterWindow, Duration.ZERO, () -> {
		});
	}

	/**
	 * Create a sampler that runs an action after each window closed and another between
	 * windows, such as the tuner's fast path.
	 * @param registry the pools to sample
	 * @param window how long each measurement window lasts
	 * @param afterWindow what to run once every pool's window closed
	 * @param pulseInterval how often to run the action between windows; zero for never
	 * @param pulse what to run between windows
	 */
	public PoolSampler(PoolRegistry registry, Duration window, Runnable afterWindow, Duration pulseInterval,
			Runnable pulse) {
		if (window.isNegative() || window.isZero()) {
			throw new IllegalArgumentException("window must be positive but was " + window);
		}
		if (pulseInterval.isNegative() || pulseInterval.compareTo(window) >= 0) {
			throw new IllegalArgumentException("the pulse interval must be zero (off) or shorter than the window "
					+ window + " but was " + pulseInterval);
		}
		this.registry = registry;
		this.window = window;
		this.afterWindow = afterWindow;
		this.pulseInterval = pulseInterval;
		this.pulse = pulse;
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
		if (!this.pulseInterval.isZero()) {
			long pulse = this.pulseInterval.toNanos();
			this.scheduler.scheduleAtFixedRate(this::pulse, pulse, pulse, TimeUnit.NANOSECONDS);
		}
	}

	private void pulse() {
		try {
			this.pulse.run();
		}
		catch (RuntimeException ex) {
			// A task of a scheduled executor that throws is never run again.
			logger.warn("A pulse between windows failed", ex);
		}
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
				logger.warn("Could not take a snapshot of pool '" + pool.getName() + "'", ex);
			}
		}
		scheduleOccupancy();
		this.afterWindow.run();
	}

	/**
	 * Sample the occupancy of every pool that needs it.
	 * @return whether any did
	 */
	public boolean sampleOccupancy() {
		boolean needed = false;
		for (ManagedPool pool : this.registry.pools()) {
			try {
				needed |= pool.sampleOccupancy();
			}
			catch (RuntimeException ex) {
				logger.warn("Could not sample the occupancy of pool '" + pool.getName() + "'", ex);
			}
		}
		return needed;
	}

	/**
	 * Sample occupancy at its fixed period while some pool needs it, and not at all
	 * otherwise; decided after each window, when the pools choose how many tasks to time.
	 */
	private synchronized void scheduleOccupancy() {
		ScheduledExecutorService scheduler = this.scheduler;
		if (scheduler == null) {
			return;
		}
		boolean needed = this.registry.pools().stream().anyMatch((pool) -> pool.getRecorder().needsOccupancy());
		if (needed && this.occupancy == null) {
			long nanos = OCCUPANCY_INTERVAL.toNanos();
			this.occupancy = scheduler.scheduleAtFixedRate(this::sampleOccupancyLogged, nanos, nanos,
					TimeUnit.NANOSECONDS);
		}
		else if (!needed && this.occupancy != null) {
			this.occupancy.cancel(false);
			this.occupancy = null;
		}
	}

	private void sampleOccupancyLogged() {
		try {
			sampleOccupancy();
		}
		catch (RuntimeException ex) {
			// A task of a scheduled executor that throws is never run again.
			logger.warn("Sampling the pools' occupancy failed", ex);
		}
	}

	/**
	 * Return whether the sampler runs: started and not closed.
	 * @return whether it samples
	 */
	public synchronized boolean isRunning() {
		return this.scheduler != null;
	}

	@Override
	public synchronized void close() {
		if (this.scheduler != null) {
			this.scheduler.shutdownNow();
			this.scheduler = null;
			this.occupancy = null;
		}
	}

}
