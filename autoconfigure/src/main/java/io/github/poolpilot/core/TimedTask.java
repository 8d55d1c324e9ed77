package io.github.poolpilot.core;

import java.util.concurrent.Executor;

/**
 * A task on its way through a managed pool, carrying its own submit time so that the pool
 * needs no per-task map.
 *
 * @author poolpilot authors
 */
final class TimedTask implements Runnable {

	/**
	 * The task being handed to an executor from outside, so that a rejection on this
	 * thread can find it behind the executor's own task decorator.
	 */
	private static final ThreadLocal<TimedTask> submitting = new ThreadLocal<>();

	private final Runnable submitted;

	private final Runnable task;

	private final long submittedAt;

	private final PoolRecorder recorder;

	/**
	 * Set when the pool refused the task: it was counted as rejected, so if the rejection
	 * policy runs it anyway (caller-runs), it must not be counted again.
	 */
	private boolean rejected;

	/**
	 * Wrap a task.
	 * @param submitted the task as submitted, whose outcome counts
	 * @param task what runs: the submitted task, or what a task decorator made of it
	 * @param submittedAt the submit time
	 * @param recorder the recorder to report to
	 */
	TimedTask(Runnable submitted, Runnable task, long submittedAt, PoolRecorder recorder) {
		this.submitted = submitted;
		this.task = task;
		this.submittedAt = submittedAt;
		this.recorder = recorder;
	}

	@Override
	public void run() {
		if (this.rejected) {
			this.task.run();
			return;
		}
		PoolRecorder recorder = this.recorder;
		long cpuStart = recorder.cpuSampleStart();
		long startedAt = recorder.now();
		boolean failed = true;
		try {
			this.task.run();
			failed = PoolRecorder.failedFuture(this.submitted);
		}
		finally {
			recorder.timedTaskFinished(this.submittedAt, startedAt, cpuStart, failed);
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
	 * rejection policy should see it.
	 * @param task the task the executor refused
	 * @return the submitted task when the executor held it unwrapped, else the executor's
	 * own task
	 */
	static Runnable rejected(Runnable task) {
		TimedTask timed = (task instanceof TimedTask direct) ? direct : submitting.get();
		if (timed != null) {
			timed.rejected = true;
		}
		return (task instanceof TimedTask direct) ? direct.submitted : task;
	}

	/**
	 * Return the task as it was submitted.
	 * @param task a task taken from a managed pool's queue
	 * @return the submitted task
	 */
	static Runnable unwrap(Runnable task) {
		return (task instanceof TimedTask timed) ? timed.submitted : task;
	}

	@Override
	public String toString() {
		return this.submitted.toString();
	}

}
