package io.github.poolpilot.core;

/**
 * A task on its way through a managed pool, carrying its own submit time so that the pool
 * needs no per-task map.
 *
 * @author poolpilot authors
 */
final class TimedTask implements Runnable {

	private final Runnable submitted;

	private final Runnable task;

	private final long submittedAt;

	private final PoolRecorder recorder;

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
