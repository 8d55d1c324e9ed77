package io.github.poolpilot.tuning;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.Surge;

/**
 * One pool's fast path: between two measurement windows it compares the arrivals of each
 * short interval with the last window's, and meets a load step at once. A surge is the
 * pool saturated (every thread busy, tasks waiting) with its queue growing, more arrivals
 * than the last window's rate explains (twice as many, and beyond four standard
 * deviations of a Poisson count), and more than the pool's threads serve at the base
 * service time. It then grows straight to the model's size for the short interval's
 * arrival rate, a tenth beyond it, without the ×1.5 step of the windows: a load step is
 * not a downstream's limit, and where a knee has been seen the step stops half beyond it.
 * The pulses after a surge refine it until the next window, since the interval that saw
 * the step began before it. A steady overload (the last window's rate) is left to the
 * windows, so a downstream that admits fewer calls than the load needs is still
 * approached in judged steps.
 *
 * @author poolpilot authors
 */
final class SurgeWatch {

	static final double SURGE_RATIO = 2;

	static final double SURGE_SIGMAS = 4;

	private @Nullable PoolPulse last;

	/**
	 * Whether nothing was offered to the pool in the last interval read.
	 */
	private boolean idle;

	/**
	 * Whether a surge was met since the last window: the next pulses refine it.
	 */
	private boolean surging;

	/**
	 * The least service time the pulses estimated while no window had measured one: an
	 * estimate on a pool grown by the surge counts the waiting its own threads cause (at
	 * a downstream's limit), and would ask for more threads the more it has.
	 */
	private double estimatedServiceMs = Double.NaN;

	/**
	 * The pool's busy thread-milliseconds over the intervals read while no window had
	 * measured a service time.
	 */
	private double busyMs;

	/**
	 * The tasks the pool finished over those intervals.
	 */
	private long ended;

	/**
	 * Read a pulse and say whether the pool meets a surge.
	 * @param now the pool now
	 * @param windowArrivalRate the last window's arrival rate, NaN before the first
	 * window
	 * @param baseServiceMs the base service time S₀, NaN while unknown
	 * @param largest the most threads a step may reach: its bounds, Goetz's size and half
	 * beyond a knee seen
	 * @param mayGrow whether the pool may grow at all now (not while the process CPU is
	 * busy)
	 * @return a decision to grow, or {@code null}
	 */
	@Nullable Decision check(PoolPulse now, double windowArrivalRate, double baseServiceMs, int largest, boolean mayGrow) {
		PoolPulse last = this.last;
		this.last = now;
		this.idle = last != null && now.arrivals() == last.arrivals();
		if (!mayGrow || last == null || Double.isNaN(windowArrivalRate) || now.atNanos() <= last.atNanos()) {
			return null;
		}
		long arrivals = now.arrivals() - last.arrivals();
		long completions = now.completions() - last.completions();
		double seconds = (now.atNanos() - last.atNanos()) / 1e9;
		if (Double.isNaN(baseServiceMs)) {
			// The busy threads are the mean of the interval's ends while its size held:
			// a pool that was idle at its start was not busy throughout it.
			double busy = (last.size() == now.size()) ? (last.activeThreads() + now.activeThreads()) / 2.0
					: now.activeThreads();
			this.busyMs += busy * seconds * 1000;
			this.ended += completions;
		}
		boolean saturated = now.activeThreads() >= now.size() && now.queued() > 0;
		// Falling behind: the queue grew, or a full one turned tasks away. Once a surge
		// was met, the next pulses refine it: the interval that saw the step began before
		// it, so its rate was short of the new one.
		if (!this.surging && (!saturated || arrivals <= completions)) {
			return null;
		}
		double expected = windowArrivalRate * seconds;
		if (arrivals <= SURGE_RATIO * expected
				|| arrivals <= expected + SURGE_SIGMAS * Math.sqrt(Math.max(1, expected))) {
			return null;
		}
		double arrivalRate = arrivals / seconds;
		double serviceMs = baseServiceMs;
		if (Double.isNaN(serviceMs)) {
			// A pool that never finished a task in a window: Little's law on the
			// intervals read so far, their busy threads over their completions. Not on
			// this interval alone: 100 ms end a task or two of a few threads, and one
			// task more or less halves or doubles the estimate.
			serviceMs = (this.ended > 0) ? this.busyMs / this.ended : Double.NaN;
			if (!Double.isNaN(serviceMs) && !(serviceMs >= this.estimatedServiceMs)) {
				this.estimatedServiceMs = serviceMs;
			}
			serviceMs = Double.isNaN(this.estimatedServiceMs) ? serviceMs : this.estimatedServiceMs;
		}
		int need;
		int target;
		if (Double.isNaN(serviceMs)) {
			// No service time at all: double once, and let the window measure one.
			if (this.surging) {
				return null;
			}
			need = 2 * now.size();
			target = need;
		}
		else {
			double offered = arrivalRate * serviceMs / 1000;
			if (!this.surging && offered <= now.size()) {
				return null;
			}
			need = SizingModel.staffed(offered);
			target = need + Math.max(1, need / 10);
		}
		target = Math.min(now.bounds().clamp(target), Math.max(now.size(), largest));
		// A refinement must be worth a resize: its rate is as noisy as the first one's.
		int least = this.surging ? now.size() + Math.max(2, now.size() / 10) : now.size() + 1;
		if (target < least) {
			return null;
		}
		this.surging = true;
		return Decision.change(Action.GROW, now.size(), target,
				new Surge(arrivalRate, windowArrivalRate, now.queued(), need), null, true);
	}

	/**
	 * Return the least service time the pulses estimated while no window had measured
	 * one, NaN when none did.
	 */
	double estimatedServiceMs() {
		return this.estimatedServiceMs;
	}

	/**
	 * A window closed: the windows judge the surge from now on.
	 */
	void windowClosed() {
		this.surging = false;
	}

	/**
	 * Return whether nothing was offered to the pool between the last two pulses.
	 * @return whether the last interval had no arrivals
	 */
	boolean idle() {
		return this.idle;
	}

}
