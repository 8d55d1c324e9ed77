package io.github.poolpilot.core;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadPoolExecutor;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.core.PoolRejectedException.Reason;
import io.github.poolpilot.core.PoolSnapshot.Sizes;

/**
 * A thread pool under poolpilot's management: its name, its bounds, the recorder that
 * measures it, and the one way to resize it, snapshot it and refuse work from it.
 * <p>
 * The pool's executor is a {@link ManagedExecutor} for pools poolpilot creates, or an
 * application's existing {@link ThreadPoolExecutor} whose tasks are measured from
 * outside.
 *
 * @author poolpilot authors
 */
public final class ManagedPool {

	private static final Duration MAX_RETRY_AFTER = Duration.ofHours(1);

	private final String name;

	private final ThreadPoolExecutor executor;

	private final PoolRecorder recorder;

	private final int queueCapacity;

	private volatile PoolBounds bounds;

	private volatile @Nullable PoolSnapshot lastSnapshot;

	private volatile int weight = 1;

	private volatile TuningMode tuningMode = TuningMode.AUTO;

	private volatile @Nullable String lastDecision;

	private volatile boolean tuningLimited;

	/**
	 * Manage a pool.
	 * @param name the pool's name
	 * @param executor the executor that runs its tasks
	 * @param recorder the recorder that measures its tasks
	 * @param bounds the range its sizes must stay in
	 */
	public ManagedPool(String name, ThreadPoolExecutor executor, PoolRecorder recorder, PoolBounds bounds) {
		this.name = name;
		this.executor = executor;
		this.recorder = recorder;
		this.bounds = bounds;
		BlockingQueue<Runnable> queue = executor.getQueue();
		this.queueCapacity = queue.size() + queue.remainingCapacity();
	}

	/**
	 * Return the pool's name.
	 * @return the name
	 */
	public String getName() {
		return this.name;
	}

	/**
	 * Return the executor that runs the pool's tasks.
	 * @return the executor
	 */
	public ThreadPoolExecutor getExecutor() {
		return this.executor;
	}

	/**
	 * Return the recorder that measures the pool's tasks.
	 * @return the recorder
	 */
	public PoolRecorder getRecorder() {
		return this.recorder;
	}

	/**
	 * Return the range the pool's sizes must stay in.
	 * @return the bounds
	 */
	public PoolBounds getBounds() {
		return this.bounds;
	}

	/**
	 * Set the range the pool's sizes must stay in, moving its current sizes into it.
	 * @param bounds the new bounds
	 */
	public void setBounds(PoolBounds bounds) {
		synchronized (this.executor) {
			int[] sizes = sizesWithin(bounds);
			this.bounds = bounds;
			resize(sizes[0], sizes[1]);
		}
	}

	/**
	 * Return the pool's core and maximum sizes moved into the given bounds.
	 * @param bounds the bounds
	 * @return the core and the maximum size, in that order
	 */
	public int[] sizesWithin(PoolBounds bounds) {
		int core = bounds.clamp(this.executor.getCorePoolSize());
		return new int[] { core, Math.max(core, bounds.clamp(this.executor.getMaximumPoolSize())) };
	}

	/**
	 * Return the fixed capacity of the pool's queue.
	 * @return the queue capacity
	 */
	public int getQueueCapacity() {
		return this.queueCapacity;
	}

	/**
	 * Return the pool's share of the budget relative to the other pools' weights.
	 * @return the weight
	 */
	public int getWeight() {
		return this.weight;
	}

	/**
	 * Set the pool's share of the budget relative to the other pools' weights.
	 * @param weight the weight, at least 1
	 */
	public void setWeight(int weight) {
		if (weight < 1) {
			throw new IllegalArgumentException(
					"weight of pool '" + this.name + "' must be at least 1 but was " + weight);
		}
		this.weight = weight;
	}

	/**
	 * Return who decides the pool's size.
	 * @return the tuning mode
	 */
	public TuningMode getTuningMode() {
		return this.tuningMode;
	}

	/**
	 * Set who decides the pool's size.
	 * @param tuningMode the tuning mode
	 */
	public void setTuningMode(TuningMode tuningMode) {
		this.tuningMode = tuningMode;
	}

	/**
	 * Return the last decision about the pool's size, with its reason.
	 * @return the last decision, or {@code null} before any
	 */
	public @Nullable String getLastDecision() {
		return this.lastDecision;
	}

	/**
	 * Record a decision about the pool's size, with its reason, such as
	 * {@code "grow 8→10:
	 * queueing, throughput +22%"}.
	 * @param decision the decision
	 */
	public void recordDecision(String decision) {
		this.lastDecision = decision;
	}

	/**
	 * Set what the pool checks around each task besides its threads and its queue, such
	 * as its max-queue-wait, its timeout or its circuit breaker. Set it before the pool
	 * takes tasks: a guard sees each task it admitted end.
	 * @param guard the guard, or {@code null} for none
	 */
	public void setGuard(@Nullable TaskGuard guard) {
		this.recorder.setGuard(guard);
	}

	/**
	 * Return what the pool checks around each task besides its threads and its queue.
	 * @return the guard, or {@code null} when it has none
	 */
	public @Nullable TaskGuard getGuard() {
		return this.recorder.guard();
	}

