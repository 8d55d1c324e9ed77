package io.github.poolpilot.benchmarks.scenarios;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.function.IntSupplier;

/**
 * A pool that is a {@link ThreadPoolExecutor}: a task it rejects is turned away, its
 * queue is the executor's.
 *
 * @author poolpilot authors
 */
final class ExecutorTarget implements Target {

	private final ThreadPoolExecutor executor;

	private final IntSupplier size;

	/**
	 * A target of the given executor.
	 * @param executor the executor
	 * @param size how many tasks it may run at once now
	 */
	ExecutorTarget(ThreadPoolExecutor executor, IntSupplier size) {
		this.executor = executor;
		this.size = size;
	}

	@Override
	public boolean submit(TaskRun task) {
		try {
			this.executor.execute(task);
			return true;
		}
		catch (RejectedExecutionException ex) {
			return false;
		}
	}

	@Override
	public int size() {
		return this.size.getAsInt();
	}

	@Override
	public int liveThreads() {
		return this.executor.getPoolSize();
	}

	@Override
	public int queued() {
		return this.executor.getQueue().size();
	}

}
