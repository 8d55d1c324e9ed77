package io.github.poolpilot.schedule;

import java.util.concurrent.Callable;

import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.measure.ScheduledRuns;

/**
 * A scheduled task as its scheduler runs it under management: each run is counted as an
 * arrival at its start and timed from when it was due, so that the pool's queue wait is
 * the runs' lateness and its service time their run time. Whatever wraps it (Spring's
 * task decorator and error handler) stays outside and runs on every run.
 *
 * @author poolpilot authors
 */
final class ScheduledRun implements Runnable {

	private final Runnable task;

	private final Due due;

	private final ExistingScheduler scheduler;

	ScheduledRun(Runnable task, Due due, ExistingScheduler scheduler) {
		this.task = task;
		this.due = due;
		this.scheduler = scheduler;
	}

	@Override
	public void run() {
		measure(this.due, this.scheduler, () -> {
			this.task.run();
			return null;
		});
	}

	static <T> T measure(Due due, ExistingScheduler scheduler, Callable<T> task) {
		PoolRecorder recorder = scheduler.getPool().getRecorder();
		ScheduledRuns runs = scheduler.runs();
		long dueAt = due.dueAt();
		long cpuStart = recorder.cpuSampleStart();
		long startedAt = recorder.now();
		recorder.taskSubmitted();
		runs.started(dueAt, startedAt, scheduler.threads());
		boolean failed = true;
		try {
			T result = task.call();
			failed = false;
			return result;
		}
		catch (RuntimeException | Error ex) {
			throw ex;
		}
		catch (Exception ex) {
			throw new ScheduledCallException(ex);
		}
		finally {
			recorder.timedTaskFinished(dueAt, startedAt, cpuStart, failed);
			long endedAt = recorder.now();
			runs.ended(endedAt);
			due.ran(endedAt, runs);
		}
	}

	@Override
	public String toString() {
		return this.task.toString();
	}

	/**
	 * Carries a checked exception of a measured {@link Callable} out of the measurement,
	 * to be thrown again as it was.
	 */
	static final class ScheduledCallException extends RuntimeException {

		ScheduledCallException(Exception cause) {
			super(cause);
		}

	}

}
