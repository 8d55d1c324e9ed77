package io.github.poolpilot.task;

import java.lang.reflect.Method;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.core.PoolRecorder;

import org.springframework.core.task.AsyncTaskExecutor;

/**
 * Measures the tasks submitted to an application's existing executor from outside, the
 * way Spring's {@code @Async} advice wraps methods: every submitted task is counted and
 * wrapped with its timestamps before the executor sees it. Futures are made here and the
 * task handed to {@code execute}, so that every kind of submission takes the one measured
 * path.
 *
 * @author poolpilot authors
 */
final class MeasuringTaskInterceptor implements MethodInterceptor {

	private final AsyncTaskExecutor target;

	private final PoolRecorder recorder;

	MeasuringTaskInterceptor(AsyncTaskExecutor target, PoolRecorder recorder) {
		this.target = target;
		this.recorder = recorder;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Method method = invocation.getMethod();
		Object[] arguments = invocation.getArguments();
		if (arguments.length == 0) {
			return invocation.proceed();
		}
		Object task = arguments[0];
		switch (method.getName()) {
			case "execute" -> {
				if (!(task instanceof Runnable runnable)) {
					return invocation.proceed();
				}
				this.recorder.execute(this.target, runnable);
				return null;
			}
			case "submit" -> {
				FutureTask<?> future = futureOf(task);
				if (future == null) {
					return invocation.proceed();
				}
				execute(future);
				return future;
			}
			case "submitCompletable" -> {
				CompletableFuture<Object> completion = new CompletableFuture<>();
				FutureTask<Object> future = futureOf(task, completion);
				if (future == null) {
					return invocation.proceed();
				}
				execute(future);
				return completion;
			}
			default -> {
				return invocation.proceed();
			}
		}
	}

	private void execute(FutureTask<?> future) {
		this.recorder.execute(this.target, future);
	}

	@SuppressWarnings("unchecked")
	private static @Nullable FutureTask<?> futureOf(Object task) {
		if (task instanceof Callable<?> callable) {
			return new FutureTask<>(callable);
		}
		if (task instanceof Runnable runnable) {
			return new FutureTask<>(runnable, null);
		}
		return null;
	}

	@SuppressWarnings("unchecked")
	private static @Nullable FutureTask<Object> futureOf(Object task, CompletableFuture<Object> completion) {
		if (task instanceof Callable<?> callable) {
			return new CompletingFutureTask((Callable<Object>) callable, completion);
		}
		if (task instanceof Runnable runnable) {
			return new CompletingFutureTask(() -> {
				runnable.run();
				return null;
			}, completion);
		}
		return null;
	}

	/**
	 * A future task that passes its outcome on to a {@link CompletableFuture}.
	 */
	private static final class CompletingFutureTask extends FutureTask<Object> {

		private final CompletableFuture<Object> completion;

		CompletingFutureTask(Callable<Object> callable, CompletableFuture<Object> completion) {
			super(callable);
			this.completion = completion;
		}

		@Override
		protected void done() {
			try {
				this.completion.complete(get());
			}
			catch (ExecutionException ex) {
				this.completion.completeExceptionally(ex.getCause());
			}
			catch (CancellationException ex) {
				this.completion.cancel(false);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				this.completion.completeExceptionally(ex);
			}
		}

	}

}
