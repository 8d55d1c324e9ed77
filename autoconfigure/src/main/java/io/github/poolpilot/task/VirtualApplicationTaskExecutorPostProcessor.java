package io.github.poolpilot.task;

import java.util.Collection;
import java.util.Set;
import java.util.function.Supplier;

import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.measure.PoolRecorderBuilder;
import io.github.poolpilot.pool.PoolRegistry;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.annotation.AnnotatedBeanDefinition;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.AbstractBeanDefinition;
import org.springframework.boot.task.SimpleAsyncTaskExecutorBuilder;
import org.springframework.core.Ordered;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.core.type.MethodMetadata;

/**
 * Makes Spring Boot's {@code applicationTaskExecutor} a managed pool when Boot runs it on
 * virtual threads ({@code spring.threads.virtual.enabled=true} on Java 21+), where Boot
 * makes a {@link SimpleAsyncTaskExecutor} rather than a {@code ThreadPoolTaskExecutor}: a
 * new virtual thread for every task, with no limit unless
 * {@code spring.task.execution.simple.concurrency-limit} is set, and then callers
 * blocked.
 * <p>
 * Boot's bean definition is kept, with its name, aliases and type, but its instance is
 * made by Boot's own {@link SimpleAsyncTaskExecutorBuilder}, with every setting and
 * customizer Boot applies, as a {@link ManagedSimpleAsyncTaskExecutor}: a
 * {@code SimpleAsyncTaskExecutor} whose tasks go through a virtual managed pool. A
 * wrapper around Boot's instance could not keep its task decorator, which it applies when
 * a thread starts and which has no getter: a queued task's thread starts on another
 * thread than the one that submitted it, so context propagation would capture the wrong
 * thread's context.
 *
 * @author poolpilot authors
 */
public class VirtualApplicationTaskExecutorPostProcessor implements BeanFactoryPostProcessor, Ordered {

	private static final Log logger = LogFactory.getLog(VirtualApplicationTaskExecutorPostProcessor.class);

	/**
	 * The name of Spring Boot's executor.
	 */
	public static final String BEAN_NAME = "applicationTaskExecutor";

	private final Supplier<PoolRecorderBuilder> recorder;

	private final Set<String> excluded;

	private final ExistingExecutorSettings.Source settings;

	private final int maxConcurrency;

	/**
	 * Create a post-processor.
	 * @param recorder the measurement settings
	 * @param excluded bean names to leave alone
	 * @param settings decides the pool's bounds, queue capacity and weight from the
	 * executor's own: a pool from 1 to its concurrency limit with an unbounded queue
	 * @param maxConcurrency the largest limit when Boot sets no concurrency limit
	 */
	public VirtualApplicationTaskExecutorPostProcessor(Supplier<PoolRecorderBuilder> recorder,
			Collection<String> excluded, ExistingExecutorSettings.Source settings, int maxConcurrency) {
		this.recorder = recorder;
		this.excluded = Set.copyOf(excluded);
		this.settings = settings;
		this.maxConcurrency = maxConcurrency;
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		if (this.excluded.contains(BEAN_NAME) || !beanFactory.containsBeanDefinition(BEAN_NAME)) {
			return;
		}
		BeanDefinition definition = beanFactory.getBeanDefinition(BEAN_NAME);
		if (isBootsVirtualThreadExecutor(definition)) {
			((AbstractBeanDefinition) definition).setInstanceSupplier(() -> create(beanFactory));
		}
	}

	/**
	 * Return whether the bean is the one Spring Boot's auto-configuration defines for
	 * virtual threads, not an application's own executor of that name.
	 */
	private static boolean isBootsVirtualThreadExecutor(BeanDefinition definition) {
		if (!(definition instanceof AnnotatedBeanDefinition annotated)
				|| !(definition instanceof AbstractBeanDefinition)) {
			return false;
		}
		MethodMetadata factoryMethod = annotated.getFactoryMethodMetadata();
		return factoryMethod != null && factoryMethod.getDeclaringClassName().startsWith("org.springframework.boot.")
				&& SimpleAsyncTaskExecutor.class.getName().equals(factoryMethod.getReturnTypeName());
	}

	private SimpleAsyncTaskExecutor create(ConfigurableListableBeanFactory beanFactory) {
		SimpleAsyncTaskExecutorBuilder builder = beanFactory.getBeanProvider(SimpleAsyncTaskExecutorBuilder.class)
			.getIfAvailable(() -> new SimpleAsyncTaskExecutorBuilder().virtualThreads(true));
		ManagedSimpleAsyncTaskExecutor executor = builder.build(ManagedSimpleAsyncTaskExecutor.class);
		int limit = executor.getConcurrencyLimit();
		if (limit == SimpleAsyncTaskExecutor.NO_CONCURRENCY) {
			// Spring's switch that refuses every task: nothing to manage.
			logger.info("applicationTaskExecutor is left unmanaged: its concurrency limit of 0 refuses every task");
			return builder.build();
		}
		// Configured as an existing executor whose core size is 1, its maximum size the
		// limit and its queue unbounded; a virtual pool has no idle threads to keep.
		ExistingExecutorSettings settings = this.settings.settings(new ExistingExecutorSettings.Own(BEAN_NAME, 1,
				(limit > 0) ? limit : this.maxConcurrency, Integer.MAX_VALUE, 60));
		executor.setPoolName(BEAN_NAME);
		executor.setBounds(new PoolBounds(Math.max(1, settings.bounds().minThreads()), settings.bounds().maxThreads()));
		executor.setQueueCapacity(settings.queueCapacity());
		executor.setWeight(settings.weight());
		executor.setRecorder(this.recorder.get());
		executor.setRegistry(beanFactory.getBean(PoolRegistry.class));
		return executor;
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
