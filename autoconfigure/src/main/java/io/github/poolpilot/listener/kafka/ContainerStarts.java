package io.github.poolpilot.listener.kafka;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

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
	 * wait until each consumer was assigned.
	 * @param concurrency the consumers
	 * @return the last try's failure, or {@code null} when it started (or the restarts
	 * were closed meanwhile)
	 * @throws InterruptedException if interrupted while pausing or waiting
	 */
	@Nullable RuntimeException start(int concurrency) throws InterruptedException {
		RuntimeException failed = null;
		for (int tried = 0; tried < TRIES && !this.closed.getAsBoolean(); tried++) {
			if (tried > 0) {
				this.pause.pause(PAUSE);
			}
			try {
				this.assignments.expect(concurrency);
				this.container.setConcurrency(concurrency);
				this.container.start();
				if (this.closed.getAsBoolean()) {
					// Closing gave up waiting for this restart.
					stopWhatStarted();
					return null;
				}
				awaitAssignments(concurrency);
				return null;
			}
			catch (RuntimeException ex) {
				failed = ex;
				stopWhatStarted();
			}
		}
		return failed;
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
