package io.github.poolpilot.listener.kafka;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;

/**
 * Starts a stopped container with a concurrency, the second half of a restart: a start
 * that fails is tried again a pause apart, up to {@link #TRIES} times in all, and one
 * that works is waited for until each new consumer was given its partitions. A start that
 * returns after the restarts were closed stops the container again.
 *
 * @author poolpilot authors
 */
final class ContainerStarts {

	private static final Log logger = LogFactory.getLog(ContainerStarts.class);

	/**
	 * How long a start waits for the new consumers' partitions before it counts as done
	 * anyway (the restart's cost is then at least this).
	 */
	static final Duration ASSIGNMENT_TIMEOUT = Duration.ofSeconds(60);

	/**
	 * How many times the container's start is tried before that concurrency is given up.
	 */
	static final int TRIES = 3;

	/**
	 * The pause between two tries.
	 */
	static final Duration PAUSE = Duration.ofSeconds(1);

	private final ConcurrentMessageListenerContainer<?, ?> container;

	private final String name;

	private final AssignmentWatch assignments;

	private final Pause pause;

	private final BooleanSupplier closed;

	ContainerStarts(ConcurrentMessageListenerContainer<?, ?> container, String name, AssignmentWatch assignments,
			Pause pause, BooleanSupplier closed) {
		this.container = container;
		this.name = name;
		this.assignments = assignments;
		this.pause = pause;
		this.closed = closed;
	}

	/**
	 * Start the container with the given concurrency, up to {@link #TRIES} times, and
	 * wait until each consumer was assigned. Once the restarts are closed no try begins,
	 * and a start that returns after it is stopped again; a wait for the assignments that
	 * closing released leaves the container to {@code close()}, which stops it.
	 * @param concurrency the consumers
	 * @return whether it started, every try failed, or closing cut it short
	 * @throws InterruptedException if interrupted while pausing or waiting
	 */
	Start start(int concurrency) throws InterruptedException {
		RuntimeException failed = null;
		for (int tried = 0; tried < TRIES; tried++) {
			if (tried > 0) {
				this.pause.pause(PAUSE);
			}
			if (this.closed.getAsBoolean()) {
				return new Start.Closed();
			}
			try {
				// A container given its partitions (topicPartitions) assigns them itself,
				// with no rebalance to call its rebalance listener: none to wait for.
				this.assignments
					.expect((this.container.getContainerProperties().getTopicPartitions() != null) ? 0 : concurrency);
				this.container.setConcurrency(concurrency);
				this.container.start();
			}
			catch (RuntimeException ex) {
				failed = ex;
				stopWhatStarted();
				continue;
			}
			if (this.closed.getAsBoolean()) {
				// Closing gave up waiting for this restart.
				stopWhatStarted();
				return new Start.Closed();
			}
			awaitAssignments(concurrency);
			return this.closed.getAsBoolean() ? new Start.Closed() : new Start.Started();
		}
		return new Start.Failed(failed);
	}

	/**
	 * A start that failed may have left some of the container's consumers running.
	 */
	private void stopWhatStarted() {
		try {
			if (this.container.isRunning()) {
				this.container.stop();
			}
		}
		catch (RuntimeException ex) {
			logger.debug("Could not stop listener '" + this.name + "' after its start", ex);
		}
	}

	private void awaitAssignments(int concurrency) throws InterruptedException {
		if (!this.assignments.await(ASSIGNMENT_TIMEOUT.toMillis())) {
			logger.warn("The consumers of listener '" + this.name + "' were not all given their partitions within "
					+ ASSIGNMENT_TIMEOUT.toSeconds() + " s of a restart for " + concurrency + " consumers");
		}
	}

	/**
	 * What became of a {@link #start}, so that a start cut short by closing is never
	 * taken for one that worked, nor for one that failed.
	 */
	sealed interface Start {

		/**
		 * The container runs with the concurrency, each consumer assigned or the wait
		 * given up after {@link #ASSIGNMENT_TIMEOUT}.
		 */
		record Started() implements Start {
		}

		/**
		 * Every try failed: the container is stopped.
		 *
		 * @param failure the last try's failure
		 */
		record Failed(RuntimeException failure) implements Start {
		}

		/**
		 * The restarts were closed, the application stopping, before the container was
		 * started and its consumers assigned: it is stopped, or {@code close()} stops it.
		 */
		record Closed() implements Start {
		}

	}

	/**
	 * Waits between two tries to start a container.
	 */
	@FunctionalInterface
	interface Pause {

		/**
		 * Sleep on the calling thread.
		 */
		Pause SLEEP = (duration) -> Thread.sleep(duration.toMillis());

		/**
		 * Wait for the given time.
		 * @param duration how long
		 * @throws InterruptedException if interrupted while waiting
		 */
		void pause(Duration duration) throws InterruptedException;

	}

}
