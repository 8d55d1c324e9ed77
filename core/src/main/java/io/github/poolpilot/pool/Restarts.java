package io.github.poolpilot.pool;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The resizes of a pool whose every resize restarts its workers, such as a Kafka
 * listener's consumers: how many ran and what the last one cost.
 *
 * @param count the restarts that finished
 * @param lastCost how long the last one took until its workers worked again, or
 * {@code null} before the first
 * @param settling how the pool settles after the last one, {@code null} when it does not
 * @param failure why the last restart could not bring the size asked for, and whether the
 * workers run with their previous size or are stopped; {@code null} when it worked
 * @author poolpilot authors
 */
public record Restarts(long count, @Nullable Duration lastCost, @Nullable Settling settling, @Nullable String failure) {

	/**
	 * The restarts of a pool whose last restart worked.
	 * @param count the restarts that finished
	 * @param lastCost how long the last one took, or {@code null} before the first
	 * @param settling how the pool settles after the last one, {@code null} when it does
	 * not
	 */
	public Restarts(long count, @Nullable Duration lastCost, @Nullable Settling settling) {
		this(count, lastCost, settling, null);
	}

}
