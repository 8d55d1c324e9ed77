package io.github.poolpilot.task;

import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.poolpilot.core.ManagedPool;
import io.github.poolpilot.core.PoolBounds;
import io.github.poolpilot.core.PoolRecorder;
import io.github.poolpilot.core.PoolRegistry;
import io.github.poolpilot.core.TuningMode;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.factory.config.DestructionAwareBeanPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

/**
 * Brings an application's existing {@link ThreadPoolTaskExecutor} beans, Boot's
 * {@code applicationTaskExecutor} among them, under management without losing any of
 * their settings: the bean keeps its own instance, so its sizes, keep-alive, thread
 * names, task decorator, rejection policy and shutdown settings stay as configured.
 * <p>
 * Before initialization an unbounded queue is bounded (and the maximum size, which an
 * unbounded queue never let the pool reach, is brought down to the core size). After it,
 * the live pool's rejection policy is wrapped to count, the pool joins the registry, and
 * the bean is replaced by a proxy that measures every submitted task.
 *
 * @author poolpilot authors
 */
public class ExistingExecutorsPostProcessor implements DestructionAwareBeanPostProcessor, Ordered {

	private static final Log logger = LogFactory.getLog(ExistingExecutorsPostProcessor.class);

	private final Supplier<PoolRegistry> registry;

	private final Supplier<PoolRecorder.Builder> recorder;

	private final Set<String> excluded;

	private final int queueCapacity;

	private final TuningMode tuningMode;

	/**
	 * Create a post-processor.
	 * @param registry the registry the existing pools join, looked up when the first one
	 * is found
	 * @param recorder the measurement settings for each pool
	 * @param excluded bean names to leave alone
	 * @param queueCapacity the capacity given to an unbounded queue
	 * @param tuningMode who decides the pools' sizes at first
	 */
	public ExistingExecutorsPostProcessor(Supplier<PoolRegistry> registry, Supplier<PoolRecorder.Builder> recorder,
			Collection<String> excluded, int queueCapacity, TuningMode tuningMode) {
		this.registry = registry;
		this.recorder = recorder;
		this.excluded = Set.copyOf(excluded);
		this.queueCapacity = queueCapacity;
		this.tuningMode = tuningMode;
	}

	@Override
	public Object postProcessBeforeInitialization(Object bean, String beanName) {
		if (isExisting(bean, beanName) && ((ThreadPoolTaskExecutor) bean).getQueueCapacity() == Integer.MAX_VALUE) {
			ThreadPoolTaskExecutor executor = (ThreadPoolTaskExecutor) bean;
			executor.setQueueCapacity(this.queueCapacity);
			int core = executor.getCorePoolSize();
			if (executor.getMaxPoolSize() > core) {
				executor.setMaxPoolSize(Math.max(1, core));
			}
			logger.warn("ThreadPoolTaskExecutor '" + beanName + "' had an unbounded queue: poolpilot bounded it at "
					+ this.queueCapacity + " tasks (poolpilot.existing-executors.queue-capacity) with at most "
					+ executor.getMaxPoolSize() + " threads, the most it could ever start. Set its queue capacity, "
					+ "or list it in poolpilot.exclude, to choose otherwise.");
		}
		return bean;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (!isExisting(bean, beanName)) {
			return bean;
		}
		ThreadPoolTaskExecutor executor = (ThreadPoolTaskExecutor) bean;
		ThreadPoolExecutor live = executor.getThreadPoolExecutor();
		PoolRecorder recorder = this.recorder.get().build();
		PoolBounds bounds = new PoolBounds(Math.min(live.getCorePoolSize(), 1), live.getMaximumPoolSize());
		ManagedPool pool = new ManagedPool(beanName, live, recorder, bounds);
		pool.setTuningMode(this.tuningMode);
		live.setRejectedExecutionHandler(pool.countingRejections(live.getRejectedExecutionHandler()));
		this.registry.get().register(pool);
		ProxyFactory proxy = new ProxyFactory(executor);
		proxy.setProxyTargetClass(true);
		proxy.addAdvice(new MeasuringTaskInterceptor(executor, recorder));
		return proxy.getProxy(executor.getClass().getClassLoader());
	}

	@Override
	public void postProcessBeforeDestruction(Object bean, String beanName) {
		if (bean instanceof ThreadPoolTaskExecutor && !(bean instanceof ManagedTaskExecutor)) {
			ManagedPool pool = this.registry.get().get(beanName);
			if (pool != null) {
				this.registry.get().unregister(pool);
			}
		}
	}

	@Override
	public boolean requiresDestruction(Object bean) {
		return bean instanceof ThreadPoolTaskExecutor && !(bean instanceof ManagedTaskExecutor);
	}

	private boolean isExisting(Object bean, String beanName) {
		return bean instanceof ThreadPoolTaskExecutor && !(bean instanceof ManagedTaskExecutor)
				&& !this.excluded.contains(beanName);
	}

	@Override
	public int getOrder() {
		// Late, so that the proxy wraps whatever other post-processors made of the bean.
		return Ordered.LOWEST_PRECEDENCE - 10;
	}

}
