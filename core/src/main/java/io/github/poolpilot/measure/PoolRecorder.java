package io.github.poolpilot.measure;

import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.measure.PoolSnapshot.Sizes;
import io.github.poolpilot.measure.PoolSnapshot.TaskCounts;

/**
 * Records what happens to a pool's tasks and turns it into one {@link PoolSnapshot} per
 * window, by Little's law: counts on every task, a clock only on a few.
 * <p>
 * The recording side runs on every submit and every task end, so it takes no lock, keeps
 * no per-task state and allocates nothing: every task is counted exactly
 * ({@link TaskTotals}); only a sample of tasks, sized to the load, is timed
 * ({@link TimingSample}), and a timed task's timestamps travel with it in the executor's
 * wrapper, which reports here when it ends. Between those, a sampler reads the pool's
 * queue length and busy threads at a fixed period ({@link #sampleOccupancy}), whose time
 * integrals ({@link Occupancy}) give the mean queue wait and service time of every task
 * by Little's law when not every task was timed ({@link WindowFigures}). It records and
 * nothing else: the executors wrap, guard and classify tasks.
 *
 * @author poolpilot authors
 */
public final class PoolRecorder {

	private final NanoClock clock;

	private final @Nullable NanoClock cpuClock;

	private final int processors;

	private final TaskTotals totals = new TaskTotals();

	private final TimingSample timing;

	private volatile @Nullable TimingListener timingListener;

	private final @Nullable ScheduledRuns scheduledRuns;

	private final RecorderWindow window;

	PoolRecorder(PoolRecorderBuilder builder) {
		this.clock = builder.clock();
		this.cpuClock = builder.cpuClock();
		this.timing = new TimingSample(builder.timingSampleEvery(),
				(this.cpuClock != null) ? builder.cpuSampleEvery() : 0, builder.draw());
		this.processors = builder.processors();
		this.scheduledRuns = builder.recordsScheduledRuns() ? new ScheduledRuns() : null;
		this.window = new RecorderWindow(this.clock, this.totals.reader(), this.timing, this.processors,
				builder.targetCpuUtilization(), this.scheduledRuns);
	}

	/**
	 * Return a builder with the defaults: the system clock, the share of timed tasks
	 * adapted to the load, CPU time sampled on one timed task in 16 at most, all
	 * available processors and a target CPU utilization of 1.
	 * @return a new builder
	 */
	public static PoolRecorderBuilder builder() {
		return new PoolRecorderBuilder();
	}

	/**
	 * Count a task as submitted, in the submitting thread's own totals (a platform
	 * thread) or in totals shared with others (a virtual thread, whose totals of its own
	 * would cost an allocation per request).
	 */
	public void taskSubmitted() {
		this.totals.submitted();
	}

	/**
	 * Count a task as submitted, as {@link #taskSubmitted}, and return whether to time
	 * it, as {@link #timesThisTask}, with one draw per timed task rather than per task
	 * where the submitting thread keeps totals of its own (see
	 * {@link TimingSample#timesThisTask(WorkerTotals)}).
	 * @return whether to time it
	 */
	public boolean taskSubmittedAndSampled() {
		WorkerTotals own = this.totals.submitted();
		return (own != null) ? this.timing.timesThisTask(own) : this.timing.timesThisTask();
	}

	/**
	 * Take the pool's submits from what becomes of its tasks rather than from a count at
	 * each submit: the tasks refused, abandoned, started ({@link #taskStarted}, which the
	 * pool must then call as each task starts, on its thread) and still queued. For a
	 * pool whose every task either is refused, or passes the given queue or a thread's
	 * start (a {@code ThreadPoolExecutor}): it then calls {@link #timesThisTask} rather
	 * than {@link #taskSubmittedAndSampled} at submit. Its submits are exact once it is
	 * idle, and never read above what was submitted nor below what ended, was refused or
	 * abandoned; a read while tasks move from the queue to a thread may miss those, until
	 * they start. Its occupancy samples read the queue itself.
	 * @param queued the tasks in the pool's queue now
	 */
	public void countArrivalsByOutcome(IntSupplier queued) {
		this.totals.reader().countArrivalsByOutcome(queued);
	}

