package io.github.poolpilot.benchmarks.scenarios;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.LockSupport;

import org.jspecify.annotations.Nullable;

/**
 * What a task does on a real thread: it burns a fixed amount of its own thread's CPU
 * time, so that CPU work takes longer in wall time when more threads share the cores,
 * then blocks for a fixed wall time, through a downstream's permits if it has one.
 *
 * @author poolpilot authors
 */
final class Work {

	private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

	/**
	 * Keeps the spin loop's arithmetic alive.
	 */
	static volatile long sink;

	private Work() {
	}

	/**
	 * Do one task's work.
	 * @param cpuNanos thread CPU time to burn
	 * @param blockNanos wall time to block
	 * @param downstream the downstream's permits, or {@code null} when it admits any
	 * number of calls
	 * @return whether the work was done; {@code false} when the thread was interrupted,
	 * as at the end of a run
	 */
	static boolean perform(long cpuNanos, long blockNanos, @Nullable Semaphore downstream) {
		if (cpuNanos > 0 && !burnCpu(cpuNanos)) {
			return false;
		}
		if (blockNanos <= 0) {
			return true;
		}
		if (downstream == null) {
			return block(blockNanos);
		}
		try {
			downstream.acquire();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
		try {
			return block(blockNanos);
		}
		finally {
			downstream.release();
		}
	}

	/**
	 * Spin until the current thread used the given CPU time, checking the thread's CPU
	 * clock every few microseconds of arithmetic.
	 */
	static boolean burnCpu(long nanos) {
		long end = THREADS.getCurrentThreadCpuTime() + nanos;
		long value = 0;
		while (THREADS.getCurrentThreadCpuTime() < end) {
			if (Thread.currentThread().isInterrupted()) {
				return false;
			}
			for (int i = 0; i < 500; i++) {
				value = value * 31 + i;
			}
		}
		sink = value;
		return true;
	}

	/**
	 * Park until the given wall time passed.
	 */
	static boolean block(long nanos) {
		long deadline = System.nanoTime() + nanos;
		long left;
		while ((left = deadline - System.nanoTime()) > 0) {
			if (Thread.currentThread().isInterrupted()) {
				return false;
			}
			LockSupport.parkNanos(left);
		}
		return true;
	}

}
