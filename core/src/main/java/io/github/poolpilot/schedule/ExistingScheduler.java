package io.github.poolpilot.schedule;

import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.measure.PoolRecorderBuilder;
import io.github.poolpilot.measure.ScheduledRuns;
import io.github.poolpilot.pool.InvalidPoolSizeException;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.ManagedPool.SizeControl;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolExecutor;
import io.github.poolpilot.schedule.ScheduledRun.ScheduledCallException;

/**
 * An application's {@link ScheduledThreadPoolExecutor} (a scheduler's) under management
 * from outside: every task handed to it through {@link #measured} has its runs measured
 * against when they were due, and the pool is resized through its {@link ManagedPool}
 * like any managed pool.
 * <p>
 * A scheduled executor has one size: its core size, the threads it keeps; it never starts
 * more, its queue being the unbounded queue of every scheduled task. Its pool reads that
 * size as both its core and its maximum size, and a resize sets it to the maximum size
 * asked for. Its queue, as the pool reads it, is the runs that are due and wait for a
 * thread: those not yet due are the schedule, not a backlog.
 *
 * @author poolpilot authors
 */
public final class ExistingScheduler {

	private final ManagedPool pool;

	private final ScheduledThreadPoolExecutor executor;

	private final ScheduledRuns runs;

	/**
	 * Bring a live scheduled executor under management.
	 * @param name the pool's name
	 * @param executor the live executor
	 * @param setSize sets its size, unchecked, such as the setter of the scheduler that
	 * made it and keeps its own copy of the size; only the pool calls it, after its
	 * checks
	 * @param recorder the recorder that measures its runs, built with
	 * {@link PoolRecorderBuilder#scheduledRuns()}
	 * @param bounds the range its size must stay in
	 * @throws InvalidPoolSizeException if the executor's size is outside the bounds
	 */
	public ExistingScheduler(String name, ScheduledThreadPoolExecutor executor, IntConsumer setSize,
			PoolRecorder recorder, PoolBounds bounds) {
		ScheduledRuns runs = recorder.scheduledRuns();
		if (runs == null) {
			throw new IllegalArgumentException("The recorder of scheduler '" + name + "' must record scheduled runs");
		}
		ManagedPool.checkSizes(name, executor.getCorePoolSize(), executor.getCorePoolSize(), bounds);
		this.executor = executor;
		this.runs = runs;
		this.pool = new ManagedPool(name, new Sizes(executor), new SizeControl() {

			@Override
			public void setCorePoolSize(int corePoolSize) {
				// One size: the maximum asked for.
			}

			@Override
			public void setMaximumPoolSize(int maxPoolSize) {
				setSize.accept(maxPoolSize);
			}

		}, recorder, bounds);
	}

	/**
	 * Return the pool.
	 * @return the managed pool
	 */
	public ManagedPool getPool() {
		return this.pool;
	}

	/**
	 * Return the time on the pool's recorder's clock, which due times are on.
	 * @return the time in nanoseconds
	 */
	public long now() {
		return this.pool.getRecorder().now();
	}

	/**
	 * Return a task whose every run is measured against when it was due.
	 * @param task the task as scheduled
	 * @param due when its runs are due
	 * @return the task to hand to the executor
	 */
	public Runnable measured(Runnable task, Due due) {
		return new ScheduledRun(task, due, this);
	}

	/**
	 * Return a task with a result whose run is measured against when it was due.
	 * @param <T> the result type
	 * @param task the task as submitted
	 * @param due when it is due
	 * @return the task to hand to the executor
	 */
	public <T> Callable<T> measured(Callable<T> task, Due due) {
		return () -> {
			try {
				return ScheduledRun.measure(due, this, task);
			}
			catch (ScheduledCallException ex) {
				throw (Exception) ex.getCause();
			}
		};
	}

	/**
	 * Return what the pool keeps of its runs.
	 * @return the runs' records
	 */
	public ScheduledRuns runs() {
		return this.runs;
	}

	/**
	 * Return the pool's size: the threads it keeps.
	 * @return the size
	 */
	int threads() {
		return this.executor.getCorePoolSize();
	}

	/**
	 * A scheduled executor's size and due runs as the pool reads them.
	 */
	private static final class Sizes implements PoolExecutor {

		private final ScheduledThreadPoolExecutor executor;

		Sizes(ScheduledThreadPoolExecutor executor) {
			this.executor = executor;
		}

		@Override
		public int getCorePoolSize() {
			return this.executor.getCorePoolSize();
		}

		@Override
		public int getMaximumPoolSize() {
			return this.executor.getCorePoolSize();
		}

		@Override
		public int getPoolSize() {
			return this.executor.getPoolSize();
		}

		@Override
		public int getActiveCount() {
			return this.executor.getActiveCount();
		}

		/**
		 * The runs due that wait for a thread; the queue's iterator is a copy, taken
		 * under its lock.
		 */
		@Override
		public int getQueueSize() {
			int due = 0;
			for (Runnable queued : this.executor.getQueue()) {
				if (queued instanceof Delayed delayed && delayed.getDelay(TimeUnit.NANOSECONDS) <= 0) {
					due++;
				}
			}
			return due;
		}

		/**
		 * Unbounded, as a scheduled executor's queue is: read as Spring reads an
		 * unbounded queue's capacity.
		 */
		@Override
		public int getQueueCapacity() {
			return Integer.MAX_VALUE;
		}

		@Override
		public boolean isShutdown() {
			return this.executor.isShutdown();
		}

	}

}
