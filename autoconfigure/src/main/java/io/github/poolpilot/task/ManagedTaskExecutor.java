package io.github.poolpilot.task;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.execution.ManagedExecutor;
import io.github.poolpilot.execution.ManagedExecutorService;
import io.github.poolpilot.execution.VirtualManagedExecutor;
import io.github.poolpilot.guard.TaskGuard;
import io.github.poolpilot.measure.PoolRecorderBuilder;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.task.ThreadPoolTaskSettings.SpringSizes;

import org.springframework.core.task.TaskDecorator;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.util.Assert;

/**
 * A {@link ThreadPoolTaskExecutor} backed by a {@link ManagedExecutor}: configured like
 * any {@code ThreadPoolTaskExecutor} (by hand, or through Boot's
 * {@code ThreadPoolTaskExecutorBuilder.build(ManagedTaskExecutor.class)}), then measured,
 * bounded by an {@code ArrayBlockingQueue} and resizable within its {@link PoolBounds}.
 * <p>
 * Spring's executor keeps its task decorator and a few flags without getters, so this
 * class keeps its own copy of each as it is set and hands them to the managed executor.
 * Core and maximum sizes are read from the live pool, so they stay true when the tuner or
 * the endpoint resizes it.
 *
 * @author poolpilot authors
 */
public class ManagedTaskExecutor extends ThreadPoolTaskExecutor {

	/**
	 * The queue capacity used unless another is set: Spring's default is unbounded.
	 */
	public static final int DEFAULT_QUEUE_CAPACITY = 1000;

	private final ThreadPoolTaskSettings settings = new ThreadPoolTaskSettings();

	private volatile @Nullable ManagedExecutorService managed;

	public ManagedTaskExecutor() {
		setQueueCapacity(DEFAULT_QUEUE_CAPACITY);
	}

	/**
	 * Set the pool's name (by default the bean name).
	 * @param poolName the pool's name
	 */
	public void setPoolName(String poolName) {
		this.settings.setPoolName(poolName);
	}

	/**
	 * Set the range the tuner and manual changes may move the pool's sizes in (by default
	 * from 1, or 0 for a core size of 0, to the maximum pool size); once the pool runs,
	 * its sizes move into the new range, through the budget.
	 * @param bounds the bounds
	 * @throws io.github.poolpilot.pool.InvalidPoolSizeException if the running pool's
	 * moved sizes would exceed the budget, changing nothing
	 */
	public void setBounds(PoolBounds bounds) {
		ManagedExecutorService managed = this.managed;
		if (managed != null) {
			managed.getPool().setBounds(bounds);
		}
		this.settings.pool().setBounds(bounds);
	}

	/**
	 * Set how the pool's tasks are measured.
	 * @param recorder a recorder builder with the measurement settings
	 */
	public void setRecorder(PoolRecorderBuilder recorder) {
		this.settings.pool().setRecorder(recorder);
	}

	/**
	 * Set the registry the pool joins when it starts and leaves when it shuts down.
	 * @param registry the registry
	 */
	public void setRegistry(PoolRegistry registry) {
		this.settings.pool().setRegistry(registry);
	}

	/**
	 * Set the pool's share of the budget relative to other pools' weights (1 by default),
	 * of the running pool too.
	 * @param weight the weight
	 * @throws IllegalArgumentException if it is not at least 1, changing nothing
	 */
	public void setWeight(int weight) {
		this.settings.setWeight(weight);
		ManagedExecutorService managed = this.managed;
		if (managed != null) {
			managed.getPool().setWeight(weight);
		}
	}

	/**
	 * Set how to make the pool's guards (its max-queue-wait, timeout, circuit breaker)
	 * once it exists.
	 * @param guards the guards for the pool, in the order they check
	 */
	public void setGuards(Function<ManagedPool, List<TaskGuard>> guards) {
		this.settings.setGuards(guards);
	}

	@Override
	public void setBeanName(String name) {
		super.setBeanName(name);
		this.settings.setBeanName(name);
	}

	@Override
	public void setTaskDecorator(TaskDecorator taskDecorator) {
		super.setTaskDecorator(taskDecorator);
		this.settings.pool().setTaskDecorator(taskDecorator);
	}

