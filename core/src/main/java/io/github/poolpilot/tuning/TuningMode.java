package io.github.poolpilot.tuning;

import java.util.Locale;

/**
 * Who decides a pool's size.
 *
 * @author poolpilot authors
 */
public enum TuningMode {

	/**
	 * The tuner, within the pool's bounds and the budget.
	 */
	AUTO,

	/**
	 * A person: the pool keeps the size last set by hand until tuning is switched back to
	 * auto.
	 */
	MANUAL,

	/**
	 * Nobody: self-tuning is switched off for every pool.
	 */
	OFF;

	/**
	 * Return the mode's name as users write it.
	 * @return {@code auto}, {@code manual} or {@code off}
	 */
	public String value() {
		return name().toLowerCase(Locale.ROOT);
	}

}
