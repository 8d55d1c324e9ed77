package io.github.poolpilot.benchmarks.scenarios;

import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.Histogram;

/**
 * What happened to every task of one run: accepted or rejected, and when it ended. Worker
 * threads write each task's end; the figures are read once the run's pools terminated.
 * <p>
 * A task's latency runs from its <em>intended</em> start, its place in the
 * {@link Schedule}, to its end, so that a strategy whose pools or whose load generator
 * fell behind pays for it in full (no coordinated omission).
 *
 * @author poolpilot authors
 */
final class TaskLog {

	static final byte PENDING = 0;

	static final byte ACCEPTED = 1;

	static final byte REJECTED = 2;

	static final byte COMPLETED = 3;

	/**
	 * Interrupted while running at the end of the run.
	 */
	static final byte ABORTED = 4;

	private static final double NANOS_PER_MILLI = 1_000_000.0;

	private final Schedule schedule;

	private final long[] endNanos;

	private final byte[] outcome;

	private final LongAdder finished = new LongAdder();

	private long accepted;

	private long runNanos;

	TaskLog(Schedule schedule) {
		this.schedule = schedule;
		this.endNanos = new long[schedule.size()];
		this.outcome = new byte[schedule.size()];
	}

	Schedule schedule() {
		return this.schedule;
	}

	/**
	 * Mark a task as handed to its pool, before it is, so that the pool's thread sees the
	 * mark.
	 */
	void accepting(int task) {
		this.outcome[task] = ACCEPTED;
		this.accepted++;
	}

	/**
	 * Mark a task that its pool refused.
	 */
	void rejected(int task) {
		this.outcome[task] = REJECTED;
		this.accepted--;
	}

	/**
	 * Mark an accepted task that its pool refused when a thread took it (max-queue-wait),
	 * on that thread: it ends there, rejected.
	 */
	void refused(int task) {
		this.outcome[task] = REJECTED;
		this.finished.increment();
	}

	/**
	 * Record the end of a task, on the thread that ran it.
	 * @param task the task
	 * @param endNanos when it ended, from the start of the run
	 * @param done whether it did its work, or was interrupted
	 */
	void ended(int task, long endNanos, boolean done) {
		this.endNanos[task] = endNanos;
		this.outcome[task] = done ? COMPLETED : ABORTED;
		this.finished.increment();
	}

	/**
	 * Return how many accepted tasks did not end yet; read by the load generator's thread
	 * only.
	 */
	long unfinished() {
		return this.accepted - this.finished.sum();
	}

	/**
	 * Close the log once the pools terminated.
	 * @param runNanos how long the run lasted, drain included
	 */
	void close(long runNanos) {
		this.runNanos = runNanos;
	}

	long runNanos() {
		return this.runNanos;
	}

	int size() {
		return this.outcome.length;
	}

	byte outcome(int task) {
		return this.outcome[task];
	}

	long endNanos(int task) {
		return this.endNanos[task];
	}

	/**
	 * Return a task's latency from its intended start to its end; for a task that never
	 * ended, to the end of the run, which is less than its latency would have been.
	 */
	long latencyNanos(int task) {
		long end = (this.outcome[task] == COMPLETED) ? this.endNanos[task] : this.runNanos;
		return Math.max(0, end - this.schedule.intendedNanos(task));
	}

	/**
	 * Tasks of a pool (or of all pools, -1) that completed in a window, per second.
	 * @param pool the pool's index, or -1 for all
	 * @param window the seconds
	 * @return the throughput
	 */
	double throughput(int pool, Window window) {
		long completed = 0;
		for (int task = 0; task < size(); task++) {
			if (ofPool(task, pool) && this.outcome[task] == COMPLETED && window.contains(this.endNanos[task])) {
				completed++;
			}
		}
		return (double) completed / window.seconds();
	}

	/**
	 * The 99th percentile of the latencies of the tasks of a pool (or of all, -1) meant
	 * to arrive in a window that the pool accepted, rejected ones left out; a task that
	 * never ended counts with its latency so far.
	 * @param pool the pool's index, or -1 for all
	 * @param window the seconds the tasks were meant to arrive in
	 * @return the p99 in milliseconds, or NaN when no task was accepted
	 */
	double p99Ms(int pool, Window window) {
		Histogram histogram = new Histogram(3);
		for (int task = 0; task < size(); task++) {
			if (ofPool(task, pool) && accepted(task) && window.contains(this.schedule.intendedNanos(task))) {
				histogram.recordValue(latencyNanos(task));
			}
		}
		return p99Ms(histogram);
	}

