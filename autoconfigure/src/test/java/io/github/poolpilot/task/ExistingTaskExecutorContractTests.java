package io.github.poolpilot.task;

import java.lang.reflect.Field;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aop.support.AopUtils;
import org.springframework.scheduling.concurrent.ExecutorConfigurationSupport;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract run against an application's own {@link ThreadPoolTaskExecutor} under
 * management: initialized as the application made it, between
 * {@link ExistingExecutorsPostProcessor}'s two steps as in an application context, and
 * used through the proxy that replaces the bean. Its bounds are wide enough for every
 * size the contract sets (0 to 16 threads), as {@code existing-executors.<bean>.*} can
 * make them; an unbounded queue is bounded at 1000 tasks, as by default. The tests
 * overridden here pin its deliberate differences beyond those of every executor under
 * management ({@link UnderManagementContract}); docs/guarantees.md lists them with their
 * reasons.
 *
 * @author poolpilot authors
 */
class ExistingTaskExecutorContractTests extends UnderManagementContract {

	private static final int DEFAULT_QUEUE_CAPACITY = 1000;

	private static final AtomicInteger names = new AtomicInteger();

	private final PoolRegistry registry = new PoolRegistry(null);

	private final Map<ThreadPoolTaskExecutor, String> poolNames = new IdentityHashMap<>();

	private final ExistingExecutorsPostProcessor postProcessor = new ExistingExecutorsPostProcessor(() -> this.registry,
			PoolRecorder::builder, List.of(),
			(own) -> new ExistingExecutorSettings(new PoolBounds(0, 16), own.corePoolSize(), own.maxPoolSize(),
					own.unboundedQueue() ? DEFAULT_QUEUE_CAPACITY : own.queueCapacity(), null, null, 1,
					(pool) -> List.of()));

	@Override
	ThreadPoolTaskExecutor newExecutor() {
		return new ThreadPoolTaskExecutor();
	}

	@Override
	ThreadPoolTaskExecutor initialize(ThreadPoolTaskExecutor executor) {
		String name = "existing-" + names.incrementAndGet();
		this.postProcessor.postProcessBeforeInitialization(executor, name);
		executor.initialize();
		ThreadPoolTaskExecutor managed = (ThreadPoolTaskExecutor) this.postProcessor
			.postProcessAfterInitialization(executor, name);
		assertThat(this.registry.get(name)).isNotNull();
		this.poolNames.put(managed, name);
		return managed;
	}

	@Override
	ManagedPool pool(ThreadPoolTaskExecutor executor) {
		return this.registry.get(this.poolNames.get(executor));
	}

	/**
	 * Difference: the bean the application gets is a proxy, a subclass of its executor's
	 * class made by Spring AOP, around its own instance: its methods answer as the
	 * executor does, but its fields, read by reflection, are the proxy's, not the
	 * executor's.
	 */
	@Test
	void theBeanIsAProxyAroundTheApplicationsOwnExecutor() throws Exception {
		ThreadPoolTaskExecutor executor = executor((settings) -> settings.setWaitForTasksToCompleteOnShutdown(true));
		assertThat(AopUtils.isCglibProxy(executor)).isTrue();
		assertThat(AopProxyUtils.ultimateTargetClass(executor)).isEqualTo(ThreadPoolTaskExecutor.class);
		Field waitForTasks = ExecutorConfigurationSupport.class.getDeclaredField("waitForTasksToCompleteOnShutdown");
		waitForTasks.setAccessible(true);
		assertThat(waitForTasks.get(executor)).isEqualTo(false);
		assertThat(waitForTasks.get(AopProxyUtils.getSingletonTarget(executor))).isEqualTo(true);
	}

	/**
	 * Difference: an unbounded queue is bounded (at
	 * {@code poolpilot.existing-executors.queue-capacity}, 1000 tasks by default), so
	 * that overload is refused rather than left to wait without bound.
	 */
	@Override
	@Test
	void theQueueIsUnboundedByDefault() {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
		});
		assertThat(executor.getQueueCapacity()).isEqualTo(DEFAULT_QUEUE_CAPACITY);
		assertThat(executor.getThreadPoolExecutor().getQueue().remainingCapacity()).isEqualTo(DEFAULT_QUEUE_CAPACITY);
	}

}
