package io.github.poolpilot.execution;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.guard.TaskGuard;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.pool.PoolRejectedException;

/**
 * The way every task takes through a managed executor, whatever threads run it: counted
 * as submitted (or, for a pool whose submits are its tasks' outcomes, as started),
 * wrapped when it is timed, decorated or guarded (with its submit time when timed: a
 * guarded task always is), admitted by the pool's guard, and counted when it ends or will
 * never run. A task that is none of these goes to the threads as it was submitted:
 * nothing is allocated for it and no clock is read. The executor hands it to its threads
 * and the recorder records; this holds the guard and the task decorator between them.
 *
 * @author poolpilot authors
 */
final class TaskPath {

	private final PoolRecorder recorder;

	private final @Nullable UnaryOperator<Runnable> decorator;

	private volatile @Nullable TaskGuard guard;

	/**
	 * Whether every task is wrapped, timed or not: the pool has a guard or a task
	 * decorator. One read tells a submit that it may hand an untimed task on as it is.
	 */
	private volatile boolean wrapsEveryTask;

	TaskPath(PoolRecorder recorder, @Nullable UnaryOperator<Runnable> decorator) {
		this.recorder = recorder;
		this.decorator = decorator;
		this.wrapsEveryTask = decorator != null;
	}

	PoolRecorder recorder() {
		return this.recorder;
	}

	@Nullable TaskGuard guard() {
		return this.guard;
	}

	/**
	 * Set the guard, or take it off. The guard and {@link #wrapsEveryTask} are written
	 * together under this object's lock: two threads setting the guard at once could
	 * otherwise leave one's guard with the other's flag, and a guard set with the flag
	 * down is never asked about an untimed task. Submits read both without the lock.
	 * @param guard the guard, or {@code null} for none
	 */
	synchronized void setGuard(@Nullable TaskGuard guard) {
		this.guard = guard;
		this.wrapsEveryTask = guard != null || this.decorator != null;
	}

	/**
	 * Count a submitted task, wrap it as it is to run and let the guard admit it.
	 * @param command the task as submitted
	 * @return the task to hand to the threads
	 * @throws PoolRejectedException when the guard refuses it, counted as rejected
	 */
	Runnable accept(Runnable command) {
		return wrapped(command, this.recorder.taskSubmittedAndSampled());
	}

	/**
	 * Wrap a submitted task as it is to run and let the guard admit it, without counting
	 * it: for a pool whose submits are its tasks' outcomes
	 * ({@link PoolRecorder#countArrivalsByOutcome}), which counts each task as it starts
	 * ({@link #started}).
	 * @param command the task as submitted
	 * @return the task to hand to the threads
	 * @throws PoolRejectedException when the guard refuses it, counted as rejected
	 */
	Runnable acceptUncounted(Runnable command) {
		// The common case first, an untimed task of a pool that wraps only timed ones:
		// handed on as it is, after one flag and the draw.
		if (this.wrapsEveryTask) {
			return wrapped(command, this.recorder.timesThisTask());
		}
		return this.recorder.timesThisTask() ? wrapped(command, true) : command;
	}

	private Runnable wrapped(Runnable command, boolean sampled) {
		PoolRecorder recorder = this.recorder;
		TaskGuard guard = this.guard;
		UnaryOperator<Runnable> decorator = this.decorator;
		Runnable task = command;
		// A decorated task is always wrapped, timed or not, so that the task as submitted
		// stays known: its outcome is counted and shutdownNow() hands it back. A guarded
		// one too: its guard sees each task start and end.
		boolean timed = guard != null || sampled;
		if (decorator != null) {
			task = new TimedTask(command, decorator.apply(command), timed ? recorder.now() : TimedTask.UNTIMED,
					recorder, guard);
		}
		else if (timed) {
			task = new TimedTask(command, command, recorder.now(), recorder, guard);
		}
		if (guard != null) {
			admit(guard);
		}
		return task;
	}

	/**
	 * Count a submitted task, always wrap it (timed or not), and let the guard admit it:
	 * for an executor poolpilot does not own, whose tasks are seen to end only through
	 * their wrapper.
	 * @param command the task as submitted
	 * @return the wrapped task
	 * @throws PoolRejectedException when the guard refuses it, counted as rejected
	 */
	TimedTask acceptTimed(Runnable command) {
		PoolRecorder recorder = this.recorder;
		boolean sampled = recorder.taskSubmittedAndSampled();
		TaskGuard guard = this.guard;
		long submittedAt = (guard != null || sampled) ? recorder.now() : TimedTask.UNTIMED;
		TimedTask task = new TimedTask(command, command, submittedAt, recorder, guard);
		if (guard != null) {
			admit(guard);
		}
		return task;
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
	 * Count a task starting on the current thread, for a pool whose submits are its
	 * tasks' outcomes.
	 */
	void started() {
		this.recorder.taskStarted();
	}

	/**
	 * Count the end of a task that ran without a wrapper.
	 * @param task the task as it ran
	 * @param thrown what it threw, if anything
	 */
	void finished(Runnable task, @Nullable Throwable thrown) {
		if (!(task instanceof TimedTask)) {
			this.recorder.untimedTaskFinished(thrown != null || TaskOutcome.failedFuture(task));
		}
	}

	/**
	 * Count the end of a task that ran without a wrapper if it failed, for a pool that
	 * counts the tasks its threads ran itself.
	 * @param task the task as it ran
	 * @param thrown what it threw, if anything
	 */
	void finishedCountingFailures(Runnable task, @Nullable Throwable thrown) {
		if (!(task instanceof TimedTask) && (thrown != null || TaskOutcome.failedFuture(task))) {
			this.recorder.untimedTaskFailed();
		}
	}

	/**
	 * Count a task that a thread took but did not run, its {@code beforeExecute} having
	 * thrown, as failed, for a pool that counts its tasks' ends; its guard, if any, is
	 * told it did not run. A wrapped task cancelled while queued was counted as abandoned
	 * then, and is not counted again.
	 * @param task the task as it was to run
	 */
	void failedBeforeRun(Runnable task) {
		if (!(task instanceof TimedTask timed) || timed.notRun()) {
			this.recorder.untimedTaskFinished(true);
		}
	}

	/**
	 * Count a queued task that was taken out of the queue and will not run.
	 * @param queued the task as queued
	 */
	void abandoned(Runnable queued) {
		if (queued instanceof TimedTask timed) {
			timed.abandon();
		}
		else {
			this.recorder.tasksAbandoned(1);
		}
	}

	/**
	 * Count the queued tasks a forced shutdown handed back, but for wrappers cancelled
	 * while queued (counted then), and return them as they were submitted.
	 * @param queued the tasks as queued
	 * @return the tasks as submitted
	 */
	List<Runnable> abandonedAll(List<Runnable> queued) {
		TaskGuard guard = this.guard;
		List<Runnable> submitted = new ArrayList<>(queued.size());
		for (Runnable task : queued) {
			if (task instanceof TimedTask timed) {
				// A wrapper cancelled while queued was counted then, and its guard told.
				timed.abandon();
			}
			else {
				this.recorder.tasksAbandoned(1);
				if (guard != null) {
					guard.notRun();
				}
			}
			submitted.add(TimedTask.unwrap(task));
		}
		return submitted;
	}

	/**
	 * Release what the guard holds once the pool terminated.
	 */
	void terminated() {
		TaskGuard guard = this.guard;
		if (guard != null) {
			guard.close();
		}
	}

}
