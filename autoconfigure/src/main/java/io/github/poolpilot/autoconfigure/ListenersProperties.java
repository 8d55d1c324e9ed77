package io.github.poolpilot.autoconfigure;

import org.jspecify.annotations.Nullable;

/**
 * The consumers of the application's message listener containers, each a managed pool
 * named by its container's id (or bean name): the keys {@code poolpilot.listeners.*} and
 * those of one container's pool.
 *
 * @author poolpilot authors
 */
public class ListenersProperties {

	/**
	 * Whether the consumers of the application's message listener containers (Spring
	 * AMQP's SimpleMessageListenerContainer, Spring Kafka's
	 * ConcurrentMessageListenerContainer) are managed pools.
	 */
	private boolean enabled = true;

	/**
	 * How many times its last restart's cost a Kafka listener container settles after a
	 * restart that changed its concurrency, the tuner leaving its concurrency alone
	 * meanwhile (at least two measurement windows): at most about 1/(1 + settle-factor)
	 * of the time goes to restarts.
	 */
	private int settleFactor = 10;

	/**
	 * Whether a container keeps its own rule that starts consumers when busy and stops
	 * them when idle, between its concurrency and max-concurrency; its pool then starts
	 * in manual mode. When false the tuner sets the consumers, and the container's rule
	 * is idle.
	 */
	private boolean containerScaling;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public int getSettleFactor() {
		return this.settleFactor;
	}

	public void setSettleFactor(int settleFactor) {
		this.settleFactor = settleFactor;
	}

	public boolean isContainerScaling() {
		return this.containerScaling;
	}

	public void setContainerScaling(boolean containerScaling) {
		this.containerScaling = containerScaling;
	}

	/**
	 * The keys of one listener container's pool, {@code poolpilot.listeners.<name>.*}.
	 */
	public static class ListenerPool {

		/**
		 * Fewest consumers. Unless set, the container's own concurrency.
		 */
		private @Nullable Integer minThreads;

		/**
		 * Most consumers. Unless set, the container's own max-concurrency (its
		 * concurrency when it has none).
		 */
		private @Nullable Integer maxThreads;

		/**
		 * Consumers the container starts with, between min-threads and max-threads.
		 * Unless set, min-threads.
		 */
		private @Nullable Integer initialThreads;

		/**
		 * Share of the budget when pools compete, relative to the other pools' weights.
		 */
		private int weight = 1;

		public @Nullable Integer getMinThreads() {
			return this.minThreads;
		}

		public void setMinThreads(@Nullable Integer minThreads) {
			this.minThreads = minThreads;
		}

		public @Nullable Integer getMaxThreads() {
			return this.maxThreads;
		}

		public void setMaxThreads(@Nullable Integer maxThreads) {
			this.maxThreads = maxThreads;
		}

		public @Nullable Integer getInitialThreads() {
			return this.initialThreads;
		}

		public void setInitialThreads(@Nullable Integer initialThreads) {
			this.initialThreads = initialThreads;
		}

		public int getWeight() {
			return this.weight;
		}

		public void setWeight(int weight) {
			this.weight = weight;
		}

	}

}
