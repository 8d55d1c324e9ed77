package io.github.poolpilot.tuning;

/**
 * A growth step being judged: how it was made, the figures of the window before it, and
 * the windows since.
 *
 * @author poolpilot authors
 */
final class Step {

	final Kind kind;

	final int from;

	final int to;

	/**
	 * The throughput before the step: the window before it, or the mean of the windows at
	 * its size before it ({@link #levelBefore}).
	 */
	double throughputBefore;

	/**
	 * How many windows {@link #throughputBefore} is the mean of.
	 */
	int windowsBefore = 1;

	final long completionsBefore;

	final double serviceMsBefore;

	final double queueWaitMsBefore;

	/**
	 * The share of the offered tasks refused in the window before the step, 0 when
	 * unknown.
	 */
	double refusedBefore;

	int windows;

	private double throughputSum;

	private long completions;

	Step(Kind kind, int from, int to, double throughputBefore, long completionsBefore, double serviceMsBefore,
			double queueWaitMsBefore) {
		this.kind = kind;
		this.from = from;
		this.to = to;
		this.throughputBefore = throughputBefore;
		this.completionsBefore = completionsBefore;
		this.serviceMsBefore = serviceMsBefore;
		this.queueWaitMsBefore = queueWaitMsBefore;
	}

	/**
	 * A step taken as a window closes, from the window's size: judged against the
	 * window's throughput, its completions, its service time as a step's
	 * ({@link ClosedWindow#stepServiceMs}), its queue wait and the share it refused.
	 * @param kind how the step was made
	 * @param window the window that just closed
	 * @param to the size the step takes the pool to
	 * @return the step
	 */
	static Step after(Kind kind, ClosedWindow window, int to) {
		return new Step(kind, window.size, to, window.throughput(), window.completions, window.stepServiceMs(),
				window.law.meanQueueWaitMs())
			.refusing(window.refusedShare());
	}

	/**
	 * The same step, to another size: the size the budget let the pool have.
	 */
	Step to(int to) {
		return new Step(this.kind, this.from, to, this.throughputBefore, this.completionsBefore, this.serviceMsBefore,
				this.queueWaitMsBefore)
			.refusing(this.refusedBefore)
			.levelBefore(this.throughputBefore, this.windowsBefore);
	}

	/**
	 * The same step, compared with the mean throughput of the windows at its size before
	 * it rather than with the last one alone.
	 * @param throughput their mean throughput
	 * @param windows how many they were, none to keep the last window's
	 */
	Step levelBefore(double throughput, int windows) {
		if (windows > 0 && !Double.isNaN(throughput)) {
			this.throughputBefore = throughput;
			this.windowsBefore = windows;
		}
		return this;
	}

	/**
	 * The same step, knowing the share of the offered tasks refused before it.
	 */
	Step refusing(double share) {
		this.refusedBefore = share;
		return this;
	}

	/**
	 * Return whether the service time rose with the threads the step added, by at least
	 * {@value PoolController#WASTED} of their share: they only waited elsewhere.
	 */
	boolean wasted(double serviceMs) {
		return wasted(serviceMs, 0);
	}

	/**
	 * Return whether the service time rose with the threads the step added, by at least
	 * {@value PoolController#WASTED} of their share beyond a margin for its noise.
	 * @param serviceMs the mean service time since the step
	 * @param noise the relative rise that its noise alone may explain
	 */
	boolean wasted(double serviceMs, double noise) {
		return this.serviceMsBefore > 0
				&& serviceMs / this.serviceMsBefore - 1 - noise >= PoolController.WASTED * added();
	}

	double added() {
		return (double) (this.to - this.from) / this.from;
	}

	void measure(double throughput, long completions) {
		this.windows++;
		this.throughputSum += throughput;
		this.completions += completions;
	}

	/**
	 * The relative change of throughput, the step's windows against the one before.
	 */
	double gain() {
		return (this.throughputBefore > 0) ? (throughput() - this.throughputBefore) / this.throughputBefore : 0;
	}

	/**
	 * The mean throughput of the step's windows.
	 */
	double throughput() {
		return this.throughputSum / this.windows;
	}

	/**
	 * The standard error of that change, counting completions as Poisson: √(1/N₁ + 1/N₀).
	 */
	double relativeError() {
		return Math.sqrt(1.0 / Math.max(1, this.completions) + 1.0 / Math.max(1, this.completionsBefore));
	}

	/**
	 * The standard error of that change given the windows' noise: the relative variance
	 * of one window's throughput over the windows on either side, √(v·(1/n₁ + 1/n₀)), and
	 * never less than the Poisson error of the counts.
	 * @param relativeVariance the relative variance of one window's throughput
	 * ({@link WindowNoise#relativeVariance()})
	 */
	double relativeError(double relativeVariance) {
		return relativeError(relativeVariance, this.windows, this.completions);
	}

	/**
	 * The standard error the change will have once measured over so many windows, each
	 * ending as many tasks as the window before the step did.
	 * @param windows how many windows the step will be measured over
	 * @param relativeVariance the relative variance of one window's throughput
	 */
	double relativeErrorAfter(int windows, double relativeVariance) {
		return relativeError(relativeVariance, windows, this.completionsBefore * windows);
	}

	private double relativeError(double relativeVariance, int windows, long completions) {
		return WindowNoise.relativeError(relativeVariance, windows, completions, this.windowsBefore,
				this.completionsBefore * (long) this.windowsBefore);
	}

	/**
	 * How a step was made, which says how it is judged.
	 */
	enum Kind {

		/**
		 * A saturated pool grew: judged by its throughput.
		 */
		SATURATED,

		/**
		 * A pool that was not saturated but whose tasks waited was staffed up to the
		 * model: judged by where the wait went.
		 */
		STAFFING,

		/**
		 * The load rose between two windows: not judged by its throughput, which before
		 * it was that of a smaller load, but by its service time ({@link SurgeReview}): a
		 * knee it overshot is cut back to at once.
		 */
		SURGE,

		/**
		 * A pool that turned tasks away was staffed up to the model: kept unless its
		 * threads only waited elsewhere.
		 */
		REFUSING,

		/**
		 * A pool that turned tasks away on saturated cores took threads to hold them:
		 * kept, for threads there neither raise throughput nor keep their service time.
		 */
		BUFFERING,

		/**
		 * A probe down, judged by {@link DownProbe}: its throughput against the level
		 * before it.
		 */
		PROBE

	}

}
