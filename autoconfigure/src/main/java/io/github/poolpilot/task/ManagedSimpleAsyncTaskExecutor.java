package io.github.poolpilot.task;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.measure.PoolRecorderBuilder;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.execution.VirtualManagedExecutor;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.core.task.TaskDecorator;
import org.springframework.util.Assert;

/**
 * A {@link SimpleAsyncTaskExecutor}, the executor Spring Boot makes for
 * {@code applicationTaskExecutor} when virtual threads are enabled, whose tasks go
 * through a {@link VirtualManagedExecutor}: each still runs on a virtual thread of its
 * own, made by this executor (so named with its thread name prefix), but at most the
 * pool's limit at once, behind a bounded queue, measured, tuned and refused like any
 * managed pool's.
 * <p>
 * It is configured like any {@code SimpleAsyncTaskExecutor}, through Boot's
 * {@code SimpleAsyncTaskExecutorBuilder.build(ManagedSimpleAsyncTaskExecutor.class)}, and
 * keeps its settings: the thread name prefix, virtual threads, the task decorator
 * (applied when a task is submitted, on the submitting thread), the task termination
 * timeout and whether remaining tasks are cancelled on close. Its concurrency limit, if
 * any, becomes the pool's max-threads; callers are then never blocked by it, since a task
 * beyond the limit waits in the queue or is refused.
 *
 * @author poolpilot authors
 */
public class ManagedSimpleAsyncTaskExecutor extends SimpleAsyncTaskExecutor implements InitializingBean {

	private String poolName = "applicationTaskExecutor";

	private final ManagedPoolSettings settings = new ManagedPoolSettings();

	private int queueCapacity = ManagedTaskExecutor.DEFAULT_QUEUE_CAPACITY;

	private long taskTerminationTimeout;

	private int weight = 1;

	private boolean cancelRemainingTasksOnClose;

	private volatile @Nullable VirtualManagedExecutor managed;

	/**
	 * Set the pool's name ({@code applicationTaskExecutor} by default).
	 * @param poolName the pool's name
	 */
	public void setPoolName(String poolName) {
		this.poolName = poolName;
	}

	/**
	 * Set the range the tuner and manual changes may move the pool's limit in (by default
	 * from 1 to the concurrency limit, which must then be set); once the pool runs, its
	 * limit moves into the new range, through the budget.
	 * @param bounds the bounds
	 * @throws io.github.poolpilot.pool.InvalidPoolSizeException if the running pool's
	 * moved limit would exceed the budget, changing nothing
	 */
	public void setBounds(PoolBounds bounds) {
		VirtualManagedExecutor managed = this.managed;
		if (managed != null) {
			managed.getPool().setBounds(bounds);
		}
		this.settings.setBounds(bounds);
	}

	/**
	 * Set the concurrency limit, the pool's max-threads when it starts without bounds of
	 * its own; once the pool runs, its limit, through the pool's checks (its bounds and
	 * the budget) as any resize. ({@code getConcurrencyLimit()}, final in Spring's
	 * executor, reads back the limit last set, not the tuner's.)
	 * @param concurrencyLimit the limit
	 * @throws io.github.poolpilot.pool.InvalidPoolSizeException if the running pool
	 * refuses it, changing nothing
	 */
	@Override
	public void setConcurrencyLimit(int concurrencyLimit) {
		VirtualManagedExecutor managed = this.managed;
		if (managed != null) {
			managed.getPool().resize(concurrencyLimit, concurrencyLimit);
		}
		super.setConcurrencyLimit(concurrencyLimit);
	}

	/**
	 * Set the capacity of the queue in front of the limit, before the pool starts: the
	 * running pool's queue keeps the capacity it was made with.
	 * @param queueCapacity the queue capacity, at least 1
	 * @throws IllegalArgumentException if it is below 1, or, naming the pool, if it
	 * differs from the running pool's, changing nothing
	 */
	public void setQueueCapacity(int queueCapacity) {
		ManagedPoolSettings.checkQueueCapacity(queueCapacity);
		VirtualManagedExecutor managed = this.managed;
		if (managed != null) {
			ManagedPoolSettings.checkQueueCapacity(managed.getPool(), queueCapacity);
		}
		this.queueCapacity = queueCapacity;
	}

	/**
	 * Set the pool's weight, its share of the budget when pools compete.
	 * @param weight the weight, at least 1
	 * @throws IllegalArgumentException if it is below 1, changing nothing
	 */
	public void setWeight(int weight) {
		VirtualManagedExecutor managed = this.managed;
		if (managed != null) {
			managed.getPool().setWeight(weight);
		}
		else {
			Assert.isTrue(weight >= 1, () -> "weight " + weight + " of pool '" + this.poolName
					+ "' must be at least 1 (allowed: 1 or more)");
		}
		this.weight = weight;
	}

