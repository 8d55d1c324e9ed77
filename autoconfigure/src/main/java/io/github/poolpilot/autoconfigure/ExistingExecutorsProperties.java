package io.github.poolpilot.autoconfigure;

/**
 * The application's own ThreadPoolTaskExecutor beans.
 *
 * @author poolpilot authors
 */
public class ExistingExecutorsProperties {

	/**
	 * Whether existing ThreadPoolTaskExecutor beans, Boot's applicationTaskExecutor
	 * included, become managed.
	 */
	private boolean enabled = true;

	/**
	 * Queue capacity given to an existing executor whose queue is unbounded, and to
	 * Spring Boot's virtual-thread applicationTaskExecutor.
	 */
	private int queueCapacity = 1000;

	/**
	 * Largest number of tasks Spring Boot's virtual-thread applicationTaskExecutor
	 * (spring.threads.virtual.enabled=true) may run at once, its max-threads, when
	 * spring.task.execution.simple.concurrency-limit is not set.
	 */
	private int maxConcurrency = 200;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public int getQueueCapacity() {
		return this.queueCapacity;
	}

	public void setQueueCapacity(int queueCapacity) {
		this.queueCapacity = queueCapacity;
	}

	public int getMaxConcurrency() {
		return this.maxConcurrency;
	}

	public void setMaxConcurrency(int maxConcurrency) {
		this.maxConcurrency = maxConcurrency;
	}

}
