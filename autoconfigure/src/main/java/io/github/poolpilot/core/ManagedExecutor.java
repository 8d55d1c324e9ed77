package io.github.poolpilot.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.core.PoolRejectedException.Reason;
import io.github.poolpilot.core.PoolSnapshot.Sizes;

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

	private static final Duration MAX_RETRY_AFTER = Duration.ofHours(1);

	private final String name;

	private final int queueCapacity;

	private final PoolRecorder recorder;

	private final @Nullable UnaryOperator<Runnable> taskDecorator;

	private volatile PoolBounds bounds;

	private volatile RejectedExecutionHandler rejectionPolicy;

	private volatile @Nullable PoolSnapshot lastSnapshot;

	/**
	 * Create a pool from the builder's settings.
	 * @param builder the settings
	 */
	protected ManagedExecutor(Builder builder) {
		super(builder.corePoolSize, builder.maxPoolSize, builder.keepAlive.toNanos(), TimeUnit.NANOSECONDS,
				new ArrayBlockingQueue<>(builder.queueCapacity), builder.threadFactory(), new CountingRejection());
		this.name = builder.name;
		this.queueCapacity = builder.queueCapacity;
		this.recorder = builder.recorder;
		this.taskDecorator = builder.taskDecorator;
		this.bounds = builder.bounds;
		this.rejectionPolicy = (builder.rejectionPolicy != null) ? builder.rejectionPolicy : new Abort();
		allowCoreThreadTimeOut(builder.allowCoreThreadTimeOut);
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

	@Override
	public void execute(Runnable command) {
		Objects.requireNonNull(command, "command must not be null");
		UnaryOperator<Runnable> decorator = this.taskDecorator;
		super.execute(this.recorder.accept(command, (decorator != null) ? decorator.apply(command) : command));
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
		List<Runnable> queued = super.shutdownNow();
		this.recorder.tasksAbandoned(queued.size());
		List<Runnable> submitted = new ArrayList<>(queued.size());
		queued.forEach((task) -> submitted.add(TimedTask.unwrap(task)));
		return submitted;
	}

	/**
	 * Return the policy applied to refused tasks once they are counted.
	 * @return the user's rejection policy, by default one that throws a
	 * {@link PoolRejectedException}
	 */
	@Override
	public RejectedExecutionHandler getRejectedExecutionHandler() {
		return this.rejectionPolicy;
	}

	/**
	 * Set the policy applied to refused tasks once they are counted.
	 * @param handler the rejection policy
	 */
	@Override
	public void setRejectedExecutionHandler(RejectedExecutionHandler handler) {
		this.rejectionPolicy = Objects.requireNonNull(handler, "handler must not be null");
	}

	/**
	 * Set the core and maximum pool sizes together, in the order that keeps core ≤ max at
	 * every step: when growing the maximum first, when shrinking the core first. Nothing
	 * changes when a size is invalid.
	 * @param corePoolSize the new core size
	 * @param maxPoolSize the new maximum size
	 * @throws InvalidPoolSizeException if a size is outside the pool's bounds or core >
	 * max
	 */
	public synchronized void resize(int corePoolSize, int maxPoolSize) {
		checkSizes(this.name, corePoolSize, maxPoolSize, this.bounds);
		if (maxPoolSize >= getMaximumPoolSize()) {
			setMaximumPoolSize(maxPoolSize);
			setCorePoolSize(corePoolSize);
		}
		else {
			setCorePoolSize(corePoolSize);
			setMaximumPoolSize(maxPoolSize);
		}
	}

	/**
	 * Check core and maximum sizes against the pool's current bounds without changing
	 * anything.
	 * @param corePoolSize a core size
	 * @param maxPoolSize a maximum size
	 * @throws InvalidPoolSizeException naming the first violated bound
	 */
	public void checkSizes(int corePoolSize, int maxPoolSize) {
		checkSizes(this.name, corePoolSize, maxPoolSize, this.bounds);
	}

	private static void checkSizes(String pool, int corePoolSize, int maxPoolSize, PoolBounds bounds) {
		checkWithinBounds(pool, "corePoolSize", corePoolSize, bounds);
		checkWithinBounds(pool, "maxPoolSize", maxPoolSize, bounds);
		if (corePoolSize > maxPoolSize) {
			throw new InvalidPoolSizeException("corePoolSize", "corePoolSize " + corePoolSize + " of pool '" + pool
					+ "' must not be greater than maxPoolSize " + maxPoolSize);
		}
	}

	private static void checkWithinBounds(String pool, String field, int size, PoolBounds bounds) {
		if (size < bounds.minThreads()) {
			throw new InvalidPoolSizeException(field, field + " " + size + " of pool '" + pool
					+ "' is below its min-threads " + bounds.minThreads() + " (allowed: " + describe(bounds) + ")");
		}
		if (size > bounds.maxThreads()) {
			throw new InvalidPoolSizeException(field, field + " " + size + " of pool '" + pool
					+ "' is above its max-threads " + bounds.maxThreads() + " (allowed: " + describe(bounds) + ")");
		}
	}

	private static String describe(PoolBounds bounds) {
		return bounds.minThreads() + " to " + bounds.maxThreads();
	}

	/**
	 * Return the pool's name.
	 * @return the name
	 */
	public String getName() {
		return this.name;
	}

	/**
	 * Return the range the pool's sizes must stay in.
	 * @return the bounds
	 */
	public PoolBounds getBounds() {
		return this.bounds;
	}

	/**
	 * Return the fixed capacity of the pool's queue.
	 * @return the queue capacity
	 */
	public int getQueueCapacity() {
		return this.queueCapacity;
	}

	/**
	 * Return the recorder that measures this pool.
	 * @return the recorder
	 */
	public PoolRecorder getRecorder() {
		return this.recorder;
	}

	/**
	 * Return the pool's sizes now.
	 * @return the sizes
	 */
	public Sizes sizes() {
		PoolBounds bounds = this.bounds;
		return new Sizes(getCorePoolSize(), getMaximumPoolSize(), getPoolSize(), getActiveCount(), getQueue().size(),
				this.queueCapacity, bounds.minThreads(), bounds.maxThreads());
	}

	/**
	 * Close the current measurement window and return its snapshot, which also becomes
	 * {@link #lastSnapshot()}. One sampler per pool should call this, once per window.
	 * @return the closed window's snapshot
	 */
	public PoolSnapshot takeSnapshot() {
		PoolSnapshot snapshot = this.recorder.snapshot(this.name, sizes());
		this.lastSnapshot = snapshot;
		return snapshot;
	}

	/**
	 * Return the snapshot of the last closed window.
	 * @return the last snapshot, or {@code null} before the first window closed
	 */
	public @Nullable PoolSnapshot lastSnapshot() {
		return this.lastSnapshot;
	}

	/**
	 * Return the exception that tells a caller this pool refused its task now: why, and
	 * when to retry, estimated as the time the measured throughput needs to drain the
	 * queue.
	 * @return the rejection to throw
	 */
	public PoolRejectedException rejection() {
		Reason reason = isShutdown() ? Reason.SHUTDOWN : Reason.QUEUE_FULL;
		return new PoolRejectedException(this.name, reason, retryAfter(getQueue().size()));
	}

	private Duration retryAfter(int queued) {
		PoolSnapshot snapshot = this.lastSnapshot;
		double throughput = (snapshot != null) ? snapshot.littlesLaw().throughput() : 0;
		if (throughput <= 0) {
			return Duration.ofSeconds(1);
		}
		long seconds = (long) Math.ceil(queued / throughput);
		return Duration.ofSeconds(Math.max(1, Math.min(seconds, MAX_RETRY_AFTER.toSeconds())));
	}

	@Override
	public String toString() {
		return "ManagedExecutor[" + this.name + ", " + super.toString() + "]";
	}

	/**
	 * Counts every refused task, then applies the pool's rejection policy to it as it was
	 * submitted.
	 */
	private static final class CountingRejection implements RejectedExecutionHandler {

		@Override
		public void rejectedExecution(Runnable task, ThreadPoolExecutor executor) {
			ManagedExecutor pool = (ManagedExecutor) executor;
			pool.recorder.taskRejected();
			pool.rejectionPolicy.rejectedExecution(TimedTask.unwrap(task), pool);
		}

	}

	/**
	 * The default policy: tell the caller with a {@link PoolRejectedException}.
	 */
	private static final class Abort implements RejectedExecutionHandler {

		@Override
		public void rejectedExecution(Runnable task, ThreadPoolExecutor executor) {
			throw ((ManagedExecutor) executor).rejection();
		}

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
		 * Set the policy for refused tasks (by default one that throws a
		 * {@link PoolRejectedException}).
		 * @param rejectionPolicy the rejection policy
		 * @return this builder
		 */
		public Builder rejectionPolicy(RejectedExecutionHandler rejectionPolicy) {
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
		 * Build the pool.
		 * @return a new managed executor
		 * @throws InvalidPoolSizeException if the initial sizes violate the bounds
		 */
		public ManagedExecutor build() {
			checkSizes(this.name, this.corePoolSize, this.maxPoolSize, this.bounds);
			return new ManagedExecutor(this);
		}

		ThreadFactory threadFactory() {
			if (this.threadFactory != null) {
				return this.threadFactory;
			}
			AtomicInteger count = new AtomicInteger();
			String prefix = this.name + "-";
			return (runnable) -> new Thread(runnable, prefix + count.incrementAndGet());
		}

	}

}
