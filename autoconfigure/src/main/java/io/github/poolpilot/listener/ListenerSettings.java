package io.github.poolpilot.listener;

import io.github.poolpilot.pool.PoolBounds;

/**
 * How one listener container's consumers are managed: the range the pool's consumers stay
 * in, how many it starts with, its weight in the budget, and whether the container keeps
 * its own scaling rule.
 *
 * @param bounds the fewest and the most consumers
 * @param initialConsumers the consumers it starts with, within the bounds
 * @param weight its share of the budget, at least 1
 * @param containerScaling whether the container's own rule starts and stops consumers
 * between its concurrency and max-concurrency (the pool then starts in manual mode)
 * @author poolpilot authors
 */
public record ListenerSettings(PoolBounds bounds, int initialConsumers, int weight, boolean containerScaling) {

	/**
	 * What a container was made with, read before it is managed.
	 *
	 * @param name the pool's name: the container's id or bean name
	 * @param concurrency the consumers it keeps
	 * @param maxConcurrency the most consumers its own rule may start (its concurrency
	 * when it has no such rule)
	 * @param exclusive whether its single consumer is exclusive, so that it must keep
	 * exactly one
	 */
	public record Own(String name, int concurrency, int maxConcurrency, boolean exclusive) {

	}

	/**
	 * Where each container's settings come from: its own, overridden by the
	 * configuration.
	 */
	@FunctionalInterface
	public interface Source {

		/**
		 * Return the settings of one container.
		 * @param own what the container was made with
		 * @return its settings
		 * @throws RuntimeException naming the invalid key when its configuration is
		 * invalid
		 */
		ListenerSettings settings(Own own);

	}

}
