package io.github.poolpilot.scheduling;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.measure.PoolRecorderBuilder;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.schedule.ExistingScheduler;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.factory.config.DestructionAwareBeanPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * Brings an application's {@link ThreadPoolTaskScheduler} beans, Boot's
 * {@code taskScheduler} among them, under management: each is the pool named after its
 * bean, its runs measured against when they were due, its size moved into its bounds and
 * changed only through the pool's checked door. The bean keeps its own instance, so its
 * thread names, task decorator, error handler, clock and shutdown settings stay as
 * configured; it is replaced by a proxy that measures every task handed to it
 * ({@link SchedulingInterceptor}).
 *
 * @author poolpilot authors
 */
public class ExistingSchedulersPostProcessor implements DestructionAwareBeanPostProcessor, Ordered {

	private static final Log logger = LogFactory.getLog(ExistingSchedulersPostProcessor.class);

	private final Supplier<PoolRegistry> registry;

	private final Supplier<PoolRecorderBuilder> recorder;

	private final Set<String> excluded;

	private final Settings settings;

	private final Map<String, PoolBounds> boundsByBean = new ConcurrentHashMap<>();

	/**
	 * Create a post-processor.
	 * @param registry the registry the schedulers' pools join, looked up when the first
	 * one is found
	 * @param recorder the measurement settings for each pool
	 * @param excluded bean names to leave alone
	 * @param settings the bounds and weight of every scheduler's pool
	 */
	public ExistingSchedulersPostProcessor(Supplier<PoolRegistry> registry, Supplier<PoolRecorderBuilder> recorder,
			Collection<String> excluded, Settings settings) {
		this.registry = registry;
		this.recorder = recorder;
		this.excluded = Set.copyOf(excluded);
		this.settings = settings;
	}

	@Override
	public Object postProcessBeforeInitialization(Object bean, String beanName) {
		if (!isScheduler(bean, beanName)) {
			return bean;
		}
		ThreadPoolTaskScheduler scheduler = (ThreadPoolTaskScheduler) bean;
		int own = scheduler.getPoolSize();
		int maxThreads = this.settings.maxThreads();
		Integer configuredMin = this.settings.minThreads();
		int minThreads = (configuredMin != null) ? configuredMin : Math.min(own, maxThreads);
		PoolBounds bounds = new PoolBounds(minThreads, maxThreads);
		int size = bounds.clamp(own);
		if (size != own) {
			logger.info("ThreadPoolTaskScheduler '" + beanName + "' had a pool size of " + own
					+ ": poolpilot starts it at " + size + ", within poolpilot.scheduler.min-threads " + minThreads
					+ " and max-threads " + maxThreads);
		}
		// Not initialized yet: this only sets the field initialization uses.
		scheduler.setPoolSize(size);
		this.boundsByBean.put(beanName, bounds);
		return bean;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		PoolBounds bounds = this.boundsByBean.get(beanName);
		if (!isScheduler(bean, beanName) || bounds == null) {
			return bean;
		}
		ThreadPoolTaskScheduler scheduler = (ThreadPoolTaskScheduler) bean;
		ExistingScheduler managed = new ExistingScheduler(beanName, scheduler.getScheduledThreadPoolExecutor(),
				scheduler::setPoolSize, this.recorder.get().scheduledRuns().build(), bounds);
		managed.getPool().setWeight(this.settings.weight());
		this.registry.get().register(managed.getPool());
		ProxyFactory proxy = new ProxyFactory(scheduler);
		proxy.setProxyTargetClass(true);
		proxy.addAdvice(new SchedulingInterceptor(scheduler, managed));
		return proxy.getProxy(scheduler.getClass().getClassLoader());
	}

	@Override
	public void postProcessBeforeDestruction(Object bean, String beanName) {
		if (bean instanceof ThreadPoolTaskScheduler && this.boundsByBean.containsKey(beanName)) {
			ManagedPool pool = this.registry.get().get(beanName);
			if (pool != null) {
				this.registry.get().unregister(pool);
			}
		}
	}

	@Override
	public boolean requiresDestruction(Object bean) {
		return bean instanceof ThreadPoolTaskScheduler;
	}

	private boolean isScheduler(Object bean, String beanName) {
		return bean instanceof ThreadPoolTaskScheduler && !this.excluded.contains(beanName);
	}

	@Override
	public int getOrder() {
		// Late, so that the proxy wraps whatever other post-processors made of the bean.
		return Ordered.LOWEST_PRECEDENCE - 10;
	}

	/**
	 * The bounds and weight of every scheduler's pool.
	 *
	 * @param minThreads the smallest size, or {@code null} for the scheduler's own size
	 * (or max-threads where that is lower)
	 * @param maxThreads the largest size
	 * @param weight the share of the budget
	 */
	public record Settings(@Nullable Integer minThreads, int maxThreads, int weight) {

	}

}
