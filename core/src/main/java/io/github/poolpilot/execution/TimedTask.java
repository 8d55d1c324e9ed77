package io.github.poolpilot.execution;

import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.guard.RefusableTask;
import io.github.poolpilot.guard.TaskGuard;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.pool.PoolRejectedException;

/**
 * A task on its way through a managed pool, carrying its own submit time so that the pool
 * needs no per-task map. A pool wraps a task that it times, decorates or guards, or whose
 * end it sees only through a wrapper (an executor poolpilot does not own); a task it
 * wraps without timing it ({@link #UNTIMED}) reads no clock and is only counted.
 * <p>
 * It is a {@link Future} so that an executor poolpilot does not own can cancel it like
 * any other queued future when it shuts down (Spring cancels what {@code shutdownNow()}
 * hands back): cancelling counts the task as abandoned, once, and cancels the submitted
 * future.
 *
 * @author poolpilot authors
 */
final class TimedTask implements Runnable, Future<Object> {

	/**
	 * The submit time of a task that is not timed.
	 */
	static final long UNTIMED = Long.MIN_VALUE;

	private static final int QUEUED = 0;

	/**
	 * The pool refused the task: it was counted as rejected, so if the rejection policy
	 * runs it anyway (caller-runs), it must not be counted again.
	 */
	private static final int REJECTED = 1;

	/**
	 * The task was cancelled before it ran and counted as abandoned.
	 */
	private static final int ABANDONED = 2;

	/**
	 * A thread took the task: too late to abandon it, it is counted by how it ends.
	 */
	private static final int RUNNING = 3;

	private static final AtomicIntegerFieldUpdater<TimedTask> STATE = AtomicIntegerFieldUpdater
		.newUpdater(TimedTask.class, "state");

	/**
	 * The task being handed to an executor from outside, so that a rejection on this
	 * thread can find it behind the executor's own task decorator.
	 */
	private static final ThreadLocal<TimedTask> submitting = new ThreadLocal<>();

	private static final Log logger = LogFactory.getLog(TimedTask.class);

	private final Runnable submitted;

	private final Runnable task;

	private final long submittedAt;

	private final PoolRecorder recorder;

	private final @Nullable TaskGuard guard;

	private volatile int state;

	/**
	 * Wrap a task.
	 * @param submitted the task as submitted, whose outcome counts
	 * @param task what runs: the submitted task, or what a task decorator made of it
	 * @param submittedAt the submit time, or {@link #UNTIMED}
	 * @param recorder the recorder to report to
	 * @param guard the pool's guard, told when the task starts and ends, if any
	 */
	TimedTask(Runnable submitted, Runnable task, long submittedAt, PoolRecorder recorder, @Nullable TaskGuard guard) {
		this.submitted = submitted;
		this.task = task;
		this.submittedAt = submittedAt;
		this.recorder = recorder;
		this.guard = guard;
	}

	@Override
	public void run() {
		// Claimed with a compare-and-set, as cancel() claims it to abandon it: a task
		// cancelled through the queue just as a thread takes it is counted once, by
		// whichever came first.
		if (!STATE.compareAndSet(this, QUEUED, RUNNING)) {
			if (this.state == REJECTED) {
				this.task.run();
			}
			else {
				// Abandoned while queued, counted then: a pool that counted its start
				// takes it back, so that it is neither submitted twice nor completed.
				this.recorder.abandonedTaskStarted();
			}
			return;
		}
		PoolRecorder recorder = this.recorder;
		TaskGuard guard = this.guard;
		if (guard != null) {
			runGuarded(recorder, guard);
			return;
		}
		if (this.submittedAt == UNTIMED) {
			runUntimed(recorder);
			return;
		}
		runUnguarded(recorder);
	}

	private void runUntimed(PoolRecorder recorder) {
		boolean failed = true;
		try {
			this.task.run();
			failed = TaskOutcome.failedFuture(this.submitted);
		}
		finally {
			recorder.untimedTaskFinished(failed);
		}
	}

	private void runUnguarded(PoolRecorder recorder) {
		long cpuStart = recorder.cpuSampleStart();
		long startedAt = recorder.now();
		boolean failed = true;
		try {
			this.task.run();
			failed = TaskOutcome.failedFuture(this.submitted);
		}
		finally {
			recorder.timedTaskFinished(this.submittedAt, startedAt, cpuStart, failed);
		}
	}

