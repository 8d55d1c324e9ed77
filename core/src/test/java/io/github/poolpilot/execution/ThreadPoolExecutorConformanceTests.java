package io.github.poolpilot.execution;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * The conformance suite run against a plain {@link ThreadPoolExecutor} with a bounded
 * queue: the reference every managed executor is held to.
 *
 * @author poolpilot authors
 */
class ThreadPoolExecutorConformanceTests extends ThreadPoolExecutorConformance {

	@Override
	ThreadPoolExecutor newExecutor(Settings settings) {
		Hooks hooks = this.hooks;
		return new ThreadPoolExecutor(settings.corePoolSize(), settings.maxPoolSize(), settings.keepAlive().toNanos(),
				TimeUnit.NANOSECONDS, new ArrayBlockingQueue<>(settings.queueCapacity()), quietPlatformThreads(),
				settings.policyOrAbort()) {

			@Override
			protected void beforeExecute(Thread thread, Runnable task) {
				hooks.beforeExecute(thread, task);
			}

			@Override
			protected void afterExecute(Runnable task, @Nullable Throwable thrown) {
				hooks.afterExecute(task, thrown);
			}

			@Override
			protected void terminated() {
				hooks.terminated();
			}

		};
	}

}
