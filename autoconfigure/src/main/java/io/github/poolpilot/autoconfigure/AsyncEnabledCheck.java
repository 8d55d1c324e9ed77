package io.github.poolpilot.autoconfigure;

import java.util.Arrays;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.scheduling.config.TaskManagementConfigUtils;

/**
 * Warns at start-up about declared pools that nothing can reach: without
 * {@code @EnableAsync}, an {@code @Async("talk")} method runs on its caller's thread and
 * the pool stays empty without a word. A pool injected into one of the application's
 * beans is reached that way, so it is not named.
 *
 * @author poolpilot authors
 */
class AsyncEnabledCheck implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(AsyncEnabledCheck.class);

	private final ConfigurableListableBeanFactory beanFactory;

	private final List<String> pools;

	AsyncEnabledCheck(ConfigurableListableBeanFactory beanFactory, List<String> pools) {
		this.beanFactory = beanFactory;
		this.pools = pools;
	}

	@Override
	public void afterSingletonsInstantiated() {
		if (this.beanFactory.containsBean(TaskManagementConfigUtils.ASYNC_ANNOTATION_PROCESSOR_BEAN_NAME)) {
			return;
		}
		List<String> unreached = this.pools.stream().filter((pool) -> !isInjected(pool)).toList();
		if (!unreached.isEmpty()) {
			logger.warn("Async execution is not enabled, and nothing of the application's is given the pools "
					+ unreached + ": an @Async(\"" + unreached.get(0) + "\") method runs on its caller's thread and "
					+ "the pool stays empty. Add @EnableAsync to a @Configuration class (or inject the pool and "
					+ "submit to it).");
		}
	}

	/**
	 * Whether one of the application's own beans had the pool injected: Spring's
	 * infrastructure (meters, endpoints) does not count.
	 */
	private boolean isInjected(String pool) {
		return Arrays.stream(this.beanFactory.getDependentBeans(pool)).anyMatch((dependent) -> {
			Class<?> type = this.beanFactory.getType(dependent, false);
			String name = (type != null) ? type.getName() : "";
			return !name.startsWith("org.springframework.") && !name.startsWith("io.micrometer.");
		});
	}

}