	/**
	 * Set whether core threads also end once idle for the keep-alive; unlike Spring's,
	 * applied to the running pool too.
	 * @param allowCoreThreadTimeOut whether core threads time out
	 * @throws IllegalArgumentException naming the pool if the running pool's core threads
	 * are to time out with a keep-alive of 0, changing nothing
	 */
	@Override
	public void setAllowCoreThreadTimeOut(boolean allowCoreThreadTimeOut) {
		ManagedExecutorService managed = this.managed;
		if (managed != null) {
			managed.asThreadPoolExecutor().allowCoreThreadTimeOut(allowCoreThreadTimeOut);
		}
		super.setAllowCoreThreadTimeOut(allowCoreThreadTimeOut);
		this.settings.setAllowCoreThreadTimeOut(allowCoreThreadTimeOut);
	}

	/**
	 * Return whether core threads also end once idle for the keep-alive, as last set
	 * (Spring's executor keeps the setting without a getter).
	 * @return whether core threads time out
	 */
	public boolean isAllowCoreThreadTimeOut() {
		return this.settings.isAllowCoreThreadTimeOut();
	}

	@Override
	public void setPrestartAllCoreThreads(boolean prestartAllCoreThreads) {
		super.setPrestartAllCoreThreads(prestartAllCoreThreads);
		this.settings.setPrestartAllCoreThreads(prestartAllCoreThreads);
	}

	/**
	 * Set whether each task runs on a virtual thread of its own (Java 21 or later): the
	 * pool is then a {@link VirtualManagedExecutor}, whose sizes are a limit on how many
	 * tasks run at once rather than a number of threads kept. Spring hands it a factory
	 * of virtual threads named with the thread name prefix.
	 * @param virtualThreads whether the pool runs its tasks on virtual threads
	 */
	@Override
	public void setVirtualThreads(boolean virtualThreads) {
		super.setVirtualThreads(virtualThreads);
		this.settings.setVirtualThreads(virtualThreads);
	}

	@Override
	public void setWaitForTasksToCompleteOnShutdown(boolean waitForJobsToCompleteOnShutdown) {
		super.setWaitForTasksToCompleteOnShutdown(waitForJobsToCompleteOnShutdown);
		this.settings.setWaitForTasksToCompleteOnShutdown(waitForJobsToCompleteOnShutdown);
	}

	@Override
	public void setAwaitTerminationMillis(long awaitTerminationMillis) {
		super.setAwaitTerminationMillis(awaitTerminationMillis);
		this.settings.setAwaitTermination(Duration.ofMillis(awaitTerminationMillis));
	}

	@Override
	public void setAwaitTerminationSeconds(int awaitTerminationSeconds) {
		setAwaitTerminationMillis(awaitTerminationSeconds * 1000L);
	}

	/**
	 * Set the capacity of the pool's queue, before it starts: the running pool's queue
	 * keeps the capacity it was made with.
	 * @param queueCapacity the queue capacity, at least 1
	 * @throws IllegalArgumentException if it is below 1, or, naming the pool, if it
	 * differs from the running pool's, changing nothing
	 */
	@Override
	public void setQueueCapacity(int queueCapacity) {
		ManagedPoolSettings.checkQueueCapacity(queueCapacity);
		ManagedExecutorService managed = this.managed;
		if (managed != null) {
			ManagedPoolSettings.checkQueueCapacity(managed.getPool(), queueCapacity);
		}
		super.setQueueCapacity(queueCapacity);
	}

	@Override
	public void setCorePoolSize(int corePoolSize) {
		ManagedExecutorService managed = this.managed;
		if (managed != null) {
			ManagedPool pool = managed.getPool();
			// The maximum size read under the lock the tuner resizes under.
			pool.change(() -> pool.resize(corePoolSize, Math.max(corePoolSize, pool.maxPoolSize())));
		}
		super.setCorePoolSize(corePoolSize);
	}

	@Override
	public void setMaxPoolSize(int maxPoolSize) {
		ManagedExecutorService managed = this.managed;
		if (managed != null) {
			ManagedPool pool = managed.getPool();
			// The core size read under the lock the tuner resizes under.
			pool.change(() -> pool.resize(Math.min(pool.corePoolSize(), maxPoolSize), maxPoolSize));
		}
		super.setMaxPoolSize(maxPoolSize);
	}

