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
 * and after {@value #KEPT_WINDOWS} windows in any case.
 *
 * @author poolpilot authors
 */
final class BaseServiceTime {

	/**
	 * The most windows a least is kept beyond the last
	 * {@value PoolController#BASE_WINDOWS}.
	 */
	static final int KEPT_WINDOWS = 300;

	private final RecentValues recent = new RecentValues(PoolController.BASE_WINDOWS);

	private @Nullable Least least;

	/**
	 * Add a window's mean service time.
	 * @param serviceMs the mean service time
	 * @param size the pool's size in the window
	 * @param saturated whether the pool was saturated in it
	 */
	void add(double serviceMs, int size, boolean saturated) {
		this.recent.add(serviceMs);
		Least least = this.least;
		boolean slower = least != null && size <= least.size && serviceMs > SlowdownRule.SLOWDOWN * least.serviceMs;
		if (least == null || serviceMs <= least.serviceMs || !saturated || slower || least.windows >= KEPT_WINDOWS) {
			this.least = new Least(serviceMs, size, 0);
		}
		else {
			this.least = new Least(least.serviceMs, least.size, least.windows + 1);
		}
	}

	/**
	 * Add a service time estimated between windows, before any window measured one.
	 * @param serviceMs the estimate
	 */
	void estimate(double serviceMs) {
		this.recent.add(serviceMs);
	}

	/**
	 * Return the base service time, NaN while none was measured.
	 */
	double min() {
		Least least = this.least;
		double recent = this.recent.min();
		return (least != null && !(recent <= least.serviceMs)) ? least.serviceMs : recent;
	}

	/**
	 * The least service time measured, the size it was measured at, and the windows
	 * since.
	 */
	private record Least(double serviceMs, int size, int windows) {
	}

}
