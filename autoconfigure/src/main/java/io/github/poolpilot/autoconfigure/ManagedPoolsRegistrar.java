package io.github.poolpilot.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.autoconfigure.PoolpilotProperties.Measurement;
import io.github.poolpilot.budget.BudgetSizing;
import io.github.poolpilot.budget.BudgetSizing.Planned;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.measure.PoolRecorderBuilder;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.guard.QueueWaitLimit;
import io.github.poolpilot.guard.TaskGuard;
import io.github.poolpilot.guard.TaskGuardProvider;
import io.github.poolpilot.guard.TaskTimeouts;
import io.github.poolpilot.task.ManagedTaskExecutor;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.task.ThreadPoolTaskExecutorBuilder;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;
import org.springframework.util.Assert;
import org.springframework.util.ClassUtils;

/**
 * Registers one {@link ManagedTaskExecutor} bean per entry of {@code poolpilot.pools},
 * named after it so that {@code @Qualifier("talk")} and {@code @Async("talk")} find it.
 * The configuration is checked first, so that a bad value fails start-up before any pool
 * exists.
 *
 * @author poolpilot authors
 */
class ManagedPoolsRegistrar implements BeanDefinitionRegistryPostProcessor, EnvironmentAware {

	/**
	 * The environment of a servlet web application (Spring Web's), as Spring Boot's
	 * condition on a servlet application reads it.
	 */
	private static final String SERVLET_ENVIRONMENT = "org.springframework.web.context.ConfigurableWebEnvironment";

