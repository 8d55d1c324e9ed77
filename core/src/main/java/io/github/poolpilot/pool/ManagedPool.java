package io.github.poolpilot.pool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.budget.BudgetMember;
import io.github.poolpilot.budget.ThreadBudget;
import io.github.poolpilot.budget.ThreadBudget.Loan;
import io.github.poolpilot.budget.ThreadBudget.Overrun;
import io.github.poolpilot.budget.ThreadBudget.Room;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.measure.PoolSnapshot.Sizes;
import io.github.poolpilot.measure.RejectionReason;

/**
 * A thread pool under poolpilot's management: its name, its bounds, the recorder that
 * measures it, and the one door through which it is resized, checked against its bounds
 * and the budget it shares ({@link #resize}), whoever asks: the tuner, the endpoint, a
 * configuration refresh or the executor's own setters.
 * <p>
 * The pool reads its executor through {@link PoolExecutor}, so that it may be a
 * {@code ThreadPoolExecutor}, a pool of virtual threads or a web server's request pool;
 * it changes the executor's sizes through the {@link SizeControl} the executor gave it.
 *
 * @author poolpilot authors
 */
public final class ManagedPool implements BudgetMember {

	private final String name;

	private final PoolExecutor executor;

	private final SizeControl sizeControl;

	private final PoolRecorder recorder;

	private final ServiceTimeEstimate serviceTime;

	private volatile PoolBounds bounds;

	private volatile int weight = 1;

	private volatile ThreadBudget budget = ThreadBudget.none();

	private volatile Ceiling ceiling = Ceiling.NONE;

	/**
	 * Manage a pool.
	 * @param name the pool's name
	 * @param executor the executor that runs its tasks
	 * @param sizeControl how its sizes are set, unchecked: only this pool calls it
	 * @param recorder the recorder that measures its tasks
	 * @param bounds the range its sizes must stay in
	 */
	public ManagedPool(String name, PoolExecutor executor, SizeControl sizeControl, PoolRecorder recorder,
			PoolBounds bounds) {
		this.name = name;
		this.executor = executor;
		this.sizeControl = sizeControl;
		this.recorder = recorder;
		this.bounds = bounds;
		this.serviceTime = new ServiceTimeEstimate(executor, recorder);
	}

	/**
	 * Return the pool's name.
	 * @return the name
	 */
	@Override
	public String getName() {
		return this.name;
	}

