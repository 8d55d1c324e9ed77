package io.github.poolpilot.tuning;

import io.github.poolpilot.measure.NanoClock;

/**
 * Where more threads stopped paying, in threads, as a pool's controller last saw it: a
 * kept step that raised throughput clearly less than in proportion, or a probe down or a
 * cut that lost throughput. A kept step whose throughput rose within its noise measured
 * only that the knee lies at most where it began: such a knee is a bound, which caps
 * growth as a knee found from below does, but does not keep probes down from starting
 * near it ({@link #near}); one whose throughput rose beyond its noise began below the
 * knee and found it. A step that lowers a found knee keeps it found. Forgotten after
 * {@link Backoff#LONGEST}, so that a downstream that widened is found again.
 *
 * @author poolpilot authors
 */
final class Knee {

	/**
	 * How far beyond the knee the threads a window's throughput keeps busy must be for
	 * the knee to be forgotten: a fifth, beyond a window's noise.
	 */
	static final double OUTGROWN = 1.2;

	/**
	 * The threads a pool keeps beyond a knee, as a share of it.
	 */
	static final double MARGIN = 0.1;

	private final NanoClock clock;

	private double threads;

	/**
	 * The throughput the knee was seen at.
	 */
	private double throughput = Double.NaN;

	private long knownUntil;

	/**
	 * Whether the knee is only a bound, taught by a kept step.
	 */
	private boolean bound;

	Knee(NanoClock clock) {
		this.clock = clock;
	}

	/**
	 * Return the threads a pool keeps for a knee of so many threads, or for so many
	 * threads kept busy at a base service time: a tenth beyond them ({@value #MARGIN}),
	 * rounded up.
	 * @param threads the knee's threads
	 */
	static int withMargin(double threads) {
		return (int) Math.ceil(threads * (1 + MARGIN));
	}

	/**
	 * Learn the knee.
	 * @param threads where more threads stopped paying
	 * @param throughput the throughput seen there
	 */
	void learn(double threads, double throughput) {
		this.bound = false;
		this.threads = threads;
		this.throughput = throughput;
		this.knownUntil = this.clock.nanoTime() + Backoff.LONGEST.toNanos();
	}

	/**
	 * Learn that the knee lies at most at so many threads, as a kept step that did not
	 * pay in proportion says: one from above a known knee measured only that the knee is
	 * below where it began, so a known knee lower still stays, and is known for longer. A
	 * step whose throughput rose by more than its noise began below the knee and crossed
	 * it: the knee it measured is found, as a probe's is, unless a bound lower still
	 * stays.
	 * @param threads the most threads the knee lies at
	 * @param throughput the throughput seen there
	 * @param crossed whether the step crossed the knee from below
	 */
	void atMost(double threads, double throughput, boolean crossed) {
		boolean lower = !known() || threads < this.threads;
		boolean bound = !(crossed && lower) && (!known() || this.bound);
		if (lower) {
			learn(threads, throughput);
		}
		else {
			learn(this.threads, this.throughput);
		}
		this.bound = bound;
	}

	void forget() {
		this.threads = 0;
	}

	/**
	 * Learn from a growth step kept while the pool queued. One that crossed the knee,
	 * where threads stop paying, by more than a standard error of the windows' noise: the
	 * new throughput needs only about from · X₁/X₀ of them. A throughput that fell by
	 * more than its noise measured a lull, not the threads: no knee below where the step
	 * began. One that rose by more than its noise began below the knee: it found it. A
	 * step beyond the knee that paid by more than a standard error of the noise: the knee
	 * is gone. One within the noise says nothing.
	 * @param step the step kept, measured
	 * @param window the window that judged it
	 * @param error the standard error of the step's relative gain
	 */
	void kept(Step step, ClosedWindow window, double error) {
		if (!window.queueing) {
			return;
		}
		double gain = step.gain();
		double added = step.added();
		if ((gain + error) / added < PoolController.KNEE_EFFICIENCY && gain + WindowNoise.SIGNIFICANT * error >= 0) {
			atMost(step.from * (1 + gain), window.throughput(), gain > WindowNoise.SIGNIFICANT * error);
		}
		else if (known() && step.to > threads() && (gain - error) / added >= PoolController.KNEE_EFFICIENCY) {
			forget();
		}
	}

	/**
	 * Return the knee in threads, 0 while none is known.
	 */
	double threads() {
		if (this.threads > 0 && this.clock.nanoTime() - this.knownUntil >= 0) {
			this.threads = 0;
		}
		return this.threads;
	}

	boolean known() {
		return threads() > 0;
	}

	/**
	 * Return the most threads a step may reach: half beyond the knee and at least one
	 * thread beyond it, or no limit. A knee below two threads, as a step from one thread
	 * to two that fell short of doubling by chance on a busy machine teaches, so still
	 * lets the pool try a third, and a step that pays forgets it.
	 */
	int cap() {
		if (!known()) {
			return Integer.MAX_VALUE;
		}
		return Math.max((int) (PoolController.MAX_GROWTH * this.threads), (int) Math.ceil(this.threads) + 1);
	}

	/**
	 * Forget a knee that a window's throughput outgrew: at a knee throughput stops
	 * rising, so the threads it keeps busy at the base service time (X·S₀) stay near the
	 * knee whatever the pool's size. A queueing pool whose throughput keeps more than
	 * {@value #OUTGROWN}× the knee busy serves more than the knee allows, and the step
	 * that taught it measured a lull (tasks that finish together, a burst's end, a window
	 * of dear tasks). The margin is below the cap of half beyond the knee, so that a pool
	 * held at the cap can outgrow it.
	 * @param window the window that just closed
	 */
	void outgrown(ClosedWindow window) {
		double useful = window.throughput() * window.baseServiceMs / 1000;
		if (known() && window.queueing && useful > OUTGROWN * this.threads) {
			forget();
		}
	}

	/**
	 * Forget a knee that a pool well below it served as much as at the knee: below a knee
	 * throughput falls with the threads, so a window at a probe's cut or more below it
	 * ({@value DownProbe#CUT}) that served within {@value DownProbe#TOLERANCE} of the
	 * knee's throughput says that the knee was taught by noise (a probe judged against a
	 * window above what a downstream serves), and that probes may go on below it.
	 * @param window the window that just closed
	 * @return whether the knee was forgotten
	 */
	boolean disproved(ClosedWindow window) {
		boolean below = window.size <= (1 - DownProbe.CUT) * threads();
		if (known() && below && window.queueing && window.throughput() >= (1 - DownProbe.TOLERANCE) * this.throughput) {
			forget();
			return true;
		}
		return false;
	}

	/**
	 * Return whether the knee known is only a bound, taught by a kept step: it lies at
	 * most there.
	 */
	boolean bound() {
		return known() && this.bound;
	}

	/**
	 * Return whether a size is near a knee found from below, where probing down would
	 * gain little; never near a knee that is only a bound.
	 */
	boolean near(int size) {
		return known() && !this.bound && size <= PoolController.NEAR_KNEE * this.threads;
	}

}
