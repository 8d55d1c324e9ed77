package io.github.poolpilot.listener.kafka;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.measure.NanoClock;
import io.github.poolpilot.pool.Settling;

import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * Changes a container's concurrency the one way Spring Kafka allows while it runs: stop
 * it (its consumers finish the records they were handed and commit), set its concurrency,
 * start it again; then wait until every new consumer has been given its partitions. That
 * restart's cost, from the stop until the last consumer was assigned, is measured each
 * time ({@link RestartCosts}), and the container settles for {@code settleFactor} times
 * the last cost (at least {@code minimumSettle}) after it, so that the tuner, which
 * leaves a settling pool alone, spends at most about 1/(1 + settleFactor) of the time
 * restarting it.
 * <p>
 * Restarts run on a thread of their own, one at a time, the last concurrency asked for
 * winning: the pool's door returns at once, and the budget's lock is not held for the
 * seconds a rebalance takes. A container that is not running only has its concurrency
 * set, for its next start; once closed, it refuses every new concurrency, and a restart
 * that closing cuts short is neither counted nor costed: the container stays stopped.
 * <p>
 * A restart whose {@code start()} fails is tried {@link ContainerStarts#TRIES} times in
 * all, a pause apart; then the container is started again with the concurrency it had.
 * Either way the failure stays in {@link #failure()} until a restart works: a container
 * never stops silently.
 *
 * @author poolpilot authors
 */
final class ConcurrencyRestarts {

	private static final Log logger = LogFactory.getLog(ConcurrencyRestarts.class);

	private final ConcurrentMessageListenerContainer<?, ?> container;

	private final String name;

	private final AssignmentWatch assignments;

	private final RestartCosts costs;

	private final ContainerStarts starts;

	private final ReentrantLock lock = new ReentrantLock();

	/**
	 * Guards {@link #closed} against a concurrency asked for meanwhile, so that nothing
	 * is handed to the restarter once it shut down.
	 */
	private final Object door = new Object();

	private final ExecutorService restarter;

	private volatile int wanted;

	private volatile boolean closed;

	private volatile @Nullable String failure;

	ConcurrencyRestarts(ConcurrentMessageListenerContainer<?, ?> container, String name, int settleFactor,
			Duration minimumSettle) {
		this(container, name, settleFactor, minimumSettle, NanoClock.SYSTEM, ContainerStarts.Pause.SLEEP);
	}

	ConcurrencyRestarts(ConcurrentMessageListenerContainer<?, ?> container, String name, int settleFactor,
			Duration minimumSettle, NanoClock clock, ContainerStarts.Pause pause) {
		this.container = container;
		this.name = name;
		ConsumerRebalanceListener listener = container.getContainerProperties().getConsumerRebalanceListener();
		this.assignments = new AssignmentWatch((listener != null) ? listener : new ConsumerAwareRebalanceListener() {
		});
		container.getContainerProperties().setConsumerRebalanceListener(this.assignments);
		this.costs = new RestartCosts(settleFactor, minimumSettle, clock);
		this.starts = new ContainerStarts(container, name, this.assignments, pause, () -> this.closed);
		this.wanted = container.getConcurrency();
		CustomizableThreadFactory threads = new CustomizableThreadFactory("poolpilot-kafka-restart-" + name + "-");
		threads.setDaemon(true);
		this.restarter = Executors.newSingleThreadExecutor(threads);
	}

	/**
	 * Have the container run the given number of consumers: at once while it is not
	 * running, else through a restart on the restarter's thread; nothing once closed.
	 * @param concurrency the consumers
	 * @return what became of it
	 */
	ConcurrencyOutcome concurrency(int concurrency) {
		synchronized (this.door) {
			if (this.closed) {
				return ConcurrencyOutcome.REFUSED_CLOSED;
			}
			this.wanted = concurrency;
			if (this.lock.tryLock()) {
				try {
					if (!this.container.isRunning()) {
						this.container.setConcurrency(concurrency);
						return ConcurrencyOutcome.SET;
					}
				}
				finally {
					this.lock.unlock();
				}
			}
			try {
				this.restarter.execute(this::restart);
			}
			catch (RejectedExecutionException ex) {
				// Only close() shuts the restarter down, and it closes the door first.
				throw new IllegalStateException("The restarter of listener '" + this.name + "' stopped", ex);
			}
			return ConcurrencyOutcome.RESTARTING;
		}
	}

	/**
	 * Return the concurrency last asked for.
	 * @return the consumers
	 */
	int wanted() {
		return this.wanted;
	}

	private void restart() {
		this.lock.lock();
		try {
			int wanted = this.wanted;
			int previous = this.container.getConcurrency();
			if (this.closed || wanted == previous) {
				return;
			}
			if (!this.container.isRunning()) {
				this.container.setConcurrency(wanted);
				return;
			}
			long start = this.costs.begin();
			this.container.stop();
			if (this.closed) {
				// The application stops: its containers stay stopped.
				this.container.setConcurrency(wanted);
				return;
			}
			ContainerStarts.Start started = this.starts.start(wanted);
			if (started instanceof ContainerStarts.Start.Failed failed) {
				restore(wanted, previous, failed.failure(), start);
			}
			else if (started instanceof ContainerStarts.Start.Started) {
				this.failure = null;
				this.costs.restarted(start);
			}
			else {
				logger.debug("Listener '" + this.name + "' is stopped: the application is closing, which cut short "
						+ "its restart for " + wanted + " consumers");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			this.costs.end();
			this.lock.unlock();
		}
	}

	/**
	 * Start the container again with the concurrency it had, once it could not start with
	 * the one asked for.
	 */
	private void restore(int wanted, int previous, RuntimeException failed, long start) throws InterruptedException {
		synchronized (this.door) {
			if (this.wanted == wanted) {
				this.wanted = previous;
			}
		}
		String tried = "Could not start listener '" + this.name + "' with " + wanted + " consumers ("
				+ ContainerStarts.TRIES + " tries, the last: " + failed.getMessage() + ")";
		ContainerStarts.Start again = this.starts.start(previous);
		if (again instanceof ContainerStarts.Start.Started) {
			this.failure = tried + "; it runs with its " + previous + " consumers again";
			logger.warn(this.failure);
			logger.debug("The last try to start listener '" + this.name + "' failed", failed);
			this.costs.restarted(start);
		}
		else if (again instanceof ContainerStarts.Start.Failed failedAgain) {
			this.failure = tried + ", nor with its " + previous + " consumers again ("
					+ failedAgain.failure().getMessage() + "): it is stopped";
			logger.error(this.failure);
			logger.debug("The last try to start listener '" + this.name + "' again failed", failedAgain.failure());
		}
		else {
			logger.debug(tried + "; it is stopped: the application is closing", failed);
		}
	}

	/**
	 * Return how long the container still settles after its last restart, or that a
	 * restart runs now.
	 * @return how it settles, or {@code null} when it does not
	 */
	@Nullable Settling settling() {
		return this.costs.settling();
	}

	/**
	 * Return how long the last restart took until every new consumer had its partitions.
	 * @return the cost, or {@code null} before the first restart
	 */
	@Nullable Duration lastCost() {
		return this.costs.lastCost();
	}

	/**
	 * Return how many restarts started the container.
	 * @return the count
	 */
	long restarts() {
		return this.costs.restarts();
	}

	/**
	 * Return why the last restart could not start the container with the concurrency
	 * asked for, and whether it runs with its previous one or is stopped.
	 * @return the failure, or {@code null} when the last restart worked
	 */
	@Nullable String failure() {
		return this.failure;
	}

	/**
	 * Run no more restarts and refuse every new concurrency. Called after the
	 * application's containers stopped: a restart that runs is waited for at most the
	 * container's own shutdown timeout ({@code ContainerProperties#getShutdownTimeout}),
	 * and a container it started again meanwhile is stopped, by it or here.
	 */
	void close() {
		synchronized (this.door) {
			this.closed = true;
		}
		this.assignments.release();
		this.restarter.shutdown();
		long timeout = this.container.getContainerProperties().getShutdownTimeout();
		try {
			if (!this.lock.tryLock(timeout, TimeUnit.MILLISECONDS)) {
				logger.warn("A restart of listener '" + this.name + "' still runs " + timeout + " ms after it was "
						+ "asked to stop: it stops the container when its start returns");
				return;
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return;
		}
		try {
			if (this.container.isRunning()) {
				this.container.stop();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

}
