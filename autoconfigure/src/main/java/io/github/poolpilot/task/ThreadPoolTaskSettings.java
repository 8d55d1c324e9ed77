package io.github.poolpilot.task;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadFactory;
import java.util.function.BiConsumer;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.execution.ManagedExecutor;
import io.github.poolpilot.execution.ManagedExecutorBuilder;
import io.github.poolpilot.execution.ManagedExecutorService;
import io.github.poolpilot.execution.VirtualManagedExecutor;
import io.github.poolpilot.guard.TaskGuard;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;

/**
 * What a {@link ManagedTaskExecutor} keeps of its settings beyond what Spring's
 * {@code ThreadPoolTaskExecutor} gives back (Spring keeps these without getters), and the
 * two moments that read them: how its managed executor is built, and how it ends when
 * Spring shuts it down.
 *
 * @author poolpilot authors
 */
final class ThreadPoolTaskSettings {

	private final ManagedPoolSettings pool = new ManagedPoolSettings();

	private @Nullable String poolName;

	private int weight = 1;

	private boolean allowCoreThreadTimeOut;

	private boolean prestartAllCoreThreads;

	private boolean waitForTasksToCompleteOnShutdown;

	private boolean virtualThreads;

	private Duration awaitTermination = Duration.ZERO;

	private @Nullable Function<ManagedPool, List<TaskGuard>> guards;

	ManagedPoolSettings pool() {
		return this.pool;
	}

	void setPoolName(String poolName) {
		this.poolName = poolName;
	}

	/**
	 * The bean's name, which names the pool unless a name was set.
	 * @param beanName the bean's name
	 */
	void setBeanName(String beanName) {
		if (this.poolName == null) {
			this.poolName = beanName;
		}
	}

	void setWeight(int weight) {
		ManagedPool.checkWeight(this.poolName, weight);
		this.weight = weight;
	}

	void setGuards(Function<ManagedPool, List<TaskGuard>> guards) {
		this.guards = guards;
	}

	void setAllowCoreThreadTimeOut(boolean allowCoreThreadTimeOut) {
		this.allowCoreThreadTimeOut = allowCoreThreadTimeOut;
	}

	boolean isAllowCoreThreadTimeOut() {
		return this.allowCoreThreadTimeOut;
	}

	void setPrestartAllCoreThreads(boolean prestartAllCoreThreads) {
		this.prestartAllCoreThreads = prestartAllCoreThreads;
	}

	void setVirtualThreads(boolean virtualThreads) {
		this.virtualThreads = virtualThreads;
	}

	void setWaitForTasksToCompleteOnShutdown(boolean waitForTasksToCompleteOnShutdown) {
		this.waitForTasksToCompleteOnShutdown = waitForTasksToCompleteOnShutdown;
	}

	void setAwaitTermination(Duration awaitTermination) {
		this.awaitTermination = awaitTermination;
	}

	/**
	 * Build the managed executor from these settings and Spring's, bounded by the pool's
	 * bounds or else from 1 (0 for a core size of 0) to the maximum size, with its weight
	 * and guards, and its core threads started if so set.
	 * @param sizes the core and maximum sizes, the queue capacity and the keep-alive
	 * Spring keeps
	 * @param threadFactory the factory of the pool's threads
	 * @param rejectedExecutionHandler Spring's rejection policy; its default
	 * {@code AbortPolicy} becomes one that throws {@code PoolRejectedException}
	 * @param beforeExecute Spring's hook before each task, on its thread
	 * @param afterExecute Spring's hook after each task, on its thread
	 * @return the managed executor, not yet in the registry
	 */
	ManagedExecutorService build(SpringSizes sizes, ThreadFactory threadFactory,
			RejectedExecutionHandler rejectedExecutionHandler, BiConsumer<Thread, Runnable> beforeExecute,
			BiConsumer<Runnable, @Nullable Throwable> afterExecute) {
		String name = (this.poolName != null) ? this.poolName : "managedTaskExecutor";
		PoolBounds bounds = this.pool.getBounds();
		if (bounds == null) {
			bounds = new PoolBounds(Math.min(sizes.core(), 1), sizes.max());
		}
		ManagedExecutorBuilder builder = this.pool.builder(name, bounds, sizes.queueCapacity(), threadFactory)
			.sizes(sizes.core(), sizes.max())
			.keepAlive(sizes.keepAlive())
			.allowCoreThreadTimeOut(this.allowCoreThreadTimeOut);
		builder.rejectionPolicy(rejectedExecutionHandler);
		// Spring's own hooks pause the pool while the context stops and track running
		// tasks for a graceful stop; keep them. A virtual pool calls them around each
		// task on its thread as ThreadPoolExecutor's workers do.
		ManagedExecutorService executor = this.virtualThreads ? new VirtualManagedExecutor(builder) {

			@Override
			protected void beforeExecute(Thread thread, Runnable task) {
				beforeExecute.accept(thread, task);
			}

			@Override
			protected void afterExecute(Runnable task, @Nullable Throwable thrown) {
				super.afterExecute(task, thrown);
				afterExecute.accept(task, thrown);
			}

		} : new ManagedExecutor(builder) {

			@Override
			protected void beforeExecute(Thread thread, Runnable task) {
				super.beforeExecute(thread, task);
				beforeExecute.accept(thread, task);
			}

			@Override
			protected void afterExecute(Runnable task, @Nullable Throwable thrown) {
				super.afterExecute(task, thrown);
				afterExecute.accept(task, thrown);
			}

		};
		executor.getPool().setWeight(this.weight);
		if (this.guards != null) {
			executor.setGuard(TaskGuard.of(this.guards.apply(executor.getPool())));
		}
		// Last: a setting or guard refused above leaves no thread behind.
		if (this.prestartAllCoreThreads) {
			executor.asThreadPoolExecutor().prestartAllCoreThreads();
		}
		return executor;
	}

	/**
	 * Spring shut the executor down, waiting for its tasks as set: when it waited for a
	 * limited time and they did not finish within it, what is left is cancelled, counted
	 * as abandoned and logged; then the pool leaves the registry.
	 * @param executor the managed executor
	 */
	void shutDown(ManagedExecutorService executor) {
		if (this.waitForTasksToCompleteOnShutdown && !this.awaitTermination.isZero() && !executor.isTerminated()) {
			PoolLifecycle.stopNow(executor, "did not finish within " + this.awaitTermination);
		}
		this.pool.stopped(executor.getPool());
	}

	/**
	 * The sizes Spring's executor keeps, as they were when it initialized.
	 *
	 * @param core the core size
	 * @param max the maximum size
	 * @param queueCapacity the queue capacity
	 * @param keepAlive the keep-alive
	 */
	record SpringSizes(int core, int max, int queueCapacity, Duration keepAlive) {
	}

}
