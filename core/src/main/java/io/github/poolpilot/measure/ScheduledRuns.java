package io.github.poolpilot.measure;

import java.util.concurrent.atomic.LongAdder;

import io.github.poolpilot.measure.PoolSnapshot.Latency;
import io.github.poolpilot.measure.PoolSnapshot.Lateness;

/**
 * What a scheduler's recorder keeps beyond a pool's: how much of each run's lateness
 * passed while every thread of the pool was busy with other runs, and the runs that
 * overran their task's next due time or made it skip one.
 * <p>
 * A run that starts late waited either for a thread (every thread was running another
 * run: more threads would have started it on time) or for a CPU (a thread was free, and
 * the machine could not run it yet: more threads would not help). The pool is every
 * thread busy from the moment its runs in flight reach its size to the moment one ends; a
 * run's lateness spent in the last such stretch is the part more threads would have
 * saved. Scheduled runs come a few a second, so a lock guards these few fields.
 *
 * @author poolpilot authors
 */
public final class ScheduledRuns {

	private static final long NEVER = Long.MIN_VALUE;

	/**
	 * How long a thread may take from the end of one run to the start of the next due one
	 * and still count as busy throughout: a hand-over, not a free thread.
	 */
	private static final long HAND_OVER_NANOS = 1_000_000;

	/**
	 * The stretches of time when every thread was busy that are remembered: enough for a
	 * run late by many runs of others, which hand-overs join into one stretch.
	 */
	private static final int STRETCHES = 32;

	private final LongAdder overruns = new LongAdder();

	private final LongAdder skipped = new LongAdder();

	// Guarded by this.

	private final long[] busyFrom = new long[STRETCHES];

	private final long[] busyTo = new long[STRETCHES];

	private int stretches;

	private int running;

	private long allBusySince = NEVER;

	private long windowRuns;

	private long windowBusyLateRuns;

	private long windowBusyLateNanos;

	private long windowMaxBusyLateNanos;

	/**
	 * A run started.
	 * @param dueAt when it was due, on the recorder's clock
	 * @param startedAt when it started
	 * @param threads the pool's size now
	 */
	public synchronized void started(long dueAt, long startedAt, int threads) {
		long busyLate = (startedAt > dueAt) ? busyBetween(dueAt, startedAt) : 0;
		this.windowRuns++;
		if (busyLate > 0) {
			this.windowBusyLateRuns++;
			this.windowBusyLateNanos += busyLate;
			this.windowMaxBusyLateNanos = Math.max(this.windowMaxBusyLateNanos, busyLate);
		}
		this.running++;
		if (this.running >= threads && this.allBusySince == NEVER) {
			this.allBusySince = startedAt;
		}
	}

	/**
	 * Return how long every thread was busy between two times, from the remembered
	 * stretches, newest first.
	 */
	private long busyBetween(long from, long to) {
		long busy = 0;
		for (int i = 1; i <= Math.min(this.stretches, STRETCHES); i++) {
			int slot = (this.stretches - i) % STRETCHES;
			if (this.busyTo[slot] <= from) {
				break;
			}
			busy += Math.max(0, Math.min(to, this.busyTo[slot]) - Math.max(from, this.busyFrom[slot]));
		}
		return busy;
	}

	/**
	 * A run ended: a thread is free again.
	 * @param endedAt when it ended, on the recorder's clock
	 */
	public synchronized void ended(long endedAt) {
		this.running = Math.max(0, this.running - 1);
		long since = this.allBusySince;
		if (since == NEVER) {
			return;
		}
		this.allBusySince = NEVER;
		int last = (this.stretches - 1) % STRETCHES;
		if (this.stretches > 0 && since - this.busyTo[last] <= HAND_OVER_NANOS) {
			this.busyTo[last] = endedAt;
			return;
		}
		int slot = this.stretches % STRETCHES;
		this.busyFrom[slot] = since;
		this.busyTo[slot] = endedAt;
		this.stretches = (this.stretches == Integer.MAX_VALUE) ? STRETCHES : this.stretches + 1;
	}

	/**
	 * A run was still running when its task's next run was due.
	 */
	public void overran() {
		this.overruns.increment();
	}

	/**
	 * Due times passed without a run while the task was running (a cron task's fire
	 * times).
	 * @param runs how many
	 */
	public void skipped(long runs) {
		if (runs > 0) {
			this.skipped.add(runs);
		}
	}

	/**
	 * Return the runs that overran so far.
	 * @return the overruns
	 */
	public long overruns() {
		return this.overruns.sum();
	}

	/**
	 * Return the due times skipped so far.
	 * @return the skipped runs
	 */
	public long skipped() {
		return this.skipped.sum();
	}

	/**
	 * Close the window.
	 * @param lateness the window's lateness of every run, which the pool's recorder
	 * measured as its queue wait
	 * @return the window's lateness figures
	 */
	synchronized Lateness close(Latency lateness) {
		double meanBusyMs = (this.windowRuns > 0) ? this.windowBusyLateNanos / 1e6 / this.windowRuns : 0;
		Lateness closed = new Lateness(lateness.meanMs(), lateness.p99Ms(), lateness.maxMs(), this.windowRuns,
				this.windowBusyLateRuns, meanBusyMs, this.windowMaxBusyLateNanos / 1e6, overruns(), skipped());
		this.windowRuns = 0;
		this.windowBusyLateRuns = 0;
		this.windowBusyLateNanos = 0;
		this.windowMaxBusyLateNanos = 0;
		return closed;
	}

}
