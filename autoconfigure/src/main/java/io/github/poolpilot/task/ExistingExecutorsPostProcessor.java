package io.github.poolpilot.task;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.execution.ExistingExecutor;
import io.github.poolpilot.guard.TaskGuard;
import io.github.poolpilot.measure.PoolRecorderBuilder;
import io.github.poolpilot.pool.InvalidPoolSizeException;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.ManagedPool.SizeControl;
import io.github.poolpilot.pool.PoolNameTakenException;
import io.github.poolpilot.pool.PoolRegistry;

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
 * Before initialization the executor gets its settings under management
 * ({@link ExistingExecutorSettings}): its sizes are moved into its bounds, an unbounded
 * queue is bounded (and an unbounded maximum size, which an unbounded queue never let the
 * pool reach, is brought down), and what the configuration names for it (queue capacity,
 * keep-alive, await-termination) is set. After it, the live pool's rejection policy is
 * wrapped to count, the pool joins the registry with its weight and guards, and the bean
 * is replaced by a proxy that measures every submitted task and sends every size change,
 * through the bean's setters or its {@code getThreadPoolExecutor()}, through the pool's
 * one checked door.
 *
 * @author poolpilot authors
 */
public class ExistingExecutorsPostProcessor implements DestructionAwareBeanPostProcessor, Ordered {

	private static final Log logger = LogFactory.getLog(ExistingExecutorsPostProcessor.class);

	private final Supplier<PoolRegistry> registry;

	private final Supplier<PoolRecorderBuilder> recorder;

	private final Set<String> excluded;

	private final ExistingExecutorSettings.Source settings;

	private final Map<String, ExistingExecutorSettings> settingsByBean = new ConcurrentHashMap<>();

	private final Map<String, ExistingExecutorSettings.Own> ownSettings = new ConcurrentHashMap<>();

	/**
	 * Create a post-processor.
	 * @param registry the registry the existing pools join, looked up when the first one
	 * is found
	 * @param recorder the measurement settings for each pool
	 * @param excluded bean names to leave alone
	 * @param settings decides how each executor is managed
	 */
	public ExistingExecutorsPostProcessor(Supplier<PoolRegistry> registry, Supplier<PoolRecorderBuilder> recorder,
			Collection<String> excluded, ExistingExecutorSettings.Source settings) {
		this.registry = registry;
		this.recorder = recorder;
		this.excluded = Set.copyOf(excluded);
		this.settings = settings;
	}

