package io.github.poolpilot.tuning;

import org.jspecify.annotations.Nullable;

/**
 * One pool's tuning state: who decides its size, the last decision about it and whether
 * that decision found it short of threads it could not have. The {@link Tuner} owns it;
 * the endpoint and the meters read it.
 *
 * @author poolpilot authors
 */
public final class TuningState {

	private volatile TuningMode mode;

	private volatile @Nullable Decision lastDecision;

	private volatile boolean limited;

	TuningState(TuningMode mode) {
		this.mode = mode;
	}

	/**
	 * Return who decides the pool's size.
	 * @return the tuning mode
	 */
	public TuningMode getMode() {
		return this.mode;
	}

	void setMode(TuningMode mode) {
		this.mode = mode;
	}

	/**
	 * Return the last decision about the pool's size.
	 * @return the last decision, or {@code null} before any
	 */
	public @Nullable Decision getLastDecision() {
		return this.lastDecision;
	}

	void setLastDecision(Decision decision) {
		this.lastDecision = decision;
	}

	/**
	 * Return whether the tuner's last decision found the pool short of threads it could
	 * not have: saturated at max-threads, held back by the CPU or the budget, slowed down
	 * by its service, or with growth blocked because more threads did not help.
	 * @return whether the pool's tuning is limited
	 */
	public boolean isLimited() {
		return this.limited;
	}

	void setLimited(boolean limited) {
		this.limited = limited;
	}

}
