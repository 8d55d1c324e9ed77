package io.github.poolpilot.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

/**
 * A {@link ThreadPoolExecutor} with a bounded {@link ArrayBlockingQueue} that measures
 * its own tasks, can be resized safely within its {@link PoolBounds}, and refuses work
 * with a {@link PoolRejectedException} rather than letting it wait without bound.
 * <p>
 * Each submitted task is counted and, when timed, wrapped with its submit time; its
 * start, end and outcome are recorded by the {@link PoolRecorder}. The rejection handler
 * set by the user is kept and called after the rejection is counted, with the task as it
 * was submitted.
 *
 * @author poolpilot authors
 */
public class ManagedExecutor extends ThreadPoolExecutor {

	private final ManagedPool pool;

	private final PoolRecorder recorder;

	private final @Nullable UnaryOperator<Runnable> taskDecorator;

	/**
	 * Create a pool from the builder's settings.
	 * @param builder the settings
	 */
	protected ManagedExecutor(Builder builder) {
		super(validated(builder).corePoolSize, builder.maxPoolSize, builder.keepAlive.toNanos(), TimeUnit.NANOSECONDS,
				new ArrayBlockingQueue<>(builder.queueCapacity), builder.threadFactory(), new AbortPolicy());
		this.recorder = builder.recorder;
		this.taskDecorator = builder.taskDecorator;
		this.pool = new ManagedPool(builder.name, this, builder.recorder, builder.bounds);
		super.setRejectedExecutionHandler(this.pool.countingRejections(builder.rejectionPolicy));
		allowCoreThreadTimeOut(builder.allowCoreThreadTimeOut);
	}

	private static Builder validated(Builder builder) {
		ManagedPool.checkSizes(builder.name, builder.corePoolSize, builder.maxPoolSize, builder.bounds);
		return builder;
	}

	/**
	 * Start building a pool.
	 * @param name the pool's name, used in thread names, messages and metrics
	 * @param bounds the range the pool's sizes must stay in
	 * @param queueCapacity the fixed capacity of the pool's queue, at least 1
	 * @return a new builder
	 */
	public static Builder builder(String name, PoolBounds bounds, int queueCapacity) {
		return new Builder(name, bounds, queueCapacity);
	}

	/**
	 * Return the pool this executor runs: its name, bounds, measurements and controls.
	 * @return the managed pool
	 */
	public ManagedPool getPool() {
		return this.pool;
	}

	@Override
	public void execute(Runnable command) {
		Objects.requireNonNull(command, "command must not be null");
		UnaryOperator<Runnable> decorator = this.taskDecorator;
		// A decorated task is always wrapped, timed or not, so that the task as submitted
		// stays known: its outcome is counted and shutdownNow() hands it back.
		Runnable task = (decorator != null) ? this.recorder.acceptWrapped(command, decorator.apply(command))
				: this.recorder.accept(command);
		TaskGuard guard = this.recorder.guard();
		if (guard != null) {
			admit(guard);
		}
		dispatch(task);
	}

	/**
	 * Hand a task that was counted, wrapped and admitted to the threads: here, to
	 * {@code ThreadPoolExecutor}'s own workers and queue.
	 * @param task the task as it is to run
	 */
	void dispatch(Runnable task) {
		super.execute(task);
	}

	/**
	 * Refuse a task through the pool's counting rejection handler, as
	 * {@code ThreadPoolExecutor} does when its queue is full or it is shut down.
	 * @param task the task as it was to run
	 */
	final void reject(Runnable task) {
		super.getRejectedExecutionHandler().rejectedExecution(task, this);
	}

	/**
	 * Let the pool's guard refuse a task before it is queued. Such a refusal is counted
	 * and thrown at once: the rejection policy is for a full queue, and running a task
	 * the guard refused in the caller (caller-runs) would defeat the guard.
	 */
	private void admit(TaskGuard guard) {
		try {
			guard.beforeSubmit();
		}
		catch (PoolRejectedException ex) {
			this.recorder.taskRejected(ex.getReason());
			throw ex;
		}
	}

	/**
	 * Submit a task whose result completes the returned future, as Spring's
	 * {@code @Async} methods returning a {@code CompletableFuture} are. Unlike
	 * {@code CompletableFuture.supplyAsync(task, executor)}, the pool counts a task that
	 * threw as failed and can fail the future with its rejection if it refuses the task
	 * after it was queued.
	 * @param <T> the result type
	 * @param task the task
	 * @return the future of its result
	 * @throws PoolRejectedException if the pool refuses the task now
	 */
	public <T> CompletableFuture<T> submitCompletable(Callable<T> task) {
		Objects.requireNonNull(task, "task must not be null");
		CompletableTask<T> completable = new CompletableTask<>(task);
		execute(completable);
		return completable.future();
	}

