package io.github.poolpilot.tuning;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.measure.PoolSnapshot.LittlesLaw;

/**
 * What a pool's fast path keeps between two windows: the last window's figures it reads
 * (the arrival rate a surge is measured against, Goetz's size, whether the CPU limited
 * the pool, the throughput and times a surge's step is judged against), its
 * {@link SurgeWatch}, and the size a surge since the last window asked for. Reading the
 * CPU once a window, not every pulse, keeps the window's own reading whole.
 *
 * @author poolpilot authors
 */
final class FastPath {

	private final SurgeWatch surges = new SurgeWatch();

	private double throughput = Double.NaN;

	private long completions;

	private double serviceMs = Double.NaN;

	private double queueWaitMs;

	private double arrivalRate = Double.NaN;

	private @Nullable Integer goetz;

	private boolean cpuBound;

	/**
	 * The size a surge since the last window asked for, 0 for none: while the pool is
	 * still saturated, the window asks for it too, rather than for a step of ×1.5.
	 */
	private int surgeWant;

	/**
	 * Return the last window's throughput, NaN before the first.
	 */
	double throughput() {
		return this.throughput;
	}

	/**
	 * Return the last window's arrival rate, NaN before the first.
	 */
	double arrivalRate() {
		return this.arrivalRate;
	}

	/**
	 * Keep what the pulses until the next window read of a window that closed.
	 * @param window the window
	 */
	void windowClosed(ClosedWindow window) {
		LittlesLaw law = window.law;
		this.throughput = law.throughput();
		this.completions = window.completions;
		this.arrivalRate = law.arrivalRate();
		this.goetz = law.recommendedThreads();
		if (window.completions > 0 && law.meanServiceTimeMs() > 0) {
			this.serviceMs = law.meanServiceTimeMs();
			this.queueWaitMs = law.meanQueueWaitMs();
		}
		this.cpuBound = window.cpuBound();
		this.surges.windowClosed();
	}

	/**
	 * Read a pulse and say whether the pool meets a surge.
	 * @param pulse the pool now
	 * @param baseServiceMs the base service time S₀, NaN while unknown
	 * @param largest the most threads a step may reach by the pool's bounds and a knee
	 * seen; Goetz's size bounds it too
	 * @param judging whether a cut or a probe down is being judged: the pool's threads
	 * were just seen to wait for one another, and a burst of arrivals is not served
	 * faster by more threads that wait for the same thing
	 * @return a decision to grow, or {@code null}
	 */
	@Nullable Decision check(PoolPulse pulse, double baseServiceMs, int largest, boolean judging) {
		if (this.goetz != null) {
			largest = Math.min(largest, Math.max(1, this.goetz));
		}
		Decision surge = this.surges.check(pulse, this.arrivalRate, baseServiceMs, largest, !this.cpuBound && !judging);
		if (surge != null) {
			this.surgeWant = surge.threads();
		}
		return surge;
	}

	/**
	 * Return a surge's step, to be judged against the last window's figures.
	 * @param pulse the pulse that met the surge
	 * @param surge the surge
	 */
	Step step(PoolPulse pulse, Decision surge) {
		return new Step(Step.Kind.SURGE, pulse.size(), surge.threads(), this.throughput, this.completions,
				this.serviceMs, this.queueWaitMs);
	}

	/**
	 * Return the size a surge since the last window asked for, 0 for none, and forget it.
	 */
	int takeSurgeWant() {
		int want = this.surgeWant;
		this.surgeWant = 0;
		return want;
	}

	/**
	 * Return the least service time the pulses estimated while no window had measured
	 * one, NaN when none did.
	 */
	double estimatedServiceMs() {
		return this.surges.estimatedServiceMs();
	}

	/**
	 * Return whether nothing was offered to the pool between its last two pulses.
	 */
	boolean idle() {
		return this.surges.idle();
	}

}