	/**
	 * Set how the pool's tasks are measured.
	 * @param recorder a recorder builder with the measurement settings
	 */
	public void setRecorder(PoolRecorderBuilder recorder) {
		this.settings.setRecorder(recorder);
	}

	/**
	 * Set the registry the pool joins when it starts and leaves when it closes.
	 * @param registry the registry
	 */
	public void setRegistry(PoolRegistry registry) {
		this.settings.setRegistry(registry);
	}

	@Override
	public void setTaskDecorator(TaskDecorator taskDecorator) {
		super.setTaskDecorator(taskDecorator);
		this.settings.setTaskDecorator(taskDecorator);
	}

	@Override
	public void setTaskTerminationTimeout(long timeout) {
		super.setTaskTerminationTimeout(timeout);
		this.taskTerminationTimeout = timeout;
	}

	@Override
	public void setCancelRemainingTasksOnClose(boolean cancelRemainingTasksOnClose) {
		super.setCancelRemainingTasksOnClose(cancelRemainingTasksOnClose);
		this.cancelRemainingTasksOnClose = cancelRemainingTasksOnClose;
	}

	@Override
	public void afterPropertiesSet() {
		initialize();
	}

	/**
	 * Start the managed pool, at its largest limit as the executor without a limit
	 * allowed, and register it. Called once, by Spring or by hand.
	 */
	public void initialize() {
		if (this.managed != null) {
			return;
		}
		PoolBounds bounds = this.settings.getBounds();
		if (bounds == null) {
			int limit = getConcurrencyLimit();
			Assert.state(limit != NO_CONCURRENCY, () -> "concurrency limit 0 of pool '" + this.poolName
					+ "' would refuse every task (allowed: 1 or more, or the pool's bounds)");
			Assert.state(limit > 0, () -> "pool '" + this.poolName
					+ "' has neither a concurrency limit nor bounds (allowed: a concurrency limit of 1 or more, or the"
					+ " pool's bounds)");
			bounds = new PoolBounds(1, limit);
		}
		VirtualManagedExecutor executor = this.settings
			.builder(this.poolName, bounds, this.queueCapacity, this::newThread)
			.sizes(bounds.maxThreads(), bounds.maxThreads())
			.buildVirtual();
		executor.getPool().setWeight(this.weight);
		this.settings.started(executor);
		this.managed = executor;
	}

	/**
	 * Return the managed pool behind this executor.
	 * @return the managed executor
	 * @throws IllegalStateException if the executor is not initialized yet
	 */
	public VirtualManagedExecutor getManagedExecutor() {
		VirtualManagedExecutor managed = this.managed;
		Assert.state(managed != null, "ManagedSimpleAsyncTaskExecutor not initialized");
		return managed;
	}

	@Override
	public boolean isActive() {
		VirtualManagedExecutor managed = this.managed;
		return (managed != null) ? !managed.isShutdown() : super.isActive();
	}

	@Override
	public void execute(Runnable task) {
		Assert.notNull(task, "Runnable must not be null");
		Submissions.execute(getManagedExecutor(), task);
	}

	/**
	 * Execute the task as {@link #execute(Runnable)} does: a task beyond the limit waits
	 * in the queue or is refused, whatever the start timeout.
	 */
	@Override
	@Deprecated(since = "5.3.16")
	public void execute(Runnable task, long startTimeout) {
		execute(task);
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
	 * Stop taking tasks and close as configured: with cancel-remaining-tasks-on-close,
	 * cancel the queued tasks and interrupt the running ones at once; with a task
	 * termination timeout, let queued and running tasks finish for that long, then do the
	 * same; otherwise let them finish in the background, as
	 * {@code SimpleAsyncTaskExecutor} lets its threads run on. What is cancelled is
	 * counted as abandoned and logged, never dropped silently.
	 */
	@Override
	public void close() {
		VirtualManagedExecutor managed = this.managed;
		if (managed == null || managed.isShutdown()) {
			super.close();
			return;
		}
		managed.shutdown();
		Duration timeout = Duration.ofMillis(this.taskTerminationTimeout);
		if (this.cancelRemainingTasksOnClose) {
			PoolLifecycle.stopNow(managed, "was closed with cancel-remaining-tasks-on-close");
		}
		else if (this.taskTerminationTimeout > 0 && !PoolLifecycle.awaitTermination(managed, timeout)) {
			PoolLifecycle.stopNow(managed, "did not finish within " + timeout);
		}
		this.settings.stopped(managed.getPool());
		super.close();
	}

}