	/**
	 * Return a future the pool can fail with its rejection if it refuses the task after
	 * it was queued.
	 */
	@Override
	protected <T> RunnableFuture<T> newTaskFor(Runnable runnable, T value) {
		return new RefusableFutureTask<>(runnable, value);
	}

	/**
	 * Return a future the pool can fail with its rejection if it refuses the task after
	 * it was queued.
	 */
	@Override
	protected <T> RunnableFuture<T> newTaskFor(Callable<T> callable) {
		return new RefusableFutureTask<>(callable);
	}

	@Override
	protected void terminated() {
		super.terminated();
		TaskGuard guard = this.recorder.guard();
		if (guard != null) {
			guard.close();
		}
	}

	@Override
	protected void afterExecute(Runnable task, @Nullable Throwable thrown) {
		if (!(task instanceof TimedTask)) {
			this.recorder.untimedTaskFinished(task, thrown);
		}
	}

	/**
	 * Stop the pool at once. The queued tasks handed back are counted as abandoned and
	 * returned as they were submitted.
	 * @return the tasks that never started
	 */
	@Override
	public List<Runnable> shutdownNow() {
		List<Runnable> queued = stopNow();
		this.recorder.tasksAbandoned(queued.size());
		TaskGuard guard = this.recorder.guard();
		if (guard != null) {
			queued.forEach((task) -> guard.notRun());
		}
		List<Runnable> submitted = new ArrayList<>(queued.size());
		queued.forEach((task) -> submitted.add(TimedTask.unwrap(task)));
		return submitted;
	}

	/**
	 * Remove a queued task, given as it was submitted. It is counted as abandoned, so
	 * that the pool's counts still add up. Once the pool is shut down this is
	 * {@code ThreadPoolExecutor}'s own: it takes back a task it queued as the pool shut
	 * down, and rejects it, which counts it.
	 * @param task the task
	 * @return whether it was queued and is now removed
	 */
	@Override
	public boolean remove(Runnable task) {
		if (isShutdown()) {
			return takeBack(task);
		}
		for (Runnable queued : getQueue()) {
			if ((queued == task || TimedTask.unwrap(queued) == task) && super.remove(queued)) {
				abandoned(queued);
				return true;
			}
		}
		return false;
	}

	/**
	 * Remove the queued tasks whose futures were cancelled, counting them as abandoned.
	 */
	@Override
	public void purge() {
		for (Runnable queued : getQueue()) {
			if (TimedTask.unwrap(queued) instanceof Future<?> future && future.isCancelled() && super.remove(queued)) {
				abandoned(queued);
			}
		}
	}

	/**
	 * Take a task out of the queue without counting it, as when it is to be rejected.
	 * @param task the task as queued
	 * @return whether it was queued and is now removed
	 */
	boolean takeBack(Runnable task) {
		return super.remove(task);
	}

	private void abandoned(Runnable queued) {
		if (queued instanceof TimedTask timed) {
			timed.abandon();
		}
		else {
			this.recorder.tasksAbandoned(1);
		}
	}

	/**
	 * Stop taking and starting tasks, interrupt the running ones and return the queued
	 * ones as they were queued: here, {@code ThreadPoolExecutor}'s own
	 * {@code shutdownNow()}.
	 * @return the tasks that never started
	 */
	List<Runnable> stopNow() {
		return super.shutdownNow();
	}

	/**
	 * Return the policy applied to refused tasks once they are counted.
	 * @return the user's rejection policy, by default one that throws a
	 * {@link PoolRejectedException}
	 */
	@Override
	public RejectedExecutionHandler getRejectedExecutionHandler() {
		return ((CountingRejection) super.getRejectedExecutionHandler()).policy();
	}

	/**
	 * Set the policy applied to refused tasks once they are counted.
	 * @param handler the rejection policy
	 */
	@Override
	public void setRejectedExecutionHandler(RejectedExecutionHandler handler) {
		Objects.requireNonNull(handler, "handler must not be null");
		super.setRejectedExecutionHandler(this.pool.countingRejections(handler));
	}

	@Override
	public String toString() {
		return "ManagedExecutor[" + this.pool.getName() + ", " + super.toString() + "]";
	}

	/**
	 * Builds a {@link ManagedExecutor}.
	 */
	public static class Builder {

		private final String name;

		private final PoolBounds bounds;

		private final int queueCapacity;

		private int corePoolSize;

		private int maxPoolSize;

		private Duration keepAlive = Duration.ofSeconds(60);

		private boolean allowCoreThreadTimeOut;

		private @Nullable ThreadFactory threadFactory;