	/**
	 * Return the executor that runs the pool's tasks, as the pool reads it.
	 * @return the executor
	 */
	public PoolExecutor getExecutor() {
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
	 * Set the range the pool's sizes must stay in, moving its current sizes into it; idle
	 * pools lend what the budget lacks for them. Nothing changes when the moved sizes
	 * would not fit the budget.
	 * @param bounds the new bounds
	 * @throws InvalidPoolSizeException if the moved sizes would exceed the budget
	 */
	public void setBounds(PoolBounds bounds) {
		ThreadBudget budget = this.budget;
		budget.change(() -> {
			int[] sizes = sizesWithin(bounds);
			makeRoom(budget, sizes[1]);
			this.bounds = bounds;
			apply(sizes[0], sizes[1]);
		});
	}

	/**
	 * Return the pool's core and maximum sizes moved into the given bounds.
	 * @param bounds the bounds
	 * @return the core and the maximum size, in that order
	 */
	public int[] sizesWithin(PoolBounds bounds) {
		int max = Math.min(this.ceiling.threads(), bounds.clamp(this.executor.getMaximumPoolSize()));
		int core = Math.min(max, bounds.clamp(this.executor.getCorePoolSize()));
		return new int[] { core, max };
	}

	/**
	 * Return the most threads something outside the pool lets it have now, such as its
	 * lease of a cluster-wide limit.
	 * @return the ceiling, {@link Integer#MAX_VALUE} when there is none
	 */
	public int ceiling() {
		return this.ceiling.threads();
	}

	/**
	 * Set the most threads the pool may have from now on, such as its lease of a
	 * cluster-wide limit, below its max-threads and, when need be, below its min-threads.
	 * A pool above it shrinks through its door first, under the budget's lock, so that
	 * when this returns the pool may start no more threads than the ceiling (threads
	 * still running a task end with it).
	 * @param ceiling the ceiling, at least 1; {@link Integer#MAX_VALUE} for none
	 */
	public void setCeiling(int ceiling) {
		setCeiling(ceiling, Ceiling.LEASE);
	}

	/**
	 * Set the most threads the pool may have from now on, as {@link #setCeiling(int)}
	 * does, for a reason a refusal names, such as {@code "the 3 partitions of its
	 * topics"}.
	 * @param ceiling the ceiling, at least 1; {@link Integer#MAX_VALUE} for none
	 * @param reason what the ceiling is, as in "maxPoolSize 5 is above {@code reason}"
	 */
	public void setCeiling(int ceiling, String reason) {
		Objects.requireNonNull(reason, "reason must not be null");
		if (ceiling < 1) {
			throw new IllegalArgumentException(
					"the ceiling of pool '" + this.name + "' must be at least 1 but was " + ceiling);
		}
		ThreadBudget budget = this.budget;
		budget.change(() -> {
			this.ceiling = new Ceiling(ceiling, reason);
			int max = this.executor.getMaximumPoolSize();
			if (max > ceiling) {
				resize(Math.min(this.executor.getCorePoolSize(), ceiling), ceiling);
			}
		});
	}

	/**
	 * Return whether the pool settles after a resize that restarted its workers, and for
	 * how long: the tuner leaves its size alone meanwhile.
	 * @return how it settles, or {@code null} when it does not
	 */
	public @Nullable Settling settling() {
		return this.executor.settling();
	}

	/**
	 * Return whether the pool settles after a resize that restarted its workers: it lends
	 * no threads meanwhile.
	 * @return whether it settles
	 */
	@Override
	public boolean isSettling() {
		return settling() != null;
	}

	/**
	 * Return the pool's share of the budget relative to the other pools' weights.
	 * @return the weight
	 */
	@Override
	public int getWeight() {
		return this.weight;
	}

	/**
	 * Set the pool's share of the budget relative to the other pools' weights.
	 * @param weight the weight, at least 1
	 */
	public void setWeight(int weight) {
		checkWeight(this.name, weight);
		this.weight = weight;
	}

	/**
	 * Check a pool's weight before it is set.
	 * @param pool the pool's name, or {@code null} while it has none yet
	 * @param weight the weight
	 * @throws IllegalArgumentException if it is not at least 1
	 */
	public static void checkWeight(@Nullable String pool, int weight) {
		if (weight < 1) {
			throw new IllegalArgumentException(((pool != null) ? "weight of pool '" + pool + "'" : "weight")
					+ " must be at least 1 but was " + weight + " (allowed: 1 or more)");
		}
	}

	/**
	 * Return the budget the pool shares with the others of its registry.
	 * @return the budget; one that limits nothing while the pool is in no registry
	 */
	public ThreadBudget getBudget() {
		return this.budget;
	}

	void shareBudget(ThreadBudget budget) {
		this.budget = budget;
	}

	/**
	 * Return the pool's sizes now.
	 * @return the sizes
	 */
	public Sizes sizes() {
		PoolBounds bounds = this.bounds;
		PoolExecutor executor = this.executor;
		return new Sizes(executor.getCorePoolSize(), executor.getMaximumPoolSize(), executor.getPoolSize(),
				executor.getActiveCount(), executor.getQueueSize(), executor.getQueueCapacity(), bounds.minThreads(),
				bounds.maxThreads());
	}

	@Override
	public int minThreads() {
		return this.bounds.minThreads();
	}

	@Override
	public int maxThreads() {
		return this.bounds.maxThreads();
	}

	@Override
	public int corePoolSize() {
		return this.executor.getCorePoolSize();
	}

	@Override
	public int maxPoolSize() {
		return this.executor.getMaximumPoolSize();
	}

	@Override
	public int liveThreads() {
		return this.executor.getPoolSize();
	}

	/**
	 * Set the core and maximum pool sizes together: the one door of every size change.
	 * The sizes are checked against the pool's bounds and, under the budget's lock,
	 * against the budget, then set in the order that keeps core ≤ max at every step: when
	 * growing the maximum first, when shrinking the core first. Threads the budget lacks
	 * are lent by idle pools ({@link ThreadBudget#makeRoom}). Nothing changes when a size
	 * is invalid.
	 * @param corePoolSize the new core size
	 * @param maxPoolSize the new maximum size
	 * @return the pools that lent threads for it, none when the budget had them free
	 * @throws InvalidPoolSizeException naming the field and the violated bound, core >
	 * max, or the budget
	 */
	@Override
	public List<Loan> resize(int corePoolSize, int maxPoolSize) {
		ThreadBudget budget = this.budget;
		List<List<Loan>> loans = new ArrayList<>(1);
		budget.change(() -> {
			Ceiling ceiling = this.ceiling;
			ceiling.check(this.name, maxPoolSize, this.executor.getMaximumPoolSize());
			ceiling.lower(this.bounds).check(this.name, corePoolSize, maxPoolSize);
			loans.add(makeRoom(budget, maxPoolSize));
			apply(corePoolSize, maxPoolSize);
		});
		return loans.get(0);
	}

	/**
	 * Run a change that reads the pool's sizes and resizes it through its door under the
	 * budget's lock, so that no other resize (the tuner's, the endpoint's) falls between
	 * the read and the door. Re-entrant, as the door's own lock.
	 * @param change the change
	 */
	public void change(Runnable change) {
		this.budget.change(change);
	}

	private void apply(int corePoolSize, int maxPoolSize) {
		if (maxPoolSize >= this.executor.getMaximumPoolSize()) {
			this.sizeControl.setMaximumPoolSize(maxPoolSize);
			this.sizeControl.setCorePoolSize(corePoolSize);
		}
		else {
			this.sizeControl.setCorePoolSize(corePoolSize);
			this.sizeControl.setMaximumPoolSize(maxPoolSize);
		}
	}

	/**
	 * Make room in the budget, idle pools lending what it lacks, or refuse.
	 */
	private List<Loan> makeRoom(ThreadBudget budget, int maxPoolSize) {
		Room room = budget.makeRoom(this, maxPoolSize);
		Overrun overrun = room.overrun();
		if (overrun != null) {
			throw new InvalidPoolSizeException("maxPoolSize", overrun.describe(this.name, maxPoolSize));
		}
		return room.loans();
	}

	/**
	 * Check core and maximum sizes against the pool's bounds without changing anything.
	 * @param corePoolSize a core size
	 * @param maxPoolSize a maximum size
	 * @throws InvalidPoolSizeException naming the first violated bound
	 */
	public void checkSizes(int corePoolSize, int maxPoolSize) {
		this.bounds.check(this.name, corePoolSize, maxPoolSize);
	}

	/**
	 * Check a pool's core and maximum sizes against its bounds.
	 * @param pool the pool's name
	 * @param corePoolSize a core size
	 * @param maxPoolSize a maximum size
	 * @param bounds the pool's bounds
	 * @throws InvalidPoolSizeException naming the first violated bound
	 */
	public static void checkSizes(String pool, int corePoolSize, int maxPoolSize, PoolBounds bounds) {
		bounds.check(pool, corePoolSize, maxPoolSize);
	}

	/**
	 * Close the current measurement window and return its snapshot, which also becomes
	 * {@link #lastSnapshot()}. One sampler per pool should call this, once per window.
	 * @return the closed window's snapshot
	 */
	public PoolSnapshot takeSnapshot() {
		PoolSnapshot snapshot = this.recorder.snapshot(this.name, sizes());
		this.serviceTime.windowClosed(snapshot);
		return snapshot;
	}

	/**
	 * Sample the pool's occupancy, its queued tasks and busy threads, into the current
	 * window if its recorder needs it (when not every task is timed, its means come from
	 * Little's law); called by the sampler at a fixed period. The queued tasks are the
	 * queue's length where the executor registered it (every {@code ManagedExecutor}),
	 * else the recorder's counts.
	 * @return whether the recorder needed the sample
	 */
	public boolean sampleOccupancy() {
		if (!this.recorder.needsOccupancy()) {
			return false;
		}
		this.recorder.sampleOccupancy(this.executor.getActiveCount());
		return true;
	}

	/**
	 * Return the snapshot of the last closed window.
	 * @return the last snapshot, or {@code null} before the first window closed
	 */
	public @Nullable PoolSnapshot lastSnapshot() {
		return this.serviceTime.lastSnapshot();
	}

	/**
	 * Return the exception that tells a caller this pool refused its task now: why, and
	 * when to retry, estimated as the time the pool needs to drain its queue
	 * ({@link #drainRate()}).
	 * @return the rejection to throw
	 */
	public PoolRejectedException rejection() {
		return new PoolRejectedException(this.name, rejectionReason(), retryAfter(this.executor.getQueueSize()));
	}

	/**
	 * Return why the executor refuses tasks now: it is shutting down, or its queue is
	 * full.
	 * @return the reason
	 */
	public RejectionReason rejectionReason() {
		return this.executor.isShutdown() ? RejectionReason.SHUTDOWN : RejectionReason.QUEUE_FULL;
	}

	/**
	 * Return how long the given queued tasks take to drain at the pool's drain rate.
	 * @param queued the queued tasks
	 * @return the retry delay for a task refused now
	 */
	public Duration retryAfter(int queued) {
		return this.serviceTime.retryAfter(queued);
	}

	/**
	 * Return the tasks per second the pool's threads take off its queue while all are
	 * busy: its size divided by the expected service time ({@link #expectedServiceMs()}).
	 * That is the throughput of a saturated pool, known at once after a resize or a
	 * burst, where the last window's measured throughput may have been held down by what
	 * was offered. While no service time is known, the measured throughput; 0 before any
	 * window closed.
	 * @return the drain rate in tasks per second
	 */
	public double drainRate() {
		return this.serviceTime.drainRate();
	}

	/**
	 * Return how long a task is expected to run, from what is known: the last window's
	 * mean service time, else the least one of any earlier window; and at least as long
	 * as the pool has had work in flight with no task ending, for then its oldest running
	 * task has been running about that long. That last figure is what is known at a
	 * pool's first burst, before any task ended: a caller refused then is not told to
	 * come back in a second when the tasks ahead of it take many.
	 * @return the expected service time in milliseconds; 0 before any window closed, and
	 * while nothing is known
	 */
	public double expectedServiceMs() {
		return this.serviceTime.expectedServiceMs();
	}

	@Override
	public String toString() {
		return "ManagedPool[" + this.name + "]";
	}

	/**
	 * Sets an executor's sizes, unchecked, for its {@link ManagedPool}: the executor
	 * gives it to its pool and nobody else.
	 */
	public interface SizeControl {

		/**
		 * Set the core size.
		 * @param corePoolSize the core size
		 */
		void setCorePoolSize(int corePoolSize);

		/**
		 * Set the maximum size.
		 * @param maxPoolSize the maximum size
		 */
		void setMaximumPoolSize(int maxPoolSize);

	}

}
