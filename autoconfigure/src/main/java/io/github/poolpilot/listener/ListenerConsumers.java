package io.github.poolpilot.listener;

import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.ManagedPool.SizeControl;
import io.github.poolpilot.pool.PoolExecutor;

/**
 * One listener container's consumers as their pool reads and sizes them, whatever the
 * broker: each delivery being handled is an active thread, and the messages the broker
 * says wait for the consumers are the pool's queue, read once a window off the consumers'
 * threads. A broker's adapter says how its container's consumers are counted and sized,
 * how its listener is measured and how its waiting messages are read; only the pool's
 * checked door ({@link ManagedPool#resize}) calls the setters.
 *
 * @author poolpilot authors
 */
public abstract class ListenerConsumers implements PoolExecutor, SizeControl {

	private final AtomicInteger handling = new AtomicInteger();

	private volatile int queued;

	private volatile boolean stopped;

	/**
	 * Have the container's listener measured by the pool's recorder, before the container
	 * starts.
	 * @param recorder the recorder of the pool
	 */
	protected abstract void measure(PoolRecorder recorder);

	/**
	 * Return the listener measured: each call of its delivery methods one task.
	 * @param <T> the type the container expects of its listener
	 * @param listener the container's listener
	 * @param type the type the container expects of its listener
	 * @param deliveries the names of its methods a delivery calls
	 * @param recorder the recorder of the pool
	 * @return the measured listener, with the listener's interfaces
	 */
	protected final <T> T measured(T listener, Class<T> type, Set<String> deliveries, PoolRecorder recorder) {
		return MeasuringListener.measure(listener, type, deliveries, recorder, this.handling);
	}

	/**
	 * Read how many messages wait for the consumers, as the broker tells; called once a
	 * window, off the consumers' threads.
	 * @return their number, or -1 when the broker could not tell
	 * @throws RuntimeException when the broker cannot be reached: the last reading stands
	 */
	protected abstract int readQueue();

	/**
	 * Read the most consumers that can have work now, and why, when the broker limits
	 * them; called once a window after {@link #readQueue()}.
	 * @return the limit, or {@code null} when there is none or it is not known
	 */
	protected @Nullable Ceiling readCeiling() {
		return null;
	}

	/**
	 * The container stopped, and its consumers with it: release what reading it needed.
	 */
	protected void stop() {
	}

	final void read(ManagedPool pool) {
		int queued = readQueue();
		if (queued >= 0) {
			this.queued = queued;
		}
		Ceiling ceiling = readCeiling();
		if (ceiling != null && ceiling.consumers() != pool.ceiling()) {
			pool.setCeiling(ceiling.consumers(), ceiling.reason());
		}
	}

	final void stopped() {
		this.stopped = true;
		stop();
	}

	@Override
	public int getActiveCount() {
		return this.handling.get();
	}

	@Override
	public int getQueueSize() {
		return this.queued;
	}

	/**
	 * A broker's queue has no capacity that the container knows of.
	 * @return 0
	 */
	@Override
	public int getQueueCapacity() {
		return 0;
	}

	/**
	 * The queue is the broker's: the messages waiting there for the container's
	 * consumers.
	 * @return {@code true}
	 */
	@Override
	public boolean isQueueAtBroker() {
		return true;
	}

	@Override
	public boolean isShutdown() {
		return this.stopped;
	}

	/**
	 * The most consumers that can have work now, whatever the pool's bounds.
	 *
	 * @param consumers the most consumers, at least 1
	 * @param reason what limits them, as a refusal names it: "maxPoolSize 5 is above
	 * {@code reason}"
	 */
	public record Ceiling(int consumers, String reason) {

	}

}
