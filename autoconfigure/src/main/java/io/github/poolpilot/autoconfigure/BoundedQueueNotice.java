package io.github.poolpilot.autoconfigure;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.task.ExistingExecutorSettings;
import io.github.poolpilot.task.ExistingExecutorsPostProcessor;

/**
 * Warns, once per executor, when an application's executor whose queue was unbounded in
 * its own settings (Spring Boot's {@code applicationTaskExecutor} among them) refuses a
 * task because the queue poolpilot bounded it with is full. The bound is said then, when
 * it matters, rather than at every start of every application, most of which never fill
 * the queue. Run after each measurement window.
 *
 * @author poolpilot authors
 */
final class BoundedQueueNotice {

	private static final Log logger = LogFactory.getLog(BoundedQueueNotice.class);

	private final PoolRegistry registry;

	private final Supplier<@Nullable ExistingExecutorsPostProcessor> existingExecutors;

	private final Set<String> said = ConcurrentHashMap.newKeySet();

	BoundedQueueNotice(PoolRegistry registry, Supplier<@Nullable ExistingExecutorsPostProcessor> existingExecutors) {
		this.registry = registry;
		this.existingExecutors = existingExecutors;
	}

	void afterWindow() {
		ExistingExecutorsPostProcessor existing = this.existingExecutors.get();
		if (existing == null) {
			return;
		}
		for (ManagedPool pool : this.registry.pools()) {
			String name = pool.getName();
			ExistingExecutorSettings.Own own = existing.ownSettings(name);
			if (own != null && own.unboundedQueue() && !this.said.contains(name)
					&& pool.getRecorder().taskCounts().rejections().queueFull() > 0 && this.said.add(name)) {
				logger.warn("ThreadPoolTaskExecutor '" + name + "' refused a task: its queue, unbounded in its own "
						+ "settings, was bounded by poolpilot at " + pool.getExecutor().getQueueCapacity()
						+ " tasks with at most " + pool.maxThreads() + " threads, and it was full "
						+ "(poolpilot.existing-executors.queue-capacity, or poolpilot.existing-executors." + name
						+ ".queue-capacity and .max-threads). Set its queue capacity, or list it in "
						+ "poolpilot.exclude, to choose otherwise.");
			}
		}
	}

}