	/**
	 * Take the pool's completed tasks from its own count of the tasks its threads ran (a
	 * {@code ThreadPoolExecutor}'s {@code getCompletedTaskCount()}), less those that
	 * failed or were refused after they started: the end of a task that is not timed is
	 * then counted only when it fails ({@link #untimedTaskFailed}). For a pool whose
	 * submits are its tasks' outcomes ({@link #countArrivalsByOutcome}), whose every task
	 * that starts ends in that count. Its completed tasks are exact once it is idle, and
	 * never read above what completed; a read may miss a task completing at that moment.
	 * @param ran the tasks the pool's threads ran, whatever their outcome
	 */
	public void countEndsByPool(LongSupplier ran) {
		this.totals.reader().countEndsByPool(ran);
	}

	/**
	 * Count a task that starts now, on the thread that runs it, for a pool that takes its
	 * submits from its tasks' outcomes ({@link #countArrivalsByOutcome}).
	 */
	public void taskStarted() {
		this.totals.started();
	}

	/**
	 * Return whether the task being submitted is one to time: every task while the pool
	 * is below about a thousand tasks a window, else one in so many at random, chosen at
	 * each window's close. Untimed tasks are still counted.
	 * @return whether to time it
	 */
	public boolean timesThisTask() {
		return this.timing.timesThisTask();
	}

	/**
	 * Return whether the pool's means come from its occupancy in the current window, in
	 * which case a sampler should call {@link #sampleOccupancy} at a fixed period: not
	 * every task is timed.
	 * @return whether the occupancy needs sampling
	 */
	public boolean needsOccupancy() {
		return this.timing.every() > 1;
	}

	/**
	 * Add a sample of the pool's occupancy, taken now; called by the sampler at a fixed
	 * period. The tasks queued are those in the pool (submitted, and neither refused,
	 * abandoned nor ended: the recorder's own counts) less the busy ones, so that a
	 * sample takes no lock of the pool's queue; for a pool whose submits are its tasks'
	 * outcomes ({@link #countArrivalsByOutcome}), its queue's length. The mean times'
	 * error is at most about twice the period, and much less on average (see
	 * {@link Occupancy}).
	 * @param busy the threads (or permits) running a task
	 */
	public void sampleOccupancy(int busy) {
		this.window.sampleOccupancy(busy);
	}

	/**
	 * Set a listener told of every timed task's queue wait and service time, such as
	 * metrics timers.
	 * @param timingListener the listener, or {@code null} for none
	 */
	public void setTimingListener(@Nullable TimingListener timingListener) {
		this.timingListener = timingListener;
	}

	/**
	 * Count a task that the pool refused.
	 * @param reason why
	 */
	public void taskRejected(RejectionReason reason) {
		this.totals.rejected(reason);
	}

	/**
	 * Count a task that the pool refused on the thread that started it, after it waited:
	 * it is no longer counted as started ({@link #taskStarted}).
	 * @param reason why
	 */
	public void taskRefusedAfterStart(RejectionReason reason) {
		this.totals.refusedAfterStart(reason);
	}

	/**
	 * Count a task that was abandoned while queued (counted then, by
	 * {@link #tasksAbandoned}) and that a thread took and started all the same: it will
	 * not run, and is no longer counted as started ({@link #taskStarted}).
	 */
	public void abandonedTaskStarted() {
		this.totals.notRunAfterStart();
	}

	/**
	 * Count a task interrupted for running longer than the pool's timeout.
	 */
	public void taskTimedOut() {
		this.totals.timedOut();
	}

	/**
	 * Count queued tasks that were handed back without running, at {@code shutdownNow()}.
	 * @param tasks how many
	 */
	public void tasksAbandoned(int tasks) {
		this.totals.abandoned(tasks);
	}

	/**
	 * Count the end of a task that was not timed.
	 * @param failed whether it failed: it threw, or it is a future that failed
	 */
	public void untimedTaskFinished(boolean failed) {
		this.totals.current().ended(failed);
	}

	/**
	 * Count the end of a task that was not timed and failed, for a pool that counts the
	 * others itself ({@link #countEndsByPool}).
	 */
	public void untimedTaskFailed() {
		this.totals.current().addBeforeTheEnd(WorkerTotals.FAILED, 1);
	}

