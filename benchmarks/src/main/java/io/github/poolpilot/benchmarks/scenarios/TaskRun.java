package io.github.poolpilot.benchmarks.scenarios;

import java.util.concurrent.Semaphore;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.pool.PoolRejectedException;
import io.github.poolpilot.guard.RefusableTask;

/**
 * One scheduled task on its way through a pool: it does its work and records its end in
 * the run's {@link TaskLog}, or, when a pool with a max-queue-wait refuses it after it
 * waited too long, its rejection.
 *
 * @author poolpilot authors
 */
final class TaskRun implements RefusableTask {

	private final TaskLog log;

	private final int task;

	private final long startNanos;

	private final @Nullable Semaphore downstream;

	TaskRun(TaskLog log, int task, long startNanos, @Nullable Semaphore downstream) {
		this.log = log;
		this.task = task;
		this.startNanos = startNanos;
		this.downstream = downstream;
	}

	@Override
	public void run() {
		perform();
	}

	@Override
	public void refuse(PoolRejectedException rejection) {
		this.log.refused(this.task);
	}

	/**
	 * Do the task's work and record its end.
	 * @return whether the work was done, or interrupted
	 */
	boolean perform() {
		Schedule schedule = this.log.schedule();
		boolean done = Work.perform(schedule.cpuNanos(this.task), schedule.blockNanos(this.task), this.downstream);
		this.log.ended(this.task, System.nanoTime() - this.startNanos, done);
		return done;
	}

}
