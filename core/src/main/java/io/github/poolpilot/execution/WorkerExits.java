package io.github.poolpilot.execution;

import java.util.concurrent.ThreadFactory;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.measure.PoolRecorder;

/**
 * The thread factory a {@link ManagedExecutor} hands its {@code ThreadPoolExecutor}: the
 * user's factory, each worker run in a runnable of its own that sees how the worker
 * thread ends, so that a task whose {@code beforeExecute} threw is counted as failed.
 * <p>
 * {@code ThreadPoolExecutor} then neither runs the task nor calls {@code afterExecute},
 * yet counts the task among those its threads ran ({@code getCompletedTaskCount()}),
 * which the pool reads as completed unless the thread counted it as failed; and the
 * worker thread ends with the exception. An exception that ends a worker thread comes
 * from the task or a hook: a task's, and an {@code afterExecute}'s, reach
 * {@code afterExecute} with it first, which tells this class ({@link #failureSeen}); one
 * that did not came from {@code beforeExecute}. This costs a runnable per thread and
 * nothing per task: the pool's count of the tasks it ran is kept, and its tasks' ends are
 * still not counted.
 *
 * @author poolpilot authors
 */
final class WorkerExits implements ThreadFactory {

	/**
	 * The exit of the worker running on the current thread, if it is a managed pool's.
	 */
	private static final ThreadLocal<Exit> current = new ThreadLocal<>();

	private final ThreadFactory factory;

	private final PoolRecorder recorder;

	WorkerExits(ThreadFactory factory, PoolRecorder recorder) {
		this.factory = factory;
		this.recorder = recorder;
	}

	/**
	 * Return the user's factory.
	 * @return the factory the threads come from
	 */
	ThreadFactory factory() {
		return this.factory;
	}

	@Override
	public @Nullable Thread newThread(Runnable worker) {
		return this.factory.newThread(new Exit(worker, this.recorder));
	}

	/**
	 * Tell the worker on the current thread that {@code afterExecute} saw a task fail: if
	 * the exception ends the thread, the task was counted.
	 */
	static void failureSeen() {
		Exit exit = current.get();
		if (exit != null) {
			exit.failureSeen = true;
		}
	}

	/**
	 * Runs a worker and counts the task it took if the worker ends by an exception that
	 * {@code afterExecute} did not see.
	 */
	private static final class Exit implements Runnable {

		private final Runnable worker;

		private final PoolRecorder recorder;

		/**
		 * Whether {@code afterExecute} saw a task fail; read and written on the worker's
		 * thread alone.
		 */
		boolean failureSeen;

		Exit(Runnable worker, PoolRecorder recorder) {
			this.worker = worker;
			this.recorder = recorder;
		}

		@Override
		public void run() {
			current.set(this);
			try {
				this.worker.run();
			}
			catch (Throwable ex) {
				if (!this.failureSeen) {
					this.recorder.untimedTaskFailed();
				}
				throw ex;
			}
			finally {
				current.remove();
			}
		}

		@Override
		public String toString() {
			return this.worker.toString();
		}

	}

}
