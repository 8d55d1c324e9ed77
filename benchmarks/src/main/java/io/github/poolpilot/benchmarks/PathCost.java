package io.github.poolpilot.benchmarks;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import io.github.poolpilot.execution.ManagedExecutor;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.pool.PoolBounds;

/**
 * Runs one path of a managed pool, or one executor of {@link ExecutorOverheadBenchmark},
 * a given number of times and nothing else, for an instruction counter that does not
 * depend on the machine's load (Valgrind's {@code callgrind}): the difference between a
 * run of {@code 2n} tasks and one of {@code n}, divided by {@code n}, is what one task
 * costs in instructions, the JVM's start, the JIT and the warm-up cancelling out.
 * <p>
 * Paths, each on one thread: {@code submit-count} (the recorder's count of a submitted
 * task), {@code submit-draw} (the draw that picks the tasks to time, one in 8000 as at
 * about eight million tasks a second) and {@code end-count} (the count of an untimed
 * task's end, on a pool thread of the recorder's). {@code executor-raw} and
 * {@code executor-managed} run a whole executor's paths for a trivial task, a plain
 * {@code ThreadPoolExecutor}'s or a managed pool's timing one task in 8000 (see
 * {@link #executor}): {@code execute} on one thread, then the pool's thread running the
 * queued tasks, one after the other, never at once.
 * <p>
 * {@code benchmarks/paths.sh} runs every case under {@code callgrind} and prints the
 * instructions per task of each thread.
 *
 * @author poolpilot authors
 */
final class PathCost {

	private static final int EVERY = 8000;

	private static final int WARM_UP_ROUNDS = 10;

	private static final long PAUSE_MILLIS = 300;

	private PathCost() {
	}

	static int run(String[] args) throws Exception {
		if (args.length != 2) {
			System.err
				.println("Usage: paths <submit-count|submit-draw|end-count|executor-raw|executor-managed> <tasks>");
			return 1;
		}
		String path = args[0];
		int tasks = Integer.parseInt(args[1]);
		long result = switch (path) {
			case "submit-count" -> submitCount(tasks);
			case "submit-draw" -> submitDraw(tasks);
			case "end-count" -> endCount(tasks);
			case "executor-raw" -> executor(tasks, false);
			case "executor-managed" -> executor(tasks, true);
			default -> throw new IllegalArgumentException("Unknown path " + path
					+ "; the paths are submit-count, submit-draw, end-count, executor-raw and executor-managed");
		};
		System.out.println(path + ": " + result);
		return 0;
	}

	/**
	 * Run the path {@value #WARM_UP_ROUNDS} times as a warm-up, pausing between rounds so
	 * that the compiler finishes, then once between two calls of {@code Thread.sleep}, at
	 * which {@code paths.sh} has {@code callgrind} dump its counts: the second dump holds
	 * the measured round alone.
	 */
	private static long measured(LongSupplier round) throws InterruptedException {
		long sink = 0;
		for (int i = 0; i < WARM_UP_ROUNDS; i++) {
			sink += round.getAsLong();
			Thread.sleep(PAUSE_MILLIS);
		}
		Thread.sleep(1);
		sink += round.getAsLong();
		Thread.sleep(1);
		return sink;
	}

	private static long submitCount(int tasks) throws InterruptedException {
		PoolRecorder recorder = PoolRecorder.builder().build();
		measured(() -> {
			for (int i = 0; i < tasks; i++) {
				recorder.taskSubmitted();
			}
			return tasks;
		});
		return recorder.taskCounts().submitted();
	}

	private static long submitDraw(int tasks) throws InterruptedException {
		PoolRecorder recorder = PoolRecorder.builder().timingSampleEvery(EVERY).build();
		return measured(() -> {
			long timed = 0;
			for (int i = 0; i < tasks; i++) {
				if (recorder.timesThisTask()) {
					timed++;
				}
			}
			return timed;
		});
	}

	private static long endCount(int tasks) throws InterruptedException {
		PoolRecorder recorder = PoolRecorder.builder().build();
		Thread thread = recorder.newThread(() -> {
			try {
				measured(() -> {
					for (int i = 0; i < tasks; i++) {
						recorder.untimedTaskFinished(false);
					}
					return tasks;
				});
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}, "end-count");
		thread.start();
		thread.join();
		return recorder.taskCounts().completed();
	}

	/**
	 * Run an executor's two paths of a trivial task, each with nothing running beside it:
	 * {@code execute} of {@code tasks} tasks on this thread, which queues them while the
	 * pool's one thread waits in a gate task queued first, then, the gate opened, that
	 * thread's worker loop ({@code ThreadPoolExecutor.runWorker}, with its
	 * {@code beforeExecute} and {@code afterExecute}) running them all, while this thread
	 * waits for the last task of the round. The pool's thread lives through every round,
	 * as a pool's does, so its loop is compiled as in an application. {@code callgrind}
	 * dumps the counts of the thread that calls {@code Thread.sleep}, since that thread's
	 * last dump: the round's last task sleeps on the pool thread, then this thread
	 * between rounds. Ten warm-up rounds (dumps 1 to 20), then a measured one: dump 22
	 * holds its {@code execute} calls, dump 23 its pool thread's run.
	 */
	private static long executor(int tasks, boolean managed) throws InterruptedException {
		int capacity = tasks + 2;
		ThreadPoolExecutor executor = managed ? ManagedExecutor.builder("paths", new PoolBounds(1, 1), capacity)
			.recorder(PoolRecorder.builder().timingSampleEvery(EVERY).build())
			.build() : new ThreadPoolExecutor(1, 1, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(capacity));
		TrivialTask[] batch = new TrivialTask[256];
		for (int i = 0; i < batch.length; i++) {
			batch[i] = new TrivialTask();
		}
		for (int round = 0; round <= WARM_UP_ROUNDS; round++) {
			boolean measuredRound = round == WARM_UP_ROUNDS;
			if (measuredRound) {
				Thread.sleep(1);
			}
			CountDownLatch gate = new CountDownLatch(1);
			CountDownLatch end = new CountDownLatch(1);
			executor.execute(() -> awaitUninterruptibly(gate));
			for (int i = 0; i < tasks; i++) {
				executor.execute(batch[i & (batch.length - 1)]);
			}
			executor.execute(() -> {
				// callgrind dumps the counts of the thread that sleeps: here the pool
				// thread's, from its sleep in the round before.
				sleep(1);
				end.countDown();
			});
			if (measuredRound) {
				Thread.sleep(1);
			}
			gate.countDown();
			end.await();
			Thread.sleep(measuredRound ? 1 : PAUSE_MILLIS);
		}
		executor.shutdown();
		long ran = 0;
		for (TrivialTask task : batch) {
			ran += task.runs;
		}
		if (ran != (WARM_UP_ROUNDS + 1L) * tasks) {
			throw new IllegalStateException("Ran " + ran + " tasks of " + (WARM_UP_ROUNDS + 1L) * tasks);
		}
		return ran;
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static void awaitUninterruptibly(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static final class TrivialTask implements Runnable {

		long runs;

		@Override
		public void run() {
			this.runs++;
		}

	}

}
