package io.github.poolpilot.listener.kafka;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.pool.Settling;

import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * Changes a container's concurrency the one way Spring Kafka allows while it runs: stop
 * it (its consumers finish the records they were handed and commit), set its concurrency,
 * start it again; then wait until every new consumer has been given its partitions. That
 * restart's cost, from the stop until the last consumer was assigned, is measured each
 * time, and the container settles for {@code settleFactor} times the last cost (at least
 * {@code minimumSettle}) after it, so that the tuner, which leaves a settling pool alone,
 * spends at most about 1/(1 + settleFactor) of the time restarting it.
 * <p>
 * Restarts run on a thread of their own, one at a time, the last concurrency asked for
 * winning: the pool's door returns at once, and the budget's lock is not held for the
 * seconds a rebalance takes. A container that is not running only has its concurrency
 * set, for its next start.
 *
 * @author poolpilot authors
 */
final class ConcurrencyRestarts {

	private static final Log logger = LogFactory.getLog(ConcurrencyRestarts.class);

	/**
	 * How long a restart waits for the new consumers' partitions before it counts as done
	 * anyway (the cost is then at least this).
	 */
	static final Duration ASSIGNMENT_TIMEOUT = Duration.ofSeconds(60);

	private final ConcurrentMessageListenerContainer<?, ?> container;

	private final AssignmentWatch assignments;

	private final int settleFactor;

	private final Duration minimumSettle;

	private final ReentrantLock lock = new ReentrantLock();

	private final ExecutorService restarter;

	private volatile int wanted;

	private volatile boolean restarting;

	private volatile boolean closed;

	private volatile @Nullable Duration lastCost;

	private volatile long settledAt;

	private volatile long restarts;

	ConcurrencyRestarts(ConcurrentMessageListenerContainer<?, ?> container, String name, int settleFactor,
			Duration minimumSettle) {
		this.container = container;
		ConsumerRebalanceListener listener = container.getContainerProperties().getConsumerRebalanceListener();
		this.assignments = new AssignmentWatch((listener != null) ? listener : new ConsumerAwareRebalanceListener() {
		});
		container.getContainerProperties().setConsumerRebalanceListener(this.assignments);
		this.settleFactor = settleFactor;
		this.minimumSettle = minimumSettle;
		this.wanted = container.getConcurrency();
		CustomizableThreadFactory threads = new CustomizableThreadFactory("poolpilot-kafka-restart-" + name + "-");
		threads.setDaemon(true);
		this.restarter = Executors.newSingleThreadExecutor(threads);
	}

	/**
	 * Have the container run the given number of consumers: at once while it is not
	 * running, else through a restart on the restarter's thread.
	 * @param concurrency the consumers
	 */
	void concurrency(int concurrency) {
		this.wanted = concurrency;
		if (this.lock.tryLock()) {
			try {
				if (!this.container.isRunning()) {
					this.container.setConcurrency(concurrency);
					return;
				}
			}
			finally {
				this.lock.unlock();
			}
		}
		if (!this.closed) {
			this.restarter.execute(this::restart);
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
			if (this.closed || wanted == this.container.getConcurrency()) {
				return;
			}
			if (!this.container.isRunning()) {
				this.container.setConcurrency(wanted);
				return;
			}
			this.restarting = true;
			long start = System.nanoTime();
			this.assignments.expect(wanted);
			this.container.stop();
			this.container.setConcurrency(wanted);
			if (this.closed) {
				// The application stops: its containers stay stopped.
				return;
			}
			this.container.start();
			if (!this.assignments.await(ASSIGNMENT_TIMEOUT.toMillis())) {
				logger.warn("The consumers of listener '" + this.container.getListenerId() + "' were not all given "
						+ "their partitions within " + ASSIGNMENT_TIMEOUT.toSeconds() + " s of a restart for " + wanted
						+ " consumers");
			}
			restarted(Duration.ofNanos(System.nanoTime() - start));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (RuntimeException ex) {
			logger.warn("Could not restart listener '" + this.container.getListenerId() + "' with " + this.wanted
					+ " consumers", ex);
		}
		finally {
			this.restarting = false;
			this.lock.unlock();
		}
	}

	private void restarted(Duration cost) {
		this.lastCost = cost;
		this.restarts++;
		Duration settle = cost.multipliedBy(this.settleFactor);
		if (settle.compareTo(this.minimumSettle) < 0) {
			settle = this.minimumSettle;
		}
		this.settledAt = System.nanoTime() + settle.toNanos();
	}

	/**
	 * Return how long the container still settles after its last restart, or that a
	 * restart runs now.
	 * @return how it settles, or {@code null} when it does not
	 */
	@Nullable Settling settling() {
		Duration cost = this.lastCost;
		if (this.restarting) {
			Duration estimate = (cost != null) ? cost.multipliedBy(this.settleFactor + 1L) : this.minimumSettle;
			return new Settling((estimate.compareTo(this.minimumSettle) < 0) ? this.minimumSettle : estimate, cost);
		}
		long remaining = this.settledAt - System.nanoTime();
		return (cost != null && remaining > 0) ? new Settling(Duration.ofNanos(remaining), cost) : null;
	}

	/**
	 * Return how long the last restart took until every new consumer had its partitions.
	 * @return the cost, or {@code null} before the first restart
	 */
	@Nullable Duration lastCost() {
		return this.lastCost;
	}

	/**
	 * Return how many restarts finished.
	 * @return the count
	 */
	long restarts() {
		return this.restarts;
	}

	/**
	 * Run no more restarts; one that runs finishes first. Called after the application's
	 * containers stopped: a container a restart started again meanwhile is stopped.
	 */
	void close() {
		this.closed = true;
		this.assignments.release();
		this.restarter.shutdown();
		this.lock.lock();
		try {
			if (this.container.isRunning()) {
				this.container.stop();
			}
		}
		finally {
			this.lock.unlock();
		}
		try {
			this.restarter.awaitTermination(ASSIGNMENT_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
