package io.github.poolpilot.execution;

import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The virtual threads of a {@link VirtualManagedExecutor}: one started per task with the
 * permit taken for it, which runs the task with the pool's hooks around it, records it on
 * the task path and then gives its permit to the next queued task.
 *
 * @author poolpilot authors
 */
final class VirtualWorkers {

	private static final Log logger = LogFactory.getLog(VirtualManagedExecutor.class);

	private final VirtualManagedExecutor executor;

	private final String name;

	private final ThreadFactory threadFactory;

	private final BlockingQueue<Runnable> queue;

	private final Permits permits;

	private final TaskPath path;

	/**
	 * The threads running or about to run a task, for {@code shutdownNow()}.
	 */
	private final RunningThreads threads;

	/**
	 * The workers started for a queued task that have not taken one from the queue yet.
	 */
	private final AtomicInteger startingWorkers = new AtomicInteger();

	private final LongAdder completedTasks = new LongAdder();

	/**
	 * Whether the log was told once that the thread factory returned {@code null}.
	 */
	private volatile boolean toldOfNullThread;

	VirtualWorkers(VirtualManagedExecutor executor, String name, ThreadFactory threadFactory,
			BlockingQueue<Runnable> queue, Permits permits, TaskPath path, int maxThreads) {
		this.executor = executor;
		this.name = name;
		this.threadFactory = threadFactory;
		this.queue = queue;
		this.permits = permits;
		this.path = path;
		this.threads = new RunningThreads(maxThreads);
	}

	/**
	 * Start a task or queue it, as {@code ThreadPoolExecutor} admits one: it starts at
	 * once when nothing is queued and a permit is free, otherwise it is queued; when the
	 * queue is full it starts if a permit is free.
	 * @return whether it was admitted; else the pool refuses it
	 */
	boolean admit(Runnable task) {
		if (this.queue.isEmpty() && this.permits.tryAcquire(false)) {
			if (start(task)) {
				return true;
			}
			// No thread could be started: queue the task, as ThreadPoolExecutor does. It
			// starts when a thread can be started for it.
		}
		if (!this.permits.isRunning()) {
			return false;
		}
		if (this.queue.offer(task)) {
			// Shut down meanwhile: take the task back, unless a permit was given to it.
			if (!this.permits.isRunning() && this.queue.remove(task)) {
				this.executor.tryTerminate();
				return false;
			}
			startQueued();
			return true;
		}
		return this.permits.tryAcquire(false) && start(task);
	}

	/**
	 * Start queued tasks while permits are free. Called after a task was queued, after
	 * one ended and after the limit grew, so that a queued task and a free permit never
	 * wait for each other. Each thread takes its task from the queue itself, once it
	 * runs: a task whose thread could not be started (the thread factory returned
	 * {@code null} or failed) stays queued, as in {@code ThreadPoolExecutor}, and starts
	 * at the next of these calls that can start a thread; {@code shutdownNow()} hands it
	 * back.
	 */
	void startQueued() {
		while (this.queue.size() > this.startingWorkers.get() && this.permits.tryAcquire(true)) {
			this.startingWorkers.incrementAndGet();
			if (!start(null)) {
				this.startingWorkers.decrementAndGet();
				return;
			}
		}
	}

	/**
	 * Start a thread with the permit taken for it, to run the given task, or the head of
	 * the queue when none is given. On failure the permit is given back.
	 * @return whether a thread was started
	 */
	boolean start(@Nullable Runnable task) {
		Thread thread = null;
		Worker worker = new Worker(task);
		try {
			thread = this.threadFactory.newThread(worker);
			if (thread != null) {
				worker.slot = this.threads.add(thread);
				thread.start();
				return true;
			}
			if (!this.toldOfNullThread) {
				this.toldOfNullThread = true;
				logger.warn("Pool '" + this.name
						+ "' could not start a thread: its thread factory returned null; the task waits in the queue");
			}
		}
		catch (RuntimeException | OutOfMemoryError ex) {
			logger.warn("Pool '" + this.name + "' could not start a thread", ex);
		}
		if (thread != null && worker.slot != Worker.NO_SLOT) {
			this.threads.remove(worker.slot, thread);
		}
		this.permits.release();
		this.executor.tryTerminate();
		return false;
	}

	void interruptAll() {
		this.threads.interruptAll();
	}

	/**
	 * Return the tasks that ended.
	 */
	long completed() {
		return this.completedTasks.sum();
	}

	Set<Thread> threads() {
		return this.threads.toSet();
	}

	/**
	 * Runs one task on its own thread with the hooks around it, then gives its permit to
	 * the next queued task.
	 */
	private final class Worker implements Runnable {

		static final int NO_SLOT = Integer.MIN_VALUE;

		private final @Nullable Runnable task;

		/**
		 * Where {@link #threads} keeps this worker's thread; set before it starts.
		 */
		int slot = NO_SLOT;

		/**
		 * A worker for the given task, or for the head of the queue when none is given.
		 */
		Worker(@Nullable Runnable task) {
			this.task = task;
		}

		@Override
		public void run() {
			Thread thread = Thread.currentThread();
			Runnable task = (this.task != null) ? this.task : takeQueued();
			try {
				if (task != null) {
					runTask(thread, task);
				}
			}
			finally {
				VirtualWorkers.this.threads.remove(this.slot, thread);
				if (task != null) {
					VirtualWorkers.this.completedTasks.increment();
				}
				VirtualWorkers.this.permits.release();
				startQueued();
				VirtualWorkers.this.executor.tryTerminate();
			}
		}

		/**
		 * Take the head of the queue for a worker started without a task. It stops
		 * counting as starting before it polls: for a moment a queued task may then look
		 * unclaimed and get a worker that finds nothing (and gives its permit back),
		 * never the other way round, where a queued task and a free permit would wait for
		 * each other.
		 */
		private @Nullable Runnable takeQueued() {
			VirtualWorkers.this.startingWorkers.decrementAndGet();
			return VirtualWorkers.this.queue.poll();
		}

		private void runTask(Thread thread, Runnable task) {
			// A task started as the pool stops runs interrupted, as in
			// ThreadPoolExecutor.
			if (VirtualWorkers.this.permits.isStopping() && !thread.isInterrupted()) {
				thread.interrupt();
			}
			VirtualManagedExecutor executor = VirtualWorkers.this.executor;
			Runnable submitted = TimedTask.unwrap(task);
			try {
				executor.beforeExecute(thread, submitted);
			}
			catch (RuntimeException | Error ex) {
				// The task will not run, and afterExecute is not called, as in
				// ThreadPoolExecutor: it failed.
				VirtualWorkers.this.path.failedBeforeRun(task);
				throw ex;
			}
			try {
				task.run();
			}
			catch (RuntimeException | Error ex) {
				VirtualWorkers.this.path.finished(task, ex);
				executor.afterExecute(submitted, ex);
				throw ex;
			}
			VirtualWorkers.this.path.finished(task, null);
			executor.afterExecute(submitted, null);
		}

	}

}
