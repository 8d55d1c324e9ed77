package io.github.poolpilot.webserver;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.guard.TaskGuard;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.pool.PoolRejectedException;

/**
 * A request on its way through the {@code http} pool, carrying the time the server handed
 * it over: its queue wait runs from then, its service time from when a thread took it. A
 * request its guard refuses once it waited too long still runs, as a refused one
 * ({@link HttpRefusal}), so that its client gets its answer.
 *
 * @author poolpilot authors
 */
final class HttpTask implements Runnable {

	/**
	 * The hand-over time of a request that is not timed.
	 */
	static final long UNTIMED = Long.MIN_VALUE;

	private static final Log logger = LogFactory.getLog(HttpTask.class);

	private static final ThreadLocal<HttpTask> running = new ThreadLocal<>();

	private final Runnable request;

	private final long submittedAt;

	private final PoolRecorder recorder;

	private final @Nullable TaskGuard guard;

	private final boolean beforeShutdown;

	HttpTask(Runnable request, long submittedAt, PoolRecorder recorder, @Nullable TaskGuard guard,
			boolean beforeShutdown) {
		this.request = request;
		this.submittedAt = submittedAt;
		this.recorder = recorder;
		this.guard = guard;
		this.beforeShutdown = beforeShutdown;
	}

	static boolean servesRequestFromBeforeShutdown() {
		HttpTask task = running.get();
		return task != null && task.beforeShutdown;
	}

	@Override
	public void run() {
		HttpTask previous = running.get();
		running.set(this);
		try {
			if (this.submittedAt == UNTIMED) {
				runUntimed();
			}
			else {
				runTimed();
			}
		}
		finally {
			running.set(previous);
		}
	}

	private void runUntimed() {
		boolean failed = true;
		try {
			this.request.run();
			failed = false;
		}
		finally {
			this.recorder.untimedTaskFinished(failed);
		}
	}

	private void runTimed() {
		PoolRecorder recorder = this.recorder;
		TaskGuard guard = this.guard;
		long startedAt = recorder.now();
		if (guard != null && !admitted(guard, startedAt)) {
			return;
		}
		long cpuStart = recorder.cpuSampleStart();
		Throwable thrown = null;
		try {
			this.request.run();
		}
		catch (RuntimeException | Error ex) {
			thrown = ex;
			throw ex;
		}
		finally {
			long endedAt = recorder.now();
			try {
				if (guard != null) {
					guard.afterRun(endedAt - startedAt, thrown);
				}
			}
			finally {
				recorder.timedTaskFinished(this.submittedAt, startedAt, cpuStart, thrown != null);
			}
		}
	}

	/**
	 * Let the guard refuse the request now that it waited: then it runs as a refused one.
	 */
	private boolean admitted(TaskGuard guard, long startedAt) {
		try {
			guard.beforeRun(startedAt - this.submittedAt, true);
			return true;
		}
		catch (PoolRejectedException ex) {
			guard.notRun();
			this.recorder.taskRejected(ex.getReason());
			HttpRefusal.runRefused(this.request, ex);
			return false;
		}
		catch (RuntimeException ex) {
			guard.notRun();
			logger.warn("A task guard failed before a request ran; the request runs without it", ex);
			return true;
		}
	}

}
