package io.github.poolpilot.execution;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.guard.TaskGuard;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.pool.InvalidPoolSizeException;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.ManagedPool.SizeControl;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolExecutor;
import io.github.poolpilot.pool.PoolRejectedException;

/**
 * A {@link ThreadPoolExecutor} with a bounded {@link ArrayBlockingQueue} that measures
 * its own tasks, is resized only within its {@link PoolBounds} and its pool's budget, and
 * refuses work with a {@link PoolRejectedException} rather than letting it wait without
 * bound.
 * <p>
 * Each submitted task is, when timed, wrapped with its submit time; its start, its
 * outcome and what became of it (refused, queued, run, taken out) are recorded by the
 * {@link PoolRecorder}, which derives the pool's submits and completions from them. The
 * rejection handler set by the user is kept and called after the rejection is counted,
 * with the task as it was submitted. {@link #setCorePoolSize} and
 * {@link #setMaximumPoolSize} go through the pool's one checked door,
 * {@link ManagedPool#resize}, like every other size change.
 * <p>
 * It keeps {@code ThreadPoolExecutor}'s contract but for what a subclass or a reader of
 * the queue sees: a task the pool times (every task by default, one in
 * {@code timingSampleEvery} otherwise), decorates or guards is queued in a wrapper of the
 * pool's own that carries its submit time, so {@link #getQueue()} holds, and
 * {@code beforeExecute} and {@code afterExecute} receive, that wrapper (whose
 * {@code toString()} is the task's). {@link #submittedTask} opens it;
 * {@link #remove(Runnable)} takes and {@link #shutdownNow()} hands back tasks as
 * submitted. {@code ThreadPoolExecutor} calls its hooks with what its queue holds, and
 * queueing the task itself would need a per-task map of submit times, which costs every
 * task more than the wrapper does. A subclass that overrides {@code beforeExecute} or
 * {@code afterExecute} must call this one: the first counts each task as it starts, the
 * second the failures of the tasks run without a wrapper.
 * <p>
 * A submit is not counted as such: each task is refused, queued or started on a thread,
 * and the pool's submits are the sum of those
 * ({@link PoolRecorder#countArrivalsByOutcome}), so that {@code execute} costs no count
 * beside {@code ThreadPoolExecutor}'s own work. Nor is a task's end, unless it failed:
 * {@code ThreadPoolExecutor} counts the tasks its threads ran, and those that did not
 * fail nor were refused after they started completed
 * ({@link PoolRecorder#countEndsByPool}).
 *
 * @author poolpilot authors
 */
public class ManagedExecutor extends ThreadPoolExecutor implements ManagedExecutorService, PoolExecutor {

	private static final StackWalker STACK = StackWalker.getInstance();

	private final ManagedPool pool;

	private final TaskPath path;

	private final int queueCapacity;

	/**
	 * Create a pool from the builder's settings.
	 * @param builder the settings
	 */
	protected ManagedExecutor(ManagedExecutorBuilder builder) {
		super(validated(builder).corePoolSize(), builder.maxPoolSize(), builder.keepAlive().toNanos(),
				TimeUnit.NANOSECONDS, new ArrayBlockingQueue<>(builder.queueCapacity()), builder.threadFactory(false),
				new AbortPolicy());
		this.queueCapacity = builder.queueCapacity();
		this.path = new TaskPath(builder.recorder(), builder.taskDecorator());
		// Every task is refused, queued or handed to a thread that starts it: its submit
		// costs no count of its own. Every task that starts ends in the executor's own
		// count of the tasks its threads ran: only failures are counted at the end.
		BlockingQueue<Runnable> queue = getQueue();
		builder.recorder().countArrivalsByOutcome(queue::size);
		builder.recorder().countEndsByPool(this::getCompletedTaskCount);
		this.pool = new ManagedPool(builder.name(), this, new SizeControl() {

			@Override
			public void setCorePoolSize(int corePoolSize) {
				ManagedExecutor.super.setCorePoolSize(corePoolSize);
			}

			@Override
			public void setMaximumPoolSize(int maxPoolSize) {
				ManagedExecutor.super.setMaximumPoolSize(maxPoolSize);
			}

		}, builder.recorder(), builder.bounds());
		super.setRejectedExecutionHandler(new CountingRejection(this.pool, this.path, builder.rejectionPolicy()));
		allowCoreThreadTimeOut(builder.allowsCoreThreadTimeOut());
	}

	private static ManagedExecutorBuilder validated(ManagedExecutorBuilder builder) {
		ManagedPool.checkSizes(builder.name(), builder.corePoolSize(), builder.maxPoolSize(), builder.bounds());
		KeepAlive.check(builder.name(), builder.keepAlive().toNanos(), builder.allowsCoreThreadTimeOut());
		return builder;
	}

	/**
	 * Start building a pool.
	 * @param name the pool's name, used in thread names, messages and metrics
	 * @param bounds the range the pool's sizes must stay in
	 * @param queueCapacity the fixed capacity of the pool's queue, at least 1
	 * @return a new builder
	 */
	public static ManagedExecutorBuilder builder(String name, PoolBounds bounds, int queueCapacity) {
		return new ManagedExecutorBuilder(name, bounds, queueCapacity);
	}

	@Override
	public ManagedPool getPool() {
		return this.pool;
	}

	@Override
	public void setGuard(@Nullable TaskGuard guard) {
		this.path.setGuard(guard);
	}

	@Override
	public @Nullable TaskGuard getGuard() {
		return this.path.guard();
	}

