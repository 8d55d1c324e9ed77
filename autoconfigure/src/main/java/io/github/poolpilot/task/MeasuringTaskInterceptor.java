package io.github.poolpilot.task;

import java.lang.reflect.Method;
import java.util.concurrent.Callable;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.execution.ExistingExecutor;
import io.github.poolpilot.pool.ManagedPool;

import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.core.task.TaskRejectedException;

/**
 * Measures the tasks submitted to an application's existing executor from outside, the
 * way Spring's {@code @Async} advice wraps methods: every submitted task is counted and
 * wrapped with its timestamps before the executor sees it. Futures are made here and the
 * task handed to {@code execute}, so that every kind of submission takes the one measured
 * path, and a future the pool refuses once its task was queued (max-queue-wait) fails
 * with the refusal. A task the pool's guard refuses is a {@link TaskRejectedException},
 * as Spring's executors throw.
 * <p>
 * It also keeps the bean's sizes honest: its size setters go through the pool's one
 * checked door (the same checks and errors as a declared pool's), its keep-alive is
 * checked as a declared pool's is, a queue capacity other than the live queue's is
 * refused as a declared pool's is, its size getters answer the live pool, and
 * {@code getThreadPoolExecutor()} answers a checked view of the live executor instead of
 * the executor itself, whose setters nothing could intercept.
 *
 * @author poolpilot authors
 */
final class MeasuringTaskInterceptor implements MethodInterceptor {

	private final AsyncTaskExecutor target;

	private final ExistingExecutor existing;

	MeasuringTaskInterceptor(AsyncTaskExecutor target, ExistingExecutor existing) {
		this.target = target;
		this.existing = existing;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Method method = invocation.getMethod();
		Object[] arguments = invocation.getArguments();
		if (arguments.length == 0) {
			return invokeWithoutArguments(invocation);
		}
		Object task = arguments[0];
		switch (method.getName()) {
			case "execute" -> {
				if (!(task instanceof Runnable runnable)) {
					return invocation.proceed();
				}
				execute(runnable, task);
				return null;
			}
			case "submit" -> {
				if (!(task instanceof Callable<?>) && !(task instanceof Runnable)) {
					return invocation.proceed();
				}
				try {
					return (task instanceof Callable<?> callable) ? this.existing.submit(this.target, callable)
							: this.existing.submit(this.target, (Runnable) task);
				}
				catch (RejectedExecutionException ex) {
					throw taskRejected(ex, task);
				}
			}
			case "submitCompletable" -> {
				Callable<?> callable = callableOf(task);
				if (callable == null) {
					return invocation.proceed();
				}
				try {
					return this.existing.submitCompletable(this.target, callable);
				}
				catch (RejectedExecutionException ex) {
					throw taskRejected(ex, task);
				}
			}
			case "setCorePoolSize" -> {
				if (!(task instanceof Integer corePoolSize)) {
					return invocation.proceed();
				}
				ManagedPool pool = this.existing.getPool();
				// The maximum size read under the lock the tuner resizes under.
				pool.change(() -> pool.resize(corePoolSize, Math.max(corePoolSize, pool.maxPoolSize())));
				return null;
			}
			case "setMaxPoolSize" -> {
				if (!(task instanceof Integer maxPoolSize)) {
					return invocation.proceed();
				}
				ManagedPool pool = this.existing.getPool();
				// The core size read under the lock the tuner resizes under.
				pool.change(() -> pool.resize(Math.min(pool.corePoolSize(), maxPoolSize), maxPoolSize));
				return null;
			}
			case "setQueueCapacity" -> {
				if (task instanceof Integer queueCapacity) {
					// The live queue keeps its capacity: only that one reads back true.
					ManagedPoolSettings.checkQueueCapacity(this.existing.getPool(), queueCapacity);
				}
				return invocation.proceed();
			}
			case "setKeepAliveSeconds" -> {
				if (task instanceof Integer keepAliveSeconds) {
					// Checked, and refused naming the pool, before the bean keeps it.
					this.existing.asThreadPoolExecutor().setKeepAliveTime(keepAliveSeconds, TimeUnit.SECONDS);
				}
				return invocation.proceed();
			}
			default -> {
				return invocation.proceed();
			}
		}
	}

	private @Nullable Object invokeWithoutArguments(MethodInvocation invocation) throws Throwable {
		switch (invocation.getMethod().getName()) {
			case "getCorePoolSize" -> {
				return this.existing.getPool().corePoolSize();
			}
			case "getMaxPoolSize" -> {
				return this.existing.getPool().maxPoolSize();
			}
			case "getThreadPoolExecutor" -> {
				return this.existing.asThreadPoolExecutor();
			}
			case "shutdown", "destroy" -> {
				try {
					return invocation.proceed();
				}
				finally {
					// The executor runs no more tasks of ours to watch: stop the guard's
					// watchdog, if any.
					this.existing.close();
				}
			}
			default -> {
				return invocation.proceed();
			}
		}
	}

	private void execute(Runnable runnable, Object task) {
		try {
			this.existing.execute(this.target, runnable);
		}
		catch (RejectedExecutionException ex) {
			throw taskRejected(ex, task);
		}
	}

	/**
	 * A refusal by the pool's guard, before the executor saw the task, as Spring's
	 * executors report one; the executor's own refusals already are.
	 */
	private RejectedExecutionException taskRejected(RejectedExecutionException ex, Object task) {
		return (ex instanceof TaskRejectedException) ? ex : new TaskRejectedException(this.target, task, ex);
	}

	private static @Nullable Callable<?> callableOf(Object task) {
		if (task instanceof Callable<?> callable) {
			return callable;
		}
		if (task instanceof Runnable runnable) {
			return () -> {
				runnable.run();
				return null;
			};
		}
		return null;
	}

}
