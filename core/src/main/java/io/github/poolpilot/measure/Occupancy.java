package io.github.poolpilot.measure;

/**
 * The time integrals of a pool's queue length and of its busy threads over a window, the
 * L of Little's law for the queue and for the threads, taken from samples of the two
 * counts rather than from a clock read per task.
 * <p>
 * A sampler reads both counts at a fixed period h and each interval between two samples
 * adds its trapezoid, (n₀ + n₁) / 2 · Δt, to the integral; the window's close adds the
 * last one. A count changes by one at each task event, so over an interval holding k
 * events the true integral differs from the trapezoid by at most k · Δt: over a window,
 * the integral is off by at most h times the events in it, and a mean time derived from
 * it (integral divided by the tasks that finished) by at most about 2h (arrivals and
 * starts for the queue, starts and ends for the threads, per finished task). That is the
 * worst case, events bunched against the sample times; events at times unrelated to the
 * sampler's make the errors cancel, and the error of the mean falls as 1/√n with the n
 * tasks of the window.
 *
 * @author poolpilot authors
 */
final class Occupancy {

	private long lastAt;

	private int lastQueued;

	private int lastBusy;

	private double queuedNanos;

	private double busyNanos;

	private long longestGapNanos;

	Occupancy(long now) {
		this.lastAt = now;
	}

	/**
	 * Add the interval since the last sample.
	 * @param now the time of this sample
	 * @param queued the tasks queued now
	 * @param busy the threads running a task now
	 */
	synchronized void sample(long now, int queued, int busy) {
		long gap = now - this.lastAt;
		if (gap > 0) {
			this.queuedNanos += (this.lastQueued + (double) queued) / 2 * gap;
			this.busyNanos += (this.lastBusy + (double) busy) / 2 * gap;
			this.longestGapNanos = Math.max(this.longestGapNanos, gap);
		}
		this.lastAt = now;
		this.lastQueued = queued;
		this.lastBusy = busy;
	}

	/**
	 * Close the window with a last sample and start the next.
	 * @param now the time the window closes
	 * @param queued the tasks queued now
	 * @param busy the threads running a task now
	 * @return the closed window's integrals
	 */
	synchronized Window close(long now, int queued, int busy) {
		sample(now, queued, busy);
		Window window = new Window(this.queuedNanos, this.busyNanos, this.longestGapNanos);
		this.queuedNanos = 0;
		this.busyNanos = 0;
		this.longestGapNanos = 0;
		return window;
	}

	/**
	 * One window's integrals.
	 *
	 * @param queuedNanos the integral of the queue length, in task-nanoseconds
	 * @param busyNanos the integral of the busy threads, in thread-nanoseconds
	 * @param longestGapNanos the longest interval between two samples: the h of the error
	 * bound
	 */
	record Window(double queuedNanos, double busyNanos, long longestGapNanos) {

	}

}