	/**
	 * Return whether the tuner's last decision found the pool short of threads it could
	 * not have: saturated at max-threads, held back by the CPU or the budget, slowed down
	 * by its service, or with growth blocked because more threads did not help.
	 * @return whether the pool's tuning is limited
	 */
	public boolean isTuningLimited() {
		return this.tuningLimited;
	}

	/**
	 * Record whether the tuner's last decision found the pool short of threads it could
	 * not have.
	 * @param tuningLimited whether the pool's tuning is limited
	 */
	public void setTuningLimited(boolean tuningLimited) {
		this.tuningLimited = tuningLimited;
	}

	/**
	 * Return the pool's sizes now.
	 * @return the sizes
	 */
	public Sizes sizes() {
		PoolBounds bounds = this.bounds;
		ThreadPoolExecutor executor = this.executor;
		return new Sizes(executor.getCorePoolSize(), executor.getMaximumPoolSize(), executor.getPoolSize(),
				executor.getActiveCount(), executor.getQueue().size(), this.queueCapacity, bounds.minThreads(),
				bounds.maxThreads());
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
	public void resize(int corePoolSize, int maxPoolSize) {
		synchronized (this.executor) {
			checkSizes(this.name, corePoolSize, maxPoolSize, this.bounds);
			if (maxPoolSize >= this.executor.getMaximumPoolSize()) {
				this.executor.setMaximumPoolSize(maxPoolSize);
				this.executor.setCorePoolSize(corePoolSize);
			}
			else {
				this.executor.setCorePoolSize(corePoolSize);
				this.executor.setMaximumPoolSize(maxPoolSize);
			}
		}
	}

	/**
	 * Check core and maximum sizes against the pool's bounds without changing anything.
	 * @param corePoolSize a core size
	 * @param maxPoolSize a maximum size
	 * @throws InvalidPoolSizeException naming the first violated bound
	 */
	public void checkSizes(int corePoolSize, int maxPoolSize) {
		checkSizes(this.name, corePoolSize, maxPoolSize, this.bounds);
	}

	static void checkSizes(String pool, int corePoolSize, int maxPoolSize, PoolBounds bounds) {
		checkWithinBounds(pool, "corePoolSize", corePoolSize, bounds);
		checkWithinBounds(pool, "maxPoolSize", maxPoolSize, bounds);
		if (corePoolSize > maxPoolSize) {
			throw new InvalidPoolSizeException("corePoolSize", "corePoolSize " + corePoolSize + " of pool '" + pool
					+ "' must not be greater than maxPoolSize " + maxPoolSize);
		}
	}

	private static void checkWithinBounds(String pool, String field, int size, PoolBounds bounds) {
		if (size < bounds.minThreads() || size > bounds.maxThreads()) {
			String violated = (size < bounds.minThreads()) ? "below its min-threads " + bounds.minThreads()
					: "above its max-threads " + bounds.maxThreads();
			throw new InvalidPoolSizeException(field, field + " " + size + " of pool '" + pool + "' is " + violated
					+ " (allowed: " + bounds.minThreads() + " to " + bounds.maxThreads() + ")");
		}
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
	 * when to retry, estimated as the time the pool needs to drain its queue
	 * ({@link #drainRate()}).
	 * @return the rejection to throw
	 */
	public PoolRejectedException rejection() {
		return new PoolRejectedException(this.name, rejectionReason(), retryAfter(this.executor.getQueue().size()));
	}

	/**
	 * Return why the executor refuses tasks now: it is shutting down, or its queue is
	 * full.
	 */
	Reason rejectionReason() {
		return this.executor.isShutdown() ? Reason.SHUTDOWN : Reason.QUEUE_FULL;
	}

	private Duration retryAfter(int queued) {
		double drainRate = drainRate();
		if (drainRate <= 0) {
			return Duration.ofSeconds(1);
		}
		long seconds = (long) Math.ceil(queued / drainRate);
		return Duration.ofSeconds(Math.max(1, Math.min(seconds, MAX_RETRY_AFTER.toSeconds())));
	}

	/**
	 * Return the tasks per second the pool's threads take off its queue while all are
	 * busy: its size divided by the last window's mean service time. That is the
	 * throughput of a saturated pool, known at once after a resize or a burst, where the
	 * last window's measured throughput may have been held down by what was offered.
	 * Before any task was timed, the measured throughput; 0 before any window closed.
	 * @return the drain rate in tasks per second
	 */
	public double drainRate() {
		PoolSnapshot snapshot = this.lastSnapshot;
		if (snapshot == null) {
			return 0;
		}
		double serviceMs = snapshot.littlesLaw().meanServiceTimeMs();
		return (serviceMs > 0) ? this.executor.getMaximumPoolSize() * 1000 / serviceMs
				: snapshot.littlesLaw().throughput();
	}

	/**
	 * Return a rejection handler for this pool's executor that counts every refused task,
	 * then applies the given policy to it as it was submitted. Java's default
	 * {@link ThreadPoolExecutor.AbortPolicy} becomes one that throws this pool's
	 * {@link PoolRejectedException}, still a {@code RejectedExecutionException}.
	 * @param policy the policy for refused tasks, or {@code null} for the default
	 * @return the counting handler
	 */
	public RejectedExecutionHandler countingRejections(@Nullable RejectedExecutionHandler policy) {
		return new CountingRejection(this, policy);
	}

	@Override
	public String toString() {
		return "ManagedPool[" + this.name + "]";
	}

}