	/**
	 * Tasks of a pool (or of all, -1) meant to arrive in a window that were rejected.
	 */
	long rejected(int pool, Window window) {
		long rejected = 0;
		for (int task = 0; task < size(); task++) {
			if (ofPool(task, pool) && this.outcome[task] == REJECTED
					&& window.contains(this.schedule.intendedNanos(task))) {
				rejected++;
			}
		}
		return rejected;
	}

	/**
	 * Tasks of a pool (or of all, -1) meant to arrive in a window that were not served by
	 * a deadline: refused, or accepted but not completed by then. Both a refused task and
	 * one still queued or running when the load ends count, so that a pool whose threads
	 * and queue hold work past the end is not credited for it.
	 * @param pool the pool's index, or -1 for all
	 * @param window the seconds the tasks were meant to arrive in
	 * @param deadlineNanos the deadline, from the start of the run
	 * @return the tasks not served
	 */
	long unserved(int pool, Window window, long deadlineNanos) {
		long unserved = 0;
		for (int task = 0; task < size(); task++) {
			if (ofPool(task, pool) && window.contains(this.schedule.intendedNanos(task))
					&& (this.outcome[task] != COMPLETED || this.endNanos[task] > deadlineNanos)) {
				unserved++;
			}
		}
		return unserved;
	}

	/**
	 * Tasks of a pool (or of all, -1) meant to arrive in a window.
	 */
	long offered(int pool, Window window) {
		long offered = 0;
		for (int task = 0; task < size(); task++) {
			if (ofPool(task, pool) && window.contains(this.schedule.intendedNanos(task))) {
				offered++;
			}
		}
		return offered;
	}

	/**
	 * Accepted tasks that had not completed when the run ended.
	 */
	long neverCompleted() {
		long count = 0;
		for (int task = 0; task < size(); task++) {
			if (this.outcome[task] == ACCEPTED || this.outcome[task] == ABORTED) {
				count++;
			}
		}
		return count;
	}

	/**
	 * Per second of the run, the tasks of a pool (or of all, -1) that completed in it and
	 * the 99th percentile of their latencies.
	 * @param pool the pool's index, or -1 for all
	 * @param seconds the seconds to report
	 * @return per second: offered, rejected, completed, p99 in ms (NaN when none
	 * completed)
	 */
	PerSecond perSecond(int pool, int seconds) {
		long[] offered = new long[seconds];
		long[] rejected = new long[seconds];
		long[] completed = new long[seconds];
		Histogram[] latencies = new Histogram[seconds];
		for (int task = 0; task < size(); task++) {
			if (!ofPool(task, pool)) {
				continue;
			}
			int arrival = (int) (this.schedule.intendedNanos(task) / Runs.SECOND);
			if (arrival < seconds) {
				offered[arrival]++;
				if (this.outcome[task] == REJECTED) {
					rejected[arrival]++;
				}
			}
			if (this.outcome[task] == COMPLETED) {
				int end = (int) (this.endNanos[task] / Runs.SECOND);
				if (end < seconds) {
					completed[end]++;
					if (latencies[end] == null) {
						latencies[end] = new Histogram(3);
					}
					latencies[end].recordValue(latencyNanos(task));
				}
			}
		}
		double[] p99 = new double[seconds];
		for (int second = 0; second < seconds; second++) {
			p99[second] = (latencies[second] != null) ? p99Ms(latencies[second]) : Double.NaN;
		}
		return new PerSecond(offered, rejected, completed, p99);
	}

	private boolean accepted(int task) {
		byte outcome = this.outcome[task];
		return outcome == ACCEPTED || outcome == COMPLETED || outcome == ABORTED;
	}

	private boolean ofPool(int task, int pool) {
		return pool < 0 || this.schedule.pool(task) == pool;
	}

	private static double p99Ms(Histogram histogram) {
		return (histogram.getTotalCount() == 0) ? Double.NaN : histogram.getValueAtPercentile(99) / NANOS_PER_MILLI;
	}

	/**
	 * Per-second task figures of a pool.
	 *
	 * @param offered tasks meant to arrive in each second
	 * @param rejected of those, the ones refused
	 * @param completed tasks that completed in each second
	 * @param p99Ms the 99th percentile of the latencies of those, NaN when none
	 */
	record PerSecond(long[] offered, long[] rejected, long[] completed, double[] p99Ms) {

	}

}
