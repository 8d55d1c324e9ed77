package io.github.poolpilot.measure;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.jspecify.annotations.Nullable;

/**
 * One thread's running totals for one pool, the tasks it submitted and those it ran,
 * written by that thread alone and read by the sampler. A single writer needs no atomic
 * read-modify-write: each update is a plain add published with a release store, read with
 * an acquire load, so that a reader that sees a task's end also sees everything counted
 * before it; on x86 both cost what plain accesses do.
 * <p>
 * A pool whose threads each run one task (a virtual pool) would make one of these per
 * task; its threads share a few {@link #shared() shared} totals instead, updated with
 * atomic adds.
 *
 * @author poolpilot authors
 */
final class WorkerTotals {

	static final int COMPLETED = 0;

	static final int FAILED = 1;

	static final int TIMED = 2;

	static final int QUEUE_WAIT_NANOS = 3;

	static final int SERVICE_NANOS = 4;

	static final int SAMPLED_SERVICE_NANOS = 5;

	static final int SAMPLED_CPU_NANOS = 6;

	/**
	 * Tasks the thread submitted to the pool; a count of the submitting side, read after
	 * every other field of every thread (see {@link TaskTotals}).
	 */
	static final int SUBMITTED = 7;

	/**
	 * Tasks the thread started for the pool, less those it did not run (refused then, or
	 * abandoned before): the count a pool that takes its arrivals from its tasks'
	 * outcomes reads in place of the submits (see
	 * {@link TotalsReader#countArrivalsByOutcome}), read after every end, as
	 * {@link #SUBMITTED} is.
	 */
	static final int STARTED = 8;

	/**
	 * Tasks the thread started but did not run, refused then or abandoned before, for a
	 * pool that counts its tasks' ends itself (see {@link TotalsReader#countEndsByPool}):
	 * they ran through its loop but did not end.
	 */
	static final int NOT_RUN_AFTER_START = 9;

	static final int FIELDS = 10;

	/**
	 * A cache line of padding on each side, so that two workers' totals never share one.
	 */
	private static final int PADDING = 8;

	private static final VarHandle VALUES = MethodHandles.arrayElementVarHandle(long[].class);

	private final long[] values = new long[PADDING + FIELDS + PADDING];

	/**
	 * The only thread that writes, or {@code null} when threads share these totals.
	 */
	private final @Nullable Thread owner;

	/**
	 * How many more of the owner's submits go untimed before the next timed one, drawn
	 * for one task in {@link #drawnEvery} timed
	 * ({@link TimingSample#timesThisTask(WorkerTotals)}); read and written by the owner
	 * alone.
	 */
	int untimedLeft;

	/**
	 * The share of timed tasks {@link #untimedLeft} was drawn for, 0 before any draw.
	 */
	int drawnEvery;

	WorkerTotals() {
		this(Thread.currentThread());
	}

	private WorkerTotals(@Nullable Thread owner) {
		this.owner = owner;
	}

	/**
	 * Return totals that any thread may add to.
	 * @return new shared totals
	 */
	static WorkerTotals shared() {
		return new WorkerTotals(null);
	}

	void add(int field, long amount) {
		int index = PADDING + field;
		if (this.owner != null) {
			VALUES.setRelease(this.values, index, this.values[index] + amount);
		}
		else {
			VALUES.getAndAdd(this.values, index, amount);
		}
	}

	/**
	 * Add to a field that a reader must see as soon as it sees the pool count the task as
	 * run, for a pool that counts its tasks' ends itself
	 * ({@link TotalsReader#countEndsByPool}): a failure, or a task started but not run.
	 * The release store orders what came before it, not what comes after: the pool's own
	 * count of the task, a plain write once the task's hooks returned
	 * ({@code ThreadPoolExecutor}'s per-worker {@code completedTasks}), could otherwise
	 * become visible first on a processor that reorders stores (ARM, POWER), and a read
	 * between the two would take the task for completed. A release fence after the add
	 * keeps that write behind it; it costs nothing on x86, which keeps stores in order,
	 * and it is paid only by these tasks, never by one that completed.
	 * @param field the field
	 * @param amount the amount
	 */
	void addBeforeTheEnd(int field, long amount) {
		add(field, amount);
		VarHandle.releaseFence();
	}

	/**
	 * Count a task's end: a failure before the pool counts it as run
	 * ({@link #addBeforeTheEnd}), a completion plainly.
	 * @param failed whether it failed
	 */
	void ended(boolean failed) {
		if (failed) {
			addBeforeTheEnd(FAILED, 1);
		}
		else {
			add(COMPLETED, 1);
		}
	}

	/**
	 * Add one to a field of totals that a thread owns, on that thread.
	 * @param field the field
	 */
	void addOwn(int field) {
		int index = PADDING + field;
		VALUES.setRelease(this.values, index, this.values[index] + 1);
	}

	long get(int field) {
		return (long) VALUES.getAcquire(this.values, PADDING + field);
	}

	/**
	 * Return whether the owning thread ended; once it has, every write it made is visible
	 * to the caller. Shared totals never end.
	 */
	boolean ownerEnded() {
		return this.owner != null && !this.owner.isAlive();
	}

}
