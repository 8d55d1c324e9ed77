package io.github.poolpilot.task;

import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

/**
 * The contract run against a plain {@link ThreadPoolTaskExecutor}: the reference every
 * managed executor is held to.
 *
 * @author poolpilot authors
 */
class ThreadPoolTaskExecutorContractTests extends ThreadPoolTaskExecutorContract {

	@Override
	ThreadPoolTaskExecutor newExecutor() {
		return new ThreadPoolTaskExecutor();
	}

	@Override
	ThreadPoolTaskExecutor initialize(ThreadPoolTaskExecutor executor) {
		executor.initialize();
		return executor;
	}

}
