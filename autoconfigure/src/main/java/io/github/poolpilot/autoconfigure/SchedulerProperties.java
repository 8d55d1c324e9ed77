package io.github.poolpilot.autoconfigure;

import org.jspecify.annotations.Nullable;

/**
 * The ThreadPoolTaskScheduler beans that run scheduled work, Boot's taskScheduler among
 * them, each a managed pool named after its bean.
 *
 * @author poolpilot authors
 */
public class SchedulerProperties {

	/**
	 * Whether ThreadPoolTaskScheduler beans become managed: each run measured against
	 * when it was due, the pool resized within its bounds.
	 */
	private boolean enabled = true;

	/**
	 * Smallest size the tuner or a manual change may give a scheduler's pool. Unless set,
	 * the size the scheduler was configured with (or max-threads where that is lower).
	 */
	private @Nullable Integer minThreads;

	/**
	 * Largest size the tuner or a manual change may give a scheduler's pool.
	 */
	private int maxThreads = 8;

	/**
	 * Share of the budget relative to the other pools' weights.
	 */
	private int weight = 1;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable Integer getMinThreads() {
		return this.minThreads;
	}

	public void setMinThreads(@Nullable Integer minThreads) {
		this.minThreads = minThreads;
	}

	public int getMaxThreads() {
		return this.maxThreads;
	}

	public void setMaxThreads(int maxThreads) {
		this.maxThreads = maxThreads;
	}

	public int getWeight() {
		return this.weight;
	}

	public void setWeight(int weight) {
		this.weight = weight;
	}

}