	private @Nullable Environment environment;

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
		Assert.state(this.environment != null, "Environment not set");
		PoolpilotProperties properties = bind(this.environment);
		Map<String, Integer> initialSizes = initialSizes(properties);
		properties.getPools().forEach((name, pool) -> {
			checkNameIsFree(registry, name);
			RootBeanDefinition definition = new RootBeanDefinition(ManagedTaskExecutor.class,
					() -> createPool(name, pool, initialSizes.get(name), properties, (BeanFactory) registry));
			registry.registerBeanDefinition(name, definition);
		});
	}

	/**
	 * A pool is a bean of its name: refuse a name another bean has, which Spring would
	 * otherwise answer with advice to allow bean definition overriding.
	 */
	private static void checkNameIsFree(BeanDefinitionRegistry registry, String name) {
		if (registry.containsBeanDefinition(name) || registry.isAlias(name)) {
			String type = registry.containsBeanDefinition(name)
					? registry.getBeanDefinition(name).getResolvableType().toString() : "an alias";
			throw new InvalidPoolpilotPropertyException("poolpilot.pools." + name, "a pool named '" + name + "'",
					"a pool is a bean of its name, and the application already has a bean named '" + name + "' (" + type
							+ "): give the pool another name, or, if that bean is a ThreadPoolTaskExecutor, "
							+ "configure it under poolpilot.existing-executors." + name + " instead");
		}
	}

	/**
	 * Bind and check the properties, for the post-processors that run before the
	 * properties bean exists.
	 */
	static PoolpilotProperties bind(Environment environment) {
		UnknownKeysCheck.check(environment);
		PoolpilotProperties properties = Binder.get(environment).bindOrCreate("poolpilot", PoolpilotProperties.class);
		PoolpilotPropertiesValidator.validate(properties, isServletEnvironment(environment),
				environment.getProperty("poolpilot.grpc-server.enabled", Boolean.class, false));
		ExistingExecutorsBinding.checkNoBeanIsNamedLikeAGlobalKey(environment);
		return properties;
	}

	/**
	 * Return whether the environment is a servlet web application's, as Spring Boot tells
	 * a servlet application by its environment; without Spring Web on the class path it
	 * is not.
	 */
	private static boolean isServletEnvironment(Environment environment) {
		ClassLoader classLoader = environment.getClass().getClassLoader();
		return ClassUtils.isPresent(SERVLET_ENVIRONMENT, classLoader)
				&& ClassUtils.resolveClassName(SERVLET_ENVIRONMENT, classLoader).isInstance(environment);
	}

	static PoolRecorderBuilder recorder(Measurement measurement) {
		return PoolRecorder.builder()
			.timingSampleEvery(measurement.getTimingSampleEvery())
			.cpuSampleEvery(measurement.getCpuSampleEvery());
	}

	/**
	 * The size each pool starts at, as the budget decides it.
	 */
	static Map<String, Integer> initialSizes(PoolpilotProperties properties) {
		List<Planned> pools = new ArrayList<>();
		properties.getPools()
			.forEach((name, pool) -> pools.add(new Planned(name, pool.getMinThreads(), pool.getMaxThreads(),
					pool.getWeight(), pool.getInitialThreads())));
		return BudgetSizing.initialSizes(properties.getBudget().getMaxThreads(), pools,
				properties.getTuning().isEnabled());
	}

	private static ManagedTaskExecutor createPool(String name, PoolProperties pool, int initialSize,
			PoolpilotProperties properties, BeanFactory beanFactory) {
		ThreadPoolTaskExecutorBuilder builder = beanFactory.getBeanProvider(ThreadPoolTaskExecutorBuilder.class)
			.getIfAvailable(ThreadPoolTaskExecutorBuilder::new);
		ManagedTaskExecutor executor = builder.corePoolSize(initialSize)
			.maxPoolSize(initialSize)
			.queueCapacity(pool.getQueueCapacity())
			.keepAlive(keepAlive(pool))
			.threadNamePrefix(name + "-")
			// Without a period Spring's executor would let the tasks run on after it shut
			// down: none means stop at once, as when a period ran out.
			.awaitTermination(!pool.getAwaitTermination().isZero())
			.awaitTerminationPeriod(pool.getAwaitTermination())
			.build(ManagedTaskExecutor.class);
		if (executor.isAllowCoreThreadTimeOut() && keepAlive(pool).isZero()) {
			throw new InvalidPoolpilotPropertyException("poolpilot.pools." + name + ".keep-alive", pool.getKeepAlive(),
					"must be more than 0 while the pool's core threads time out, as Spring Boot's "
							+ "spring.task.execution.pool.allow-core-thread-timeout (true by default) makes them: "
							+ "a keep-alive of 0 would end them as soon as they are idle");
		}
		// Spring's own switch: the executor is handed a factory of virtual threads named
		// after the pool, and makes a virtual pool of it.
		executor.setVirtualThreads(pool.isVirtualThreads());
		executor.setBounds(new PoolBounds(pool.getMinThreads(), pool.getMaxThreads()));
		executor.setRecorder(recorder(properties.getMeasurement()));
		executor.setWeight(pool.getWeight());
		executor.setRegistry(beanFactory.getBean(PoolRegistry.class));
		executor.setGuards((managed) -> guards(name, pool, managed, beanFactory));
		return executor;
	}

	/**
	 * Return a pool's keep-alive as Spring's {@code ThreadPoolTaskExecutor} keeps it, in
	 * whole seconds, rounded up: a sub-second keep-alive would otherwise become 0, which
	 * ends idle threads at once and is refused while core threads time out (as Boot's
	 * builder makes them), and no idle thread ends sooner than asked.
	 */
	static Duration keepAlive(PoolProperties pool) {
		Duration keepAlive = pool.getKeepAlive();
		Duration wholeSeconds = Duration.ofSeconds(keepAlive.getSeconds());
		return wholeSeconds.equals(keepAlive) ? keepAlive : wholeSeconds.plusSeconds(1);
	}

	/**
	 * The pool's guards in the order they check (a declared pool's, or an existing
	 * executor's): its max-queue-wait, then those of the {@link TaskGuardProvider} beans
	 * (a circuit breaker), then its timeout, which holds a watch on each running task and
	 * so must come last.
	 */
	static List<TaskGuard> guards(String name, PoolProperties pool, ManagedPool managed, BeanFactory beanFactory) {
		List<TaskGuard> guards = new ArrayList<>();
		Duration maxQueueWait = pool.getMaxQueueWait();
		if (maxQueueWait != null) {
			guards.add(new QueueWaitLimit(managed, maxQueueWait));
		}
		beanFactory.getBeanProvider(TaskGuardProvider.class)
			.orderedStream()
			.forEach((provider) -> guards.addAll(provider.guards(name, managed)));
		Duration timeout = pool.getResilience().getTimeout();
		if (timeout != null) {
			guards.add(new TaskTimeouts(managed, timeout));
		}
		return guards;
	}

}
