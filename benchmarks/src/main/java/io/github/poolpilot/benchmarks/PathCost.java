package io.github.poolpilot.benchmarks;

import java.util.function.LongSupplier;

import io.github.poolpilot.measure.PoolRecorder;

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
 * task's end, on a pool thread of the recorder's). Anything else names an executor of the
 * benchmark, run in the shape that fits two CPUs (this thread the one producer, a pool of
 * one thread) with trivial tasks, in batches of 256 as the benchmark does.
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
			System.err.println("Usage: paths <submit-count|submit-draw|end-count> <tasks>");
			return 1;
		}
		String path = args[0];
		int tasks = Integer.parseInt(args[1]);
		long result = switch (path) {
			case "submit-count" -> submitCount(tasks);
			case "submit-draw" -> submitDraw(tasks);
			case "end-count" -> endCount(tasks);
			default -> throw new IllegalArgumentException(
					"Unknown path " + path + "; the paths are submit-count, submit-draw and end-count");
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

}