		private @Nullable RejectedExecutionHandler rejectionPolicy;

		private PoolRecorder recorder;

		private @Nullable UnaryOperator<Runnable> taskDecorator;

		private boolean virtualThreads;

		protected Builder(String name, PoolBounds bounds, int queueCapacity) {
			if (queueCapacity < 1) {
				throw new IllegalArgumentException(
						"queue-capacity of pool '" + name + "' must be at least 1 but was " + queueCapacity);
			}
			this.name = name;
			this.bounds = bounds;
			this.queueCapacity = queueCapacity;
			this.corePoolSize = bounds.minThreads();
			this.maxPoolSize = bounds.maxThreads();
			this.recorder = PoolRecorder.builder().build();
		}

		/**
		 * Set the initial core and maximum sizes (by default min-threads and
		 * max-threads).
		 * @param corePoolSize the initial core size
		 * @param maxPoolSize the initial maximum size
		 * @return this builder
		 */
		public Builder sizes(int corePoolSize, int maxPoolSize) {
			this.corePoolSize = corePoolSize;
			this.maxPoolSize = maxPoolSize;
			return this;
		}

		/**
		 * Set how long an idle thread above the core size lives (60 seconds by default).
		 * @param keepAlive the keep-alive time
		 * @return this builder
		 */
		public Builder keepAlive(Duration keepAlive) {
			this.keepAlive = keepAlive;
			return this;
		}

		/**
		 * Set whether core threads also time out when idle.
		 * @param allow whether core threads time out
		 * @return this builder
		 */
		public Builder allowCoreThreadTimeOut(boolean allow) {
			this.allowCoreThreadTimeOut = allow;
			return this;
		}

		/**
		 * Set the factory for the pool's threads (by default non-daemon threads named
		 * {@code <name>-<n>}).
		 * @param threadFactory the thread factory
		 * @return this builder
		 */
		public Builder threadFactory(ThreadFactory threadFactory) {
			this.threadFactory = threadFactory;
			return this;
		}

		/**
		 * Set the policy for refused tasks; {@code null} or Java's {@code AbortPolicy}
		 * means the default, one that throws a {@link PoolRejectedException}.
		 * @param rejectionPolicy the rejection policy
		 * @return this builder
		 */
		public Builder rejectionPolicy(@Nullable RejectedExecutionHandler rejectionPolicy) {
			this.rejectionPolicy = rejectionPolicy;
			return this;
		}

		/**
		 * Set a decorator applied to every submitted task before it is queued, such as
		 * Spring's {@code TaskDecorator} that propagates context. The decorated task is
		 * what runs; the submitted one is what {@code shutdownNow()} hands back and whose
		 * outcome is counted.
		 * @param taskDecorator the decorator
		 * @return this builder
		 */
		public Builder taskDecorator(UnaryOperator<Runnable> taskDecorator) {
			this.taskDecorator = taskDecorator;
			return this;
		}

		/**
		 * Set the recorder that measures the pool.
		 * @param recorder the recorder
		 * @return this builder
		 */
		public Builder recorder(PoolRecorder recorder) {
			this.recorder = recorder;
			return this;
		}

		/**
		 * Set whether each task runs on a virtual thread of its own, the pool's maximum
		 * size being a limit on how many run at once rather than a number of threads kept
		 * (see {@link VirtualManagedExecutor}). Needs Java 21 or later.
		 * @param virtualThreads whether the pool runs its tasks on virtual threads
		 * @return this builder
		 */
		public Builder virtualThreads(boolean virtualThreads) {
			this.virtualThreads = virtualThreads;
			return this;
		}

		/**
		 * Build the pool: a {@link VirtualManagedExecutor} when it runs its tasks on
		 * virtual threads.
		 * @return a new managed executor
		 * @throws InvalidPoolSizeException if the initial sizes violate the bounds
		 * @throws UnsupportedOperationException if the pool is to run on virtual threads
		 * and the JVM is older than Java 21
		 */
		public ManagedExecutor build() {
			return this.virtualThreads ? new VirtualManagedExecutor(this) : new ManagedExecutor(this);
		}

		ThreadFactory threadFactory() {
			if (this.threadFactory != null) {
				return this.threadFactory;
			}
			String prefix = this.name + "-";
			if (this.virtualThreads) {
				return VirtualThreads.factory(prefix);
			}
			AtomicInteger count = new AtomicInteger();
			return (runnable) -> new Thread(runnable, prefix + count.incrementAndGet());
		}

		String name() {
			return this.name;
		}

		int corePoolSize() {
			return this.corePoolSize;
		}

		int maxPoolSize() {
			return this.maxPoolSize;
		}

	}

}