	/**
	 * Set the keep-alive, of the running pool too.
	 * @param keepAliveSeconds the keep-alive in seconds
	 * @throws IllegalArgumentException naming the pool if the running pool refuses it
	 * (negative, or 0 while core threads time out), changing nothing
	 */
	@Override
	public void setKeepAliveSeconds(int keepAliveSeconds) {
		ManagedExecutorService managed = this.managed;
		if (managed != null) {
			managed.asThreadPoolExecutor().setKeepAliveTime(keepAliveSeconds, TimeUnit.SECONDS);
		}
		super.setKeepAliveSeconds(keepAliveSeconds);
	}

	@Override
	protected ExecutorService initializeExecutor(ThreadFactory threadFactory,
			RejectedExecutionHandler rejectedExecutionHandler) {
		SpringSizes sizes = new SpringSizes(super.getCorePoolSize(), super.getMaxPoolSize(), getQueueCapacity(),
				Duration.ofSeconds(getKeepAliveSeconds()));
		ManagedExecutorService executor = this.settings.build(sizes, threadFactory, rejectedExecutionHandler,
				this::beforeExecute, this::afterExecute);
		this.settings.pool().started(executor);
		this.managed = executor;
		return executor;
	}

	/**
	 * Return the managed executor behind this task executor.
	 * @return the managed executor
	 * @throws IllegalStateException if the executor is not initialized yet
	 */
	public ManagedExecutorService getManagedExecutor() {
		ManagedExecutorService managed = this.managed;
		Assert.state(managed != null, "ManagedTaskExecutor not initialized");
		return managed;
	}

	@Override
	public ThreadPoolExecutor getThreadPoolExecutor() {
		return getManagedExecutor().asThreadPoolExecutor();
	}

	@Override
	public int getCorePoolSize() {
		ManagedExecutorService managed = this.managed;
		return (managed != null) ? managed.getPool().corePoolSize() : super.getCorePoolSize();
	}

	@Override
	public int getMaxPoolSize() {
		ManagedExecutorService managed = this.managed;
		return (managed != null) ? managed.getPool().maxPoolSize() : super.getMaxPoolSize();
	}

	/**
	 * Return the pool's live threads, or, as Spring's does, the core size until the pool
	 * is initialized.
	 */
	@Override
	public int getPoolSize() {
		ManagedExecutorService managed = this.managed;
		return (managed != null) ? managed.getPool().liveThreads() : super.getPoolSize();
	}

	@Override
	public int getQueueSize() {
		ManagedExecutorService managed = this.managed;
		return (managed != null) ? managed.getPool().getExecutor().getQueueSize() : 0;
	}

	@Override
	public int getActiveCount() {
		ManagedExecutorService managed = this.managed;
		return (managed != null) ? managed.getPool().getExecutor().getActiveCount() : 0;
	}

	@Override
	public void execute(Runnable task) {
		Submissions.execute(getManagedExecutor(), task);
	}

	@Override
	public Future<?> submit(Runnable task) {
		return Submissions.submit(getManagedExecutor(), task);
	}

	@Override
	public <T> Future<T> submit(Callable<T> task) {
		return Submissions.submit(getManagedExecutor(), task);
	}

	@Override
	public CompletableFuture<Void> submitCompletable(Runnable task) {
		return submitCompletable(Submissions.callable(task));
	}

	/**
	 * Submit a task whose result completes the returned future, the way {@code @Async}
	 * methods returning a {@code CompletableFuture} are submitted: the pool counts a task
	 * that threw as failed, and fails the future with its rejection if it refuses the
	 * task after it was queued (max-queue-wait).
	 */
	@Override
	public <T> CompletableFuture<T> submitCompletable(Callable<T> task) {
		return Submissions.submitCompletable(getManagedExecutor(), task);
	}

	/**
	 * Shut down as configured. When the pool waits for its tasks for a limited time and
	 * they do not finish within it, what is left is cancelled, counted as abandoned and
	 * logged, never dropped silently.
	 */
	@Override
	public void shutdown() {
		super.shutdown();
		ManagedExecutorService managed = this.managed;
		if (managed == null) {
			return;
		}
		this.settings.shutDown(managed);
	}

}
