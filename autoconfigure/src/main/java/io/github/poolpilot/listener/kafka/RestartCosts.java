package io.github.poolpilot.listener.kafka;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.measure.NanoClock;
import io.github.poolpilot.pool.Settling;

/**
 * What a container's restarts cost, from the stop until the last new consumer was
 * assigned, and how long it settles after the last one: {@code settleFactor} times its
 * cost, at least {@code minimumSettle}. Only restarts that started the container count: a
 * restart that failed for good, or that closing cut short, has no cost.
 *
 * @author poolpilot authors
 */
final class RestartCosts {

	private final int settleFactor;

	private final Duration minimumSettle;

	private final NanoClock clock;

	private volatile boolean restarting;

	private volatile @Nullable Duration lastCost;

	private volatile long settledAt;

	private volatile long restarts;

	RestartCosts(int settleFactor, Duration minimumSettle, NanoClock clock) {
		this.settleFactor = settleFactor;
		this.minimumSettle = minimumSettle;
		this.clock = clock;
	}

	/**
	 * A restart begins: the container settles until it ends.
	 * @return when it began, on the clock
	 */
	long begin() {
		this.restarting = true;
		return this.clock.nanoTime();
	}

	/**
	 * A restart that began ended, whatever became of it.
	 */
	void end() {
		this.restarting = false;
	}

	/**
	 * A restart that began at the given time started the container: count it and cost it.
	 * @param start when it began, as {@link #begin()} returned
	 */
	void restarted(long start) {
		long now = this.clock.nanoTime();
		Duration cost = Duration.ofNanos(now - start);
		this.lastCost = cost;
		this.restarts++;
		Duration settle = cost.multipliedBy(this.settleFactor);
		if (settle.compareTo(this.minimumSettle) < 0) {
			settle = this.minimumSettle;
		}
		this.settledAt = now + settle.toNanos();
	}

	/**
	 * Return how long the container still settles after its last restart, or that a
	 * restart runs now.
	 * @return how it settles, or {@code null} when it does not
	 */
	@Nullable Settling settling() {
		Duration cost = this.lastCost;
		if (this.restarting) {
			Duration estimate = (cost != null) ? cost.multipliedBy(this.settleFactor + 1L) : this.minimumSettle;
			return new Settling((estimate.compareTo(this.minimumSettle) < 0) ? this.minimumSettle : estimate, cost);
		}
		long remaining = this.settledAt - this.clock.nanoTime();
		return (cost != null && remaining > 0) ? new Settling(Duration.ofNanos(remaining), cost) : null;
	}

	/**
	 * Return how long the last restart took until every new consumer had its partitions.
	 * @return the cost, or {@code null} before the first restart
	 */
	@Nullable Duration lastCost() {
		return this.lastCost;
	}

	/**
	 * Return how many restarts started the container.
	 * @return the count
	 */
	long restarts() {
		return this.restarts;
	}

}
