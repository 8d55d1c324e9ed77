package io.github.poolpilot.schedule;

import io.github.poolpilot.measure.ScheduledRuns;

/**
 * When each run of a scheduled task was due, on the pool's recorder's clock: known from
 * the schedule itself, so that a run's lateness needs nothing from the executor. One
 * {@code Due} belongs to one task, whose runs never overlap.
 *
 * @author poolpilot authors
 */
public interface Due {

	/**
	 * Return when the run starting now was due.
	 * @return the due time in nanoseconds on the recorder's clock
	 */
	long dueAt();

	/**
	 * The run ended: a periodic task learns when its next run is due.
	 * @param endedAt when it ended
	 * @param runs where an overrun is counted
	 */
	default void ran(long endedAt, ScheduledRuns runs) {
	}

	/**
	 * Return the due time of a task that runs once.
	 * @param dueAt when it is due
	 * @return its due time
	 */
	static Due once(long dueAt) {
		return () -> dueAt;
	}

	/**
	 * Return the due times of a task run at a fixed rate: the first, then one period
	 * after the other, however long each run takes. A run still running when the next is
	 * due overran: the next starts late.
	 * @param firstAt when the first run is due
	 * @param periodNanos the period
	 * @return its due times
	 */
	static Due fixedRate(long firstAt, long periodNanos) {
		return new Due() {

			private long next = firstAt;

			@Override
			public long dueAt() {
				return this.next;
			}

			@Override
			public void ran(long endedAt, ScheduledRuns runs) {
				this.next += periodNanos;
				if (endedAt > this.next) {
					runs.overran();
				}
			}

		};
	}

	/**
	 * Return the due times of a task run with a fixed delay: the first, then each a delay
	 * after the previous run ended. Such a task never overruns.
	 * @param firstAt when the first run is due
	 * @param delayNanos the delay
	 * @return its due times
	 */
	static Due fixedDelay(long firstAt, long delayNanos) {
		return new Due() {

			private long next = firstAt;

			@Override
			public long dueAt() {
				return this.next;
			}

			@Override
			public void ran(long endedAt, ScheduledRuns runs) {
				this.next = endedAt + delayNanos;
			}

		};
	}

}
