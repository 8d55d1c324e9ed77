package io.github.poolpilot.benchmarks.scenarios;

import java.util.List;

/**
 * The figures of the summary that come from a per-second size series, computed the same
 * way for every strategy.
 *
 * @author poolpilot authors
 */
final class Figures {

	/**
	 * A size within this share of the final size counts as settled.
	 */
	static final double SETTLED_BAND = 0.10;

	private Figures() {
	}

	/**
	 * The seconds from the start of a window until the size stays within ±10 % of its
	 * size in the window's last second, to the window's end: 0 when it never left that
	 * band, as a static size never does.
	 * @param sizes the size in each second of the run
	 * @param window the window, from a change of load to the next
	 * @return the settle time in seconds
	 */
	static int settleSeconds(int[] sizes, Window window) {
		int last = Math.min(window.to(), sizes.length) - 1;
		int end = sizes[last];
		int settled = last;
		while (settled > window.from() && Math.abs(sizes[settled - 1] - end) <= SETTLED_BAND * end) {
			settled--;
		}
		return settled - window.from();
	}

	/**
	 * Size changes per minute in some windows: the seconds whose size differs from the
	 * second before, both seconds within the same window, per minute of the windows'
	 * total length.
	 * @param sizes the size in each second of the run
	 * @param windows the windows in which the size should stay put
	 * @return the changes per minute
	 */
	static double changesPerMinute(int[] sizes, List<Window> windows) {
		int changes = 0;
		int seconds = 0;
		for (Window window : windows) {
			int to = Math.min(window.to(), sizes.length);
			seconds += to - window.from();
			for (int second = window.from() + 1; second < to; second++) {
				if (sizes[second] != sizes[second - 1]) {
					changes++;
				}
			}
		}
		return (seconds == 0) ? 0 : changes * 60.0 / seconds;
	}

	/**
	 * The largest size in a window.
	 * @param sizes the size in each second of the run
	 * @param window the window
	 * @return the largest size
	 */
	static int max(int[] sizes, Window window) {
		int max = 0;
		for (int second = window.from(); second < Math.min(window.to(), sizes.length); second++) {
			max = Math.max(max, sizes[second]);
		}
		return max;
	}

	/**
	 * How far the size went beyond where it ended in a window in which it grew, as a
	 * share of the end size: 0 when it never went beyond, NaN when it ended below where
	 * it started (a step down has no overshoot).
	 * @param sizes the size in each second of the run
	 * @param window the window
	 * @return the overshoot, 0.5 for 50 %
	 */
	static double overshoot(int[] sizes, Window window) {
		int end = sizes[Math.min(window.to(), sizes.length) - 1];
		if (end <= 0 || end < sizes[window.from()]) {
			return Double.NaN;
		}
		return Math.max(0, (double) (max(sizes, window) - end) / end);
	}

	/**
	 * The seconds from a pool's last load until its live threads were down to a number,
	 * or -1 when that did not happen before the run's end (the pools' teardown after it
	 * does not count).
	 * @param liveThreads the pool's most live threads in each second
	 * @param loadEnd the second its last load ended
	 * @param threads the number to give back down to
	 * @param runEnd the second the run ended
	 * @return the seconds, or -1
	 */
	static int giveBackSeconds(int[] liveThreads, int loadEnd, int threads, int runEnd) {
		for (int second = loadEnd; second < Math.min(runEnd, liveThreads.length); second++) {
			if (liveThreads[second] <= threads) {
				return second - loadEnd;
			}
		}
		return -1;
	}

}
