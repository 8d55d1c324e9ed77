package io.github.poolpilot.task;

import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import org.springframework.core.task.SimpleAsyncTaskExecutor;

/**
 * The contract run against a plain {@link SimpleAsyncTaskExecutor} on virtual threads:
 * the reference the managed one is held to.
 *
 * @author poolpilot authors
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class VirtualSimpleAsyncTaskExecutorContractTests extends SimpleAsyncTaskExecutorContract {

	@Override
	SimpleAsyncTaskExecutor newExecutor() {
		return new SimpleAsyncTaskExecutor();
	}

	@Override
	void initialize(SimpleAsyncTaskExecutor executor) {
	}

}
