package io.github.poolpilot.execution;

import java.util.Collection;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A virtual pool's limit, the permits in use under it and the pool's run state. The run
 * state sits in the high bits and the permits in use in the low bits of one int, so that
 * taking a permit and leaving the running state are one atomic decision, as in
 * {@code ThreadPoolExecutor}'s ctl.
 *
 * @author poolpilot authors
 */
final class Permits {

	private static final int COUNT_BITS = Integer.SIZE - 3;

	private static final int COUNT_MASK = (1 << COUNT_BITS) - 1;

	private static final int RUNNING = 0;

	/**
	 * No new task; queued tasks still run.
	 */
	private static final int SHUTDOWN = 1 << COUNT_BITS;

	/**
	 * No task starts any more; queued ones were handed back.
	 */
	private static final int STOP = 2 << COUNT_BITS;

	/**
	 * Nothing runs or ever will.
	 */
	private static final int TERMINATED = 3 << COUNT_BITS;

	private final AtomicInteger ctl = new AtomicInteger(RUNNING);

	private final CountDownLatch termination = new CountDownLatch(1);

	private volatile int limit;

	private volatile int largest;

	Permits(int limit) {
		this.limit = limit;
	}

	/**
	 * Take a permit: for a new task only while running, for a queued one also while
	 * shutting down.
	 */
	boolean tryAcquire(boolean queued) {
		for (;;) {
			int c = this.ctl.get();
			int state = runState(c);
			if (state > SHUTDOWN || (state == SHUTDOWN && !queued) || permits(c) >= this.limit) {
				return false;
			}
			if (this.ctl.compareAndSet(c, c + 1)) {
				int inUse = permits(c) + 1;
				if (inUse > this.largest) {
					// A racy maximum is good enough for a statistic.
					this.largest = inUse;
				}
				return true;
			}
		}
	}

	void release() {
		this.ctl.decrementAndGet();
	}

	/**
	 * Return the permits in use: tasks started and not yet ended.
	 */
	int inUse() {
		return permits(this.ctl.get());
	}

	/**
	 * Return the most permits that were ever in use at once.
	 */
	int largest() {
		return this.largest;
	}

	int limit() {
		return this.limit;
	}

	/**
	 * Set the limit.
	 * @return whether it grew, so that queued tasks may start
	 */
	boolean setLimit(int limit) {
		int previous = this.limit;
		this.limit = limit;
		return limit > previous;
	}

	boolean isRunning() {
		return this.ctl.get() < SHUTDOWN;
	}

	/**
	 * Return whether no task starts any more: a task started meanwhile runs interrupted.
	 */
	boolean isStopping() {
		return runState(this.ctl.get()) >= STOP;
	}

	boolean isTerminated() {
		return runState(this.ctl.get()) == TERMINATED;
	}

	/**
	 * Take no new task; queued tasks still run.
	 */
	void shutdown() {
		advanceRunState(SHUTDOWN);
	}

	/**
	 * Start no task any more.
	 */
	void stop() {
		advanceRunState(STOP);
	}

	private void advanceRunState(int target) {
		for (;;) {
			int c = this.ctl.get();
			if (runState(c) >= target || this.ctl.compareAndSet(c, target | permits(c))) {
				return;
			}
		}
	}

	/**
	 * Terminate once shut down, nothing runs and nothing is queued.
	 * @return whether this call terminated the pool: its hook runs then, before
	 * {@link #terminated()}
	 */
	boolean terminate(Collection<?> queue) {
		for (;;) {
			int c = this.ctl.get();
			int state = runState(c);
			if (state == RUNNING || state == TERMINATED || permits(c) > 0 || !queue.isEmpty()) {
				return false;
			}
			if (this.ctl.compareAndSet(c, TERMINATED)) {
				return true;
			}
		}
	}

	/**
	 * Release those who await termination, once the pool's hook ran.
	 */
	void terminated() {
		this.termination.countDown();
	}

	boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
		return this.termination.await(timeout, unit);
	}

	/**
	 * Describe the run state, the limit and the permits in use, read at one moment.
	 */
	@Override
	public String toString() {
		int c = this.ctl.get();
		String state = (runState(c) == RUNNING) ? "Running" : (isTerminated() ? "Terminated" : "Shutting down");
		return state + ", limit = " + this.limit + ", permits in use = " + permits(c);
	}

	private static int runState(int c) {
		return c & ~COUNT_MASK;
	}

	private static int permits(int c) {
		return c & COUNT_MASK;
	}

}
