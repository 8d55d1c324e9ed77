package io.github.poolpilot.tuning;

import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.measure.PoolSnapshot.LittlesLaw;

/**
 * What a pool's windows measured, one after another: its base service time
 * ({@link BaseServiceTime}) and the noise of its throughput and of its mean service time
 * ({@link WindowNoise}), which only windows at one size throughout measure. Each window
 * adds to them and the controller's rules read them; a restored cut and a surge on an
 * estimate may set the base ({@link BaseServiceTime#rebase},
 * {@link BaseServiceTime#estimate}).
 *
 * @author poolpilot authors
 */
final class WindowMeasures {

	private final BaseServiceTime base = new BaseServiceTime();

	private final WindowNoise throughputs = new WindowNoise();

	private final WindowNoise serviceTimes = new WindowNoise();

	/**
	 * The size the pool has had since the last window closed, -1 when it changed since
	 * (or before the first window): only windows at one size throughout measure the
	 * noise.
	 */
	private int windowSize = -1;

	/**
	 * The pool's size when the last window closed, -1 before the first.
	 */
	private int closedSize = -1;

	/**
	 * Whether the next size applied is the one the window decided, which the next window
	 * starts with.
	 */
	private boolean opening;

	/**
	 * Add the window that just closed.
	 * @param snapshot the window
	 * @param size the pool's size now
	 * @param refused the tasks the pool refused in it
	 */
	void add(PoolSnapshot snapshot, int size, long refused) {
		LittlesLaw law = snapshot.littlesLaw();
		int held = (this.windowSize == size) ? size : -1;
		long completions = snapshot.windowCompletions();
		this.throughputs.add(held, law.throughput());
		if (completions > 0 && law.meanServiceTimeMs() > 0) {
			// Threads added since the last window closed are busy with tasks that mostly
			// end in the next: the window is judged saturated at the smaller size, so
			// that the window after a step up does not let the kept base go. A window
			// that refused work for want of a thread or a place in the queue was
			// congested whatever X·S says: every thread was busy when it refused, and
			// the tasks that ended are those begun earliest, so X·S counts fewer busy
			// than there were; its service time, taken for the work's own, would let
			// the base climb with the pool.
			int measuredSize = (this.closedSize > 0) ? Math.min(size, this.closedSize) : size;
			this.base.add(law.meanServiceTimeMs(), completions, size,
					ClosedWindow.saturated(snapshot, measuredSize) || refused > 0);
			this.serviceTimes.add(held, law.meanServiceTimeMs());
		}
		else {
			this.serviceTimes.add(-1, Double.NaN);
		}
		this.closedSize = size;
	}

	/**
	 * The window decided the pool's size: the next size applied opens the next window.
	 */
	void decided() {
		this.opening = true;
	}

	/**
	 * The pool got {@code threads}: a window during which its size changed measures no
	 * noise.
	 */
	void applied(int threads) {
		if (this.opening) {
			this.windowSize = threads;
			this.opening = false;
		}
		else if (threads != this.windowSize) {
			this.windowSize = -1;
		}
	}

	BaseServiceTime base() {
		return this.base;
	}

	WindowNoise throughputs() {
		return this.throughputs;
	}

	WindowNoise serviceTimes() {
		return this.serviceTimes;
	}

}