	@Override
	public void execute(Runnable command) {
		Objects.requireNonNull(command, "command must not be null");
		super.execute(this.path.acceptUncounted(command));
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

	/**
	 * Set the core size through the pool's checked door, keeping the maximum size.
	 * @param corePoolSize the new core size
	 * @throws InvalidPoolSizeException if it is outside the pool's bounds or above the
	 * maximum size
	 */
	@Override
	public void setCorePoolSize(int corePoolSize) {
		// The maximum size read under the lock the tuner resizes under.
		this.pool.change(() -> this.pool.resize(corePoolSize, getMaximumPoolSize()));
	}

	/**
	 * Set the maximum size through the pool's checked door, keeping the core size.
	 * @param maximumPoolSize the new maximum size
	 * @throws InvalidPoolSizeException if it is outside the pool's bounds, below the core
	 * size or over the budget
	 */
	@Override
	public void setMaximumPoolSize(int maximumPoolSize) {
		// The core size read under the lock the tuner resizes under.
		this.pool.change(() -> this.pool.resize(getCorePoolSize(), maximumPoolSize));
	}

	/**
	 * Set how long an idle thread above the core size, or any idle thread when core
	 * threads time out, lives.
	 * @param time the keep-alive
	 * @param unit its unit
	 * @throws IllegalArgumentException naming the pool if it is negative, or 0 while core
	 * threads time out
	 */
	@Override
	public void setKeepAliveTime(long time, TimeUnit unit) {
		KeepAlive.check(this.pool.getName(), unit.toNanos(time), allowsCoreThreadTimeOut());
		super.setKeepAliveTime(time, unit);
	}

	/**
	 * Set whether core threads also end once idle for the keep-alive.
	 * @param value whether core threads time out
	 * @throws IllegalArgumentException naming the pool if they are to time out with a
	 * keep-alive of 0
	 */
	@Override
	public void allowCoreThreadTimeOut(boolean value) {
		KeepAlive.checkCoreThreadTimeOut(this.pool.getName(), value, getKeepAliveTime(TimeUnit.NANOSECONDS));
		super.allowCoreThreadTimeOut(value);
	}

	@Override
	public int getQueueSize() {
		return getQueue().size();
	}

	@Override
	public int getQueueCapacity() {
		return this.queueCapacity;
	}

	@Override
	protected void terminated() {
		super.terminated();
		this.path.terminated();
	}

	/**
	 * Count the task as started: the pool's submits are what became of its tasks. A
	 * subclass that overrides it must call this one.
	 */
	@Override
	protected void beforeExecute(Thread thread, Runnable task) {
		this.path.started();
	}

	@Override
	protected void afterExecute(Runnable task, @Nullable Throwable thrown) {
		this.path.finishedCountingFailures(task, thrown);
	}

	/**
	 * Stop the pool at once. The queued tasks handed back are counted as abandoned and
	 * returned as they were submitted.
	 * @return the tasks that never started
	 */
	@Override
	public List<Runnable> shutdownNow() {
		return this.path.abandonedAll(super.shutdownNow());
	}

	/**
	 * Remove a queued task, given as it was submitted, so that it never runs, before or
	 * after {@code shutdown()}. It is counted as abandoned, so that the pool's counts
	 * still add up.
	 * @param task the task
	 * @return whether it was queued and is now removed
	 */
	@Override
	public boolean remove(Runnable task) {
		if (isShutdown() && calledByExecute()) {
			// ThreadPoolExecutor.execute taking back the task it queued as the pool shut
			// down: it rejects it next, which counts it.
			return super.remove(task);
		}
		for (Runnable queued : getQueue()) {
			if ((queued == task || TimedTask.unwrap(queued) == task) && super.remove(queued)) {
				this.path.abandoned(queued);
				return true;
			}
		}
		return false;
	}

	/**
	 * Return whether {@code remove} was called by {@code ThreadPoolExecutor.execute}
	 * itself, through the {@code remove} of any subclass. Asked only once the pool is
	 * shut down, so that telling the executor's own call from the user's costs the tasks'
	 * path nothing.
	 */
	private static boolean calledByExecute() {
		return STACK.walk((frames) -> frames.skip(1)
			.dropWhile((frame) -> frame.getMethodName().equals("remove"))
			.findFirst()
			.filter((frame) -> frame.getClassName().equals(ThreadPoolExecutor.class.getName())
					&& frame.getMethodName().equals("execute"))
			.isPresent());
	}

	/**
	 * Return a task as it was submitted, given as this pool's queue holds it or as
	 * {@code beforeExecute} and {@code afterExecute} receive it: a pool that times (the
	 * default), decorates or guards its tasks holds each in a wrapper of its own.
	 * @param task a task from the queue or given to a hook
	 * @return the task as submitted ({@code execute}'s {@code Runnable}, or the future
	 * {@code submit} returned)
	 */
	public static Runnable submittedTask(Runnable task) {
		return TimedTask.unwrap(task);
	}

	/**
	 * Remove the queued tasks whose futures were cancelled, counting them as abandoned.
	 */
	@Override
	public void purge() {
		for (Runnable queued : getQueue()) {
			if (TimedTask.unwrap(queued) instanceof Future<?> future && future.isCancelled() && super.remove(queued)) {
				this.path.abandoned(queued);
			}
		}
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
		super.setRejectedExecutionHandler(new CountingRejection(this.pool, this.path, handler));
	}

	@Override
	public ThreadPoolExecutor asThreadPoolExecutor() {
		return this;
	}

	@Override
	public String toString() {
		return "ManagedExecutor[" + this.pool.getName() + ", " + super.toString() + "]";
	}

}