	@Override
	public Object postProcessBeforeInitialization(Object bean, String beanName) {
		if (!isExisting(bean, beanName)) {
			return bean;
		}
		ThreadPoolTaskExecutor executor = (ThreadPoolTaskExecutor) bean;
		ExistingExecutorSettings.Own own = new ExistingExecutorSettings.Own(beanName, executor.getCorePoolSize(),
				executor.getMaxPoolSize(), executor.getQueueCapacity(), executor.getKeepAliveSeconds());
		ExistingExecutorSettings settings = this.settings.settings(own);
		// Not initialized yet: these only set the bean's fields, which initialization
		// uses.
		executor.setQueueCapacity(settings.queueCapacity());
		executor.setCorePoolSize(settings.corePoolSize());
		executor.setMaxPoolSize(settings.maxPoolSize());
		Duration keepAlive = settings.keepAlive();
		if (keepAlive != null) {
			executor.setKeepAliveSeconds((int) keepAlive.toSeconds());
		}
		Duration awaitTermination = settings.awaitTermination();
		if (awaitTermination != null) {
			executor.setWaitForTasksToCompleteOnShutdown(true);
			executor.setAwaitTerminationMillis(awaitTermination.toMillis());
		}
		this.settingsByBean.put(beanName, settings);
		this.ownSettings.put(beanName, own);
		// Said at debug: Boot's applicationTaskExecutor has an unbounded queue in every
		// application, most of which never fill it; BoundedQueueNotice warns when the
		// bound refuses a task.
		if (own.unboundedQueue() && logger.isDebugEnabled()) {
			logger.debug("ThreadPoolTaskExecutor '" + beanName + "' had an unbounded queue: poolpilot bounded it at "
					+ settings.queueCapacity() + " tasks with at most " + settings.maxPoolSize()
					+ " threads (poolpilot.existing-executors.queue-capacity, or poolpilot.existing-executors."
					+ beanName + ".queue-capacity and .max-threads). Set its queue capacity, or list it in "
					+ "poolpilot.exclude, to choose otherwise.");
		}
		return bean;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		ExistingExecutorSettings settings = this.settingsByBean.get(beanName);
		if (!isExisting(bean, beanName) || settings == null) {
			return bean;
		}
		ThreadPoolTaskExecutor executor = (ThreadPoolTaskExecutor) bean;
		ThreadPoolExecutor live = executor.getThreadPoolExecutor();
		Duration keepAlive = settings.keepAlive();
		if (keepAlive != null) {
			live.setKeepAliveTime(keepAlive.toNanos(), TimeUnit.NANOSECONDS);
		}
		// The bean's own setters keep its copy of the sizes in step with the live pool.
		ExistingExecutor existing = new ExistingExecutor(beanName, live, new SizeControl() {

			@Override
			public void setCorePoolSize(int corePoolSize) {
				executor.setCorePoolSize(corePoolSize);
			}

			@Override
			public void setMaximumPoolSize(int maxPoolSize) {
				executor.setMaxPoolSize(maxPoolSize);
			}

		}, this.recorder.get().build(), settings.bounds());
		existing.getPool().setWeight(settings.weight());
		existing.setGuard(TaskGuard.of(settings.guards().apply(existing.getPool())));
		try {
			PoolLifecycle.started(this.registry.get(), existing.getPool());
		}
		catch (InvalidPoolSizeException ex) {
			// Created after start-up (a lazy bean) into a budget the others fill.
			executor.shutdown();
			throw new InvalidPoolSizeException(ex.getField(),
					ex.getMessage() + ": raise poolpilot.budget.max-threads, lower poolpilot.existing-executors."
							+ beanName + ".min-threads, or leave the executor out with poolpilot.exclude");
		}
		catch (PoolNameTakenException ex) {
			// A pool poolpilot made of a server's threads has the bean's name.
			executor.shutdown();
			throw new IllegalStateException(ex.getMessage() + ": " + nameTaken(beanName), ex);
		}
		ProxyFactory proxy = new ProxyFactory(executor);
		proxy.setProxyTargetClass(true);
		proxy.addAdvice(new MeasuringTaskInterceptor(executor, existing));
		return proxy.getProxy(executor.getClass().getClassLoader());
	}

	/**
	 * Say what to do when an application's executor bean has the name of a pool poolpilot
	 * makes of a server's threads ({@code http}, {@code grpc}).
	 * @param beanName the bean's name
	 * @return the advice
	 */
	public static String nameTaken(String beanName) {
		return "the application's executor bean '" + beanName + "' is managed as the pool of that name too; leave it "
				+ "out with poolpilot.exclude=" + beanName + ", or give the bean another name";
	}

	@Override
	public void postProcessBeforeDestruction(Object bean, String beanName) {
		if (bean instanceof ThreadPoolTaskExecutor && !(bean instanceof ManagedTaskExecutor)) {
			ManagedPool pool = this.registry.get().get(beanName);
			if (pool != null) {
				PoolLifecycle.stopped(this.registry.get(), pool);
			}
		}
	}

	@Override
	public boolean requiresDestruction(Object bean) {
		return bean instanceof ThreadPoolTaskExecutor && !(bean instanceof ManagedTaskExecutor);
	}

	/**
	 * Return the settings an executor under management was made with, before poolpilot
	 * changed any, so that a configuration refresh can apply its configuration again over
	 * them.
	 * @param beanName the executor's bean name
	 * @return its own settings, or {@code null} for a bean not managed here
	 */
	public ExistingExecutorSettings.@Nullable Own ownSettings(String beanName) {
		return this.ownSettings.get(beanName);
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