	/**
	 * Run the task past the pool's guard: it may refuse the task now that it waited,
	 * failing the caller's future with the rejection, and it is told how the task ended.
	 */
	private void runGuarded(PoolRecorder recorder, TaskGuard guard) {
		long startedAt = recorder.now();
		try {
			guard.beforeRun(startedAt - this.submittedAt, this.submitted instanceof RefusableTask);
		}
		catch (RuntimeException ex) {
			guard.notRun();
			if (ex instanceof PoolRejectedException rejection && this.submitted instanceof RefusableTask refusable) {
				recorder.taskRefusedAfterStart(rejection.getReason());
				refusable.refuse(rejection);
				return;
			}
			// A guard that failed, or refused a task whose caller cannot be told: the
			// task is not lost for it, it runs unguarded.
			logger.warn("A task guard failed before a task ran; the task runs without it", ex);
			runUnguarded(recorder);
			return;
		}
		long cpuStart = recorder.cpuSampleStart();
		Throwable thrown = null;
		try {
			this.task.run();
		}
		catch (RuntimeException | Error ex) {
			thrown = ex;
			throw ex;
		}
		finally {
			Throwable failure = TaskOutcome.failure(this.submitted, thrown);
			long endedAt = recorder.now();
			try {
				guard.afterRun(endedAt - startedAt, failure);
			}
			finally {
				recorder.timedTaskFinished(this.submittedAt, startedAt, cpuStart, failure != null);
			}
		}
	}

	/**
	 * Claim this task for a thread that took it but will not run it, and tell the guard.
	 * @return whether it was still queued: not cancelled before, and so not counted yet
	 */
	boolean notRun() {
		if (!STATE.compareAndSet(this, QUEUED, RUNNING)) {
			return false;
		}
		tellGuardNotRun();
		return true;
	}

	private void tellGuardNotRun() {
		TaskGuard guard = this.guard;
		if (guard != null) {
			guard.notRun();
		}
	}

	/**
	 * Hand this task to an executor whose queue and rejection policy see it only behind
	 * that executor's own decorator.
	 * @param executor the executor
	 */
	void submitTo(Executor executor) {
		TimedTask previous = submitting.get();
		submitting.set(this);
		try {
			executor.execute(this);
		}
		finally {
			submitting.set(previous);
		}
	}

	/**
	 * Mark a refused task so that it is counted once, as rejected, and return it as the
	 * rejection policy should see it: as Spring's executors hand it, what the task
	 * decorator made of it, so that a policy that runs it (the caller-runs one) runs it
	 * decorated.
	 * @param task the task the executor refused
	 * @return the submitted task, decorated, when the executor held it in its wrapper,
	 * else the executor's own task
	 */
	static Runnable rejected(Runnable task) {
		TimedTask timed = (task instanceof TimedTask direct) ? direct : submitting.get();
		if (timed != null) {
			STATE.compareAndSet(timed, QUEUED, REJECTED);
		}
		return (task instanceof TimedTask direct) ? direct.task : task;
	}

	/**
	 * Return the task as it was submitted.
	 * @param task a task taken from a managed pool's queue
	 * @return the submitted task
	 */
	static Runnable unwrap(Runnable task) {
		return (task instanceof TimedTask timed) ? timed.submitted : task;
	}

	/**
	 * Cancel the task if it is still queued, counting it as abandoned; once a thread took
	 * it, only a submitted future is cancelled (interrupting its task if asked), and the
	 * task is counted by how it ends.
	 */
	@Override
	public boolean cancel(boolean mayInterruptIfRunning) {
		boolean abandoned = abandon();
		return (this.submitted instanceof Future<?> future) ? future.cancel(mayInterruptIfRunning) : abandoned;
	}

	/**
	 * Count this queued task as abandoned, once: it will not run.
	 * @return whether it was abandoned now: it was queued, not taken by a thread, refused
	 * or abandoned before
	 */
	boolean abandon() {
		if (!STATE.compareAndSet(this, QUEUED, ABANDONED)) {
			return false;
		}
		this.recorder.tasksAbandoned(1);
		tellGuardNotRun();
		return true;
	}

	@Override
	public boolean isCancelled() {
		return this.state == ABANDONED;
	}

	@Override
	public boolean isDone() {
		return isCancelled() || (this.submitted instanceof Future<?> future && future.isDone());
	}

	@Override
	public Object get() throws InterruptedException, ExecutionException {
		if (this.submitted instanceof Future<?> future) {
			return future.get();
		}
		throw new CancellationException("Only a submitted future can be waited for");
	}

	@Override
	public Object get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
		if (this.submitted instanceof Future<?> future) {
			return future.get(timeout, unit);
		}
		throw new CancellationException("Only a submitted future can be waited for");
	}

	@Override
	public String toString() {
		return this.submitted.toString();
	}

}
