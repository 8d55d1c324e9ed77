package io.github.poolpilot.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One worker thread's running totals for one pool, written by that thread alone and read
 * by the sampler. A single writer needs no atomic read-modify-write: each update is a
 * plain add published with a release store, read with an acquire load, so that a reader
 * that sees a task's end also sees everything counted before it; on x86 both cost what
 * plain accesses do.
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

	static final int FIELDS = 7;

	/**
	 * A cache line of padding on each side, so that two workers' totals never share one.
	 */
	private static final int PADDING = 8;

	private static final VarHandle VALUES = MethodHandles.arrayElementVarHandle(long[].class);

	private final long[] values = new long[PADDING + FIELDS + PADDING];

	private final Thread owner = Thread.currentThread();

	void add(int field, long amount) {
		int index = PADDING + field;
		VALUES.setRelease(this.values, index, this.values[index] + amount);
	}

	long get(int field) {
		return (long) VALUES.getAcquire(this.values, PADDING + field);
	}

	/**
	 * Return whether the owning thread ended; once it has, every write it made is visible
	 * to the caller.
	 */
	boolean ownerEnded() {
		return !this.owner.isAlive();
	}

}