	/**
	 * Count the tasks of threads that each run one task, as a virtual pool's do, in a few
	 * shared totals rather than in totals of each thread's own: those cost a
	 * {@code ThreadLocal} map, a padded array and a queue entry per task, and a look at
	 * each in every snapshot. Call it before the pool takes tasks.
	 */
	public void shareTotalsAmongShortLivedThreads() {
		this.totals.shareAmongShortLivedThreads(this.processors);
	}

	/**
	 * Return what a scheduler's recorder keeps of its runs beyond a pool's figures.
	 * @return the runs' records, or {@code null} for a pool that runs no scheduled work
	 */
	public @Nullable ScheduledRuns scheduledRuns() {
		return this.scheduledRuns;
	}

	/**
	 * Return a new platform thread for the pool this recorder measures. It counts its
	 * tasks exactly as any other thread does, but finds its own totals in a field rather
	 * than in a {@code ThreadLocal}, which every task's end would otherwise look up.
	 * @param task what the thread runs
	 * @param name the thread's name
	 * @return the new thread, not started
	 */
	public Thread newThread(Runnable task, String name) {
		return this.totals.newThread(task, name);
	}

	/**
	 * Return how many threads keep totals of their own for this recorder.
	 * @return the number of threads' totals kept
	 */
	int threadTotals() {
		return this.totals.threadTotals();
	}

	/**
	 * Return the time on the recorder's clock, which timestamps tasks.
	 * @return the time in nanoseconds
	 */
	public long now() {
		return this.clock.nanoTime();
	}

	/**
	 * Return the current thread's CPU time if the task starting on it is one whose CPU
	 * time is sampled, else -1.
	 * @return the CPU time in nanoseconds, or -1
	 */
	public long cpuSampleStart() {
		NanoClock cpu = this.cpuClock;
		if (cpu == null || !this.timing.readsCpuOfThisTask()) {
			return -1;
		}
		return cpu.nanoTime();
	}

	/**
	 * Record a timed task that ended now, on the thread that ran it.
	 * @param submittedAt when it was submitted, on the recorder's clock
	 * @param startedAt when it started
	 * @param cpuStart the thread's CPU time when it started, or -1 when not sampled
	 * @param failed whether it failed
	 */
	public void timedTaskFinished(long submittedAt, long startedAt, long cpuStart, boolean failed) {
		long endedAt = this.clock.nanoTime();
		long wait = Math.max(0, startedAt - submittedAt);
		long serviceTime = Math.max(0, endedAt - startedAt);
		WorkerTotals totals = this.totals.current();
		NanoClock cpu = this.cpuClock;
		if (cpuStart >= 0 && cpu != null) {
			totals.add(WorkerTotals.SAMPLED_CPU_NANOS, Math.max(0, cpu.nanoTime() - cpuStart));
			totals.add(WorkerTotals.SAMPLED_SERVICE_NANOS, serviceTime);
		}
		totals.add(WorkerTotals.QUEUE_WAIT_NANOS, wait);
		totals.add(WorkerTotals.SERVICE_NANOS, serviceTime);
		totals.add(WorkerTotals.TIMED, 1);
		this.timing.record(wait, serviceTime);
		totals.ended(failed);
		TimingListener listener = this.timingListener;
		if (listener != null) {
			try {
				listener.taskTimed(wait, serviceTime);
			}
			catch (RuntimeException ex) {
				// Metrics must never cost a task its outcome.
			}
		}
	}

	/**
	 * Return the cumulative task counts.
	 * @return the counts so far
	 */
	public TaskCounts taskCounts() {
		return this.totals.reader().read().counts();
	}

	/**
	 * Close the current window and describe it. Each call starts a new window, so one
	 * caller (the pool's sampler) should take snapshots and share them.
	 * @param pool the pool's name
	 * @param sizes the pool's sizes now, whose queue and busy counts close the window's
	 * occupancy
	 * @return the closed window's snapshot
	 */
	public PoolSnapshot snapshot(String pool, Sizes sizes) {
		return this.window.close(pool, sizes);
	}

	/**
	 * Told of every timed task's times as it ends, on the thread that ran it.
	 */
	@FunctionalInterface
	public interface TimingListener {

		/**
		 * A timed task ended.
		 * @param queueWaitNanos how long it waited in the queue
		 * @param serviceNanos how long it ran
		 */
		void taskTimed(long queueWaitNanos, long serviceNanos);

	}

}
