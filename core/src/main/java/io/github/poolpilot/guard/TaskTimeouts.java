package io.github.poolpilot.guard;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.measure.NanoClock;
import io.github.poolpilot.pool.ManagedPool;

/**
 * A pool's task timeout: a task that runs longer is interrupted and counted as timed out.
 * <p>
 * Each running task is watched by its thread, and a watchdog scans the watches a tenth of
 * the timeout apart (at least 10 ms, at most 1 s), so the submit and run paths pay a map
 * entry, not a scheduled task. A task that ignores interrupts, such as one blocked on
 * socket I/O that is not interruptible, keeps its thread until it ends; it is still
 * counted. The interrupt never leaks into the thread's next task: a task that ends while
 * the watchdog times it out waits for the interrupt to be delivered, then clears it.
 * <p>
 * This guard must come last among a pool's guards: it holds a watch from
 * {@link #beforeRun} to {@link #afterRun}.
 *
 * @author poolpilot authors
 */
public final class TaskTimeouts implements TaskGuard {

	private final ManagedPool pool;

	private final long timeoutNanos;

	private final NanoClock clock;

	private final Map<Thread, Watch> running = new ConcurrentHashMap<>();

	private final @Nullable ScheduledExecutorService watchdog;

	/**
	 * Create a timeout whose watchdog runs on a daemon thread of its own until the pool
	 * terminates.
	 * @param pool the pool it guards
	 * @param timeout how long a task may run
	 */
	public TaskTimeouts(ManagedPool pool, Duration timeout) {
		this(pool, timeout, NanoClock.SYSTEM, true);
	}

	TaskTimeouts(ManagedPool pool, Duration timeout, NanoClock clock, boolean watch) {
		if (timeout.isNegative() || timeout.isZero()) {
			throw new IllegalArgumentException(
					"timeout of pool '" + pool.getName() + "' must be a positive duration but was " + timeout);
		}
		this.pool = pool;
		this.timeoutNanos = timeout.toNanos();
		this.clock = clock;
		this.watchdog = watch ? startWatchdog() : null;
	}

	private ScheduledExecutorService startWatchdog() {
		ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, this.pool.getName() + "-timeouts");
			thread.setDaemon(true);
			return thread;
		});
		long period = Math.max(TimeUnit.MILLISECONDS.toNanos(10),
				Math.min(TimeUnit.SECONDS.toNanos(1), this.timeoutNanos / 10));
		watchdog.scheduleAtFixedRate(this::scan, period, period, TimeUnit.NANOSECONDS);
		return watchdog;
	}

	/**
	 * Return the timeout.
	 * @return how long a task may run
	 */
	public Duration getTimeout() {
		return Duration.ofNanos(this.timeoutNanos);
	}

	@Override
	public void beforeRun(long queueWaitNanos, boolean refusable) {
		Thread thread = Thread.currentThread();
		this.running.put(thread, new Watch(thread, this.clock.nanoTime()));
	}

	@Override
	public void afterRun(long serviceNanos, @Nullable Throwable failure) {
		Watch watch = this.running.remove(Thread.currentThread());
		if (watch != null) {
			watch.end();
		}
	}

	/**
	 * Interrupt every task that has run longer than the timeout.
	 */
	void scan() {
		long now = this.clock.nanoTime();
		for (Watch watch : this.running.values()) {
			if (now - watch.startedAt > this.timeoutNanos && watch.timeOut()) {
				this.pool.getRecorder().taskTimedOut();
			}
		}
	}

	@Override
	public void close() {
		if (this.watchdog != null) {
			this.watchdog.shutdownNow();
		}
	}

	/**
	 * One running task, as its thread and its start.
	 */
	private static final class Watch {

		private static final int RUNNING = 0;

		private static final int ENDED = 1;

		private static final int TIMING_OUT = 2;

		private static final int INTERRUPTED = 3;

		private final Thread thread;

		private final long startedAt;

		private final AtomicInteger state = new AtomicInteger(RUNNING);

		Watch(Thread thread, long startedAt) {
			this.thread = thread;
			this.startedAt = startedAt;
		}

		/**
		 * Interrupt the task unless it ended; return whether it was interrupted.
		 */
		boolean timeOut() {
			if (!this.state.compareAndSet(RUNNING, TIMING_OUT)) {
				return false;
			}
			this.thread.interrupt();
			this.state.set(INTERRUPTED);
			return true;
		}

		/**
		 * Called by the task's thread when it ended: if it was timed out meanwhile, wait
		 * for the interrupt to land and clear it, so that the next task does not see it.
		 */
		void end() {
			if (this.state.compareAndSet(RUNNING, ENDED)) {
				return;
			}
			while (this.state.get() != INTERRUPTED) {
				Thread.onSpinWait();
			}
			Thread.interrupted();
		}

	}

}
