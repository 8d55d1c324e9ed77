package io.github.poolpilot.tuning;

import org.jspecify.annotations.Nullable;

/**
 * A pool's base service time S₀, what a task takes when nothing is congested: the least
 * mean service time of the last {@value PoolController#BASE_WINDOWS} windows, or the
 * least measured before them while no window has said it no longer holds. Threads that
 * wait for one another (at a downstream's limit) lengthen the service time in proportion
 * to their number, so a base that followed every window of a crowded pool would grow with
 * the pool and ask for more threads the more it has. A window at as many threads as the
 * least was measured at, or fewer, whose service time is over
 * {@value SlowdownRule#SLOWDOWN}× it says the work itself became slower (a downstream
 * slower for every caller): the least measured before the last windows is let go then,
 * and after {@value #KEPT_WINDOWS} windows in any case. Only windows of work like the
 * last window's count: one that finished under a quarter of its tasks (a pool idle but
 * for its health checks, before its load) measured other tasks, and a least measured in
 * such a window is let go by the next congested window at as many threads or fewer. At
 * more threads it is kept while the pool stays congested: a pool that grew for a load
 * step after a light load (a few requests a second, then several times what a downstream
 * admits) finishes more tasks a window than the light load did, each longer by the wait
 * for its own threads, and letting the light load's least go for that made the first
 * congested window's time the base once the windows before it had left the last ones. A
 * cut that did not shorten the service time ({@link SlowdownRule}), in a window whose
 * ends were the smaller pool's own, shows it is the work's own: it is the base from then
 * on ({@link #rebase}).
 *
 * @author poolpilot authors
 */
final class BaseServiceTime {

	/**
	 * The most windows a least is kept beyond the last
	 * {@value PoolController#BASE_WINDOWS}.
	 */
	static final int KEPT_WINDOWS = 300;

	/**
	 * A window counts towards the base when it finished at least this share of the tasks
	 * the last window finished.
	 */
	static final double LIKE = 0.25;

	/**
	 * The windows of like work a base needs to be more than one window's measure.
	 */
	static final int MEASURED_WINDOWS = 2;

	private final double[] serviceMs = new double[PoolController.BASE_WINDOWS];

	private final long[] completions = new long[PoolController.BASE_WINDOWS];

	private int count;

	/**
	 * The tasks the last window finished.
	 */
	private long lastCompletions;

	private @Nullable Least least;

	/**
	 * Add a window's mean service time.
	 * @param serviceMs the mean service time
	 * @param completions the tasks it finished
	 * @param size the pool's size in the window
	 * @param congested whether the pool was congested in it: saturated, or refusing work
	 * for want of a thread or a place in its queue
	 */
	void add(double serviceMs, long completions, int size, boolean congested) {
		record(serviceMs, completions);
		this.lastCompletions = completions;
		Least least = this.least;
		boolean slower = least != null && size <= least.size && serviceMs > SlowdownRule.SLOWDOWN * least.serviceMs;
		// A congested window of more tasks at more threads does not tell other work from
		// the same work's calls waiting for one another: a least measured under a light
		// load, before the pool grew, is kept through it.
		boolean grown = least != null && size > least.size;
		if (least == null || serviceMs <= least.serviceMs || !congested || slower || least.windows >= KEPT_WINDOWS
				|| (!like(least.completions) && !grown)) {
			this.least = new Least(serviceMs, completions, size, 0);
		}
		else {
			this.least = new Least(least.serviceMs, least.completions, least.size, least.windows + 1);
		}
	}

	/**
	 * Take a window's service time as the base from now on, letting every earlier one go:
	 * fewer threads were seen not to shorten it, so it is the work's own, not the waiting
	 * of threads for one another.
	 * @param serviceMs the window's mean service time
	 * @param completions the tasks it finished
	 * @param size the pool's size in the window
	 */
	void rebase(double serviceMs, long completions, int size) {
		this.count = 0;
		this.least = null;
		add(serviceMs, completions, size, false);
	}

	/**
	 * Add a service time estimated between windows, before any window measured one: it
	 * counts whatever the windows after it finish.
	 * @param serviceMs the estimate
	 */
	void estimate(double serviceMs) {
		record(serviceMs, Long.MAX_VALUE);
	}

	private void record(double serviceMs, long completions) {
		int slot = this.count % this.serviceMs.length;
		this.serviceMs[slot] = serviceMs;
		this.completions[slot] = completions;
		this.count++;
	}

	/**
	 * Return the base service time, NaN while none was measured.
	 */
	double min() {
		double recent = Double.NaN;
		for (int i = 0; i < Math.min(this.count, this.serviceMs.length); i++) {
			if (like(this.completions[i]) && !(recent <= this.serviceMs[i])) {
				recent = this.serviceMs[i];
			}
		}
		Least least = this.least;
		return (least != null && !(recent <= least.serviceMs)) ? least.serviceMs : recent;
	}

	/**
	 * Return how many of the windows kept measured work like the last window's, the
	 * estimates between windows left out. A base from fewer than
	 * {@value #MEASURED_WINDOWS} is one window's: at a load's start, its first calls.
	 * @return the windows of like work
	 */
	int likeWindows() {
		int windows = 0;
		for (int i = 0; i < Math.min(this.count, this.serviceMs.length); i++) {
			if (this.completions[i] != Long.MAX_VALUE && like(this.completions[i])) {
				windows++;
			}
		}
		return windows;
	}

	/**
	 * Return whether a window that finished so many tasks did work like the last
	 * window's: one that finished far fewer (a pool idle but for health checks) measured
	 * other tasks.
	 */
	private boolean like(long completions) {
		return completions >= LIKE * this.lastCompletions;
	}

	/**
	 * The least service time measured, the tasks finished in its window, the size it was
	 * measured at, and the windows since.
	 */
	private record Least(double serviceMs, long completions, int size, int windows) {
	}

}
