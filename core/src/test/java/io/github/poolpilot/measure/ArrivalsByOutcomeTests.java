package io.github.poolpilot.measure;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.poolpilot.measure.PoolSnapshot.TaskCounts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for a recorder that takes its pool's submits from its tasks' outcomes
 * ({@link PoolRecorder#countArrivalsByOutcome}): refused, abandoned, started or still
 * queued; and, in each, for one that also takes its completed tasks from the pool's own
 * count of the tasks its threads ran ({@link PoolRecorder#countEndsByPool}).
 *
 * @author poolpilot authors
 */
class ArrivalsByOutcomeTests {

	/**
	 * One thread moves tasks through a pool's states at random: each read, taken between
	 * two moves, gives exactly the tasks submitted so far.
	 */
	@ParameterizedTest
	@ValueSource(booleans = { false, true })
	void betweenTwoMovesEveryReadGivesExactlyTheTasksSubmitted(boolean endsByPool) {
		for (long seed = 1; seed <= 200; seed++) {
			Random random = new Random(seed);
			PoolRecorder recorder = PoolRecorder.builder().cpuSampleEvery(0).build();
			int[] queued = { 0 };
			long[] ran = { 0 };
			recorder.countArrivalsByOutcome(() -> queued[0]);
			if (endsByPool) {
				recorder.countEndsByPool(() -> ran[0]);
			}
			long submitted = 0;
			long ended = 0;
			long refused = 0;
			long abandoned = 0;
			long failures = 0;
			int running = 0;
			for (int move = 0; move < 300; move++) {
				switch (random.nextInt(7)) {
					case 0 -> {
						submitted++;
						queued[0]++;
					}
					case 1 -> {
						submitted++;
						refused++;
						recorder.taskRejected(RejectionReason.QUEUE_FULL);
					}
					case 2 -> {
						// Handed to a new thread, not queued.
						submitted++;
						running++;
						recorder.taskStarted();
					}
					case 3 -> {
						if (queued[0] > 0) {
							queued[0]--;
							running++;
							recorder.taskStarted();
						}
					}
					case 4 -> {
						if (queued[0] > 0) {
							queued[0]--;
							abandoned++;
							recorder.tasksAbandoned(1);
						}
					}
					case 5 -> {
						if (running > 0) {
							running--;
							refused++;
							recorder.taskRefusedAfterStart(RejectionReason.QUEUE_WAIT);
							ran[0]++;
						}
					}
					default -> {
						if (running > 0) {
							running--;
							ended++;
							boolean failed = random.nextBoolean();
							if (failed) {
								failures++;
							}
							end(recorder, endsByPool, failed);
							ran[0]++;
						}
					}
				}
				TaskCounts counts = recorder.taskCounts();
				assertThat(counts.submitted()).as("seed %d, move %d", seed, move).isEqualTo(submitted);
				assertThat(counts.completed() + counts.failed()).as("seed %d, move %d", seed, move).isEqualTo(ended);
				assertThat(counts.failed()).as("seed %d, move %d", seed, move).isEqualTo(failures);
				assertThat(counts.rejected()).as("seed %d, move %d", seed, move).isEqualTo(refused);
				assertThat(counts.abandoned()).as("seed %d, move %d", seed, move).isEqualTo(abandoned);
			}
		}
	}

	/**
	 * Producers offer bursts of tasks to a queue or have them refused, workers start them
	 * and end them or refuse them after they started, another thread takes some out of
	 * the queue, while a reader reads, during each burst and in the pause after it, when
	 * the tasks offered are exactly those submitted: no read sees more submits than were
	 * offered, nor fewer than ended, were refused or abandoned, nor fewer than the read
	 * before; once all is done the count is exact.
	 */
	@ParameterizedTest
	@ValueSource(booleans = { false, true })
	void noReadSeesMoreThanWasSubmittedNorLessThanItsOutcomes(boolean endsByPool) throws InterruptedException {
		long seed = System.nanoTime();
		PoolRecorder recorder = PoolRecorder.builder().cpuSampleEvery(0).build();
		BlockingQueue<Integer> queue = new ArrayBlockingQueue<>(64);
		recorder.countArrivalsByOutcome(queue::size);
		// As a ThreadPoolExecutor counts the tasks its threads ran, after their outcome.
		AtomicLong ran = new AtomicLong();
		AtomicLong completed = new AtomicLong();
		if (endsByPool) {
			recorder.countEndsByPool(ran::get);
		}
		AtomicLong offered = new AtomicLong();
		AtomicBoolean producing = new AtomicBoolean(true);
		List<Thread> threads = new ArrayList<>();
		for (int w = 0; w < 2; w++) {
			threads.add(recorder.newThread(() -> {
				while (producing.get() || !queue.isEmpty()) {
					Integer task = pollUninterruptibly(queue);
					if (task == null) {
						continue;
					}
					recorder.taskStarted();
					if (task == 0) {
						recorder.taskRefusedAfterStart(RejectionReason.QUEUE_WAIT);
					}
					else {
						if (task != 1) {
							completed.incrementAndGet();
						}
						end(recorder, endsByPool, task == 1);
					}
					ran.incrementAndGet();
				}
			}, "arrivals-" + w));
		}
		threads.add(new Thread(() -> {
			while (producing.get()) {
				if (queue.poll() != null) {
					recorder.tasksAbandoned(1);
				}
				Thread.onSpinWait();
			}
		}));
		threads.forEach(Thread::start);
		int producers = 2;
		long lastSubmitted = 0;
		long lastCompleted = 0;
		for (int burst = 0; burst < 200; burst++) {
			List<Thread> bursts = new ArrayList<>();
			for (int p = 0; p < producers; p++) {
				Random random = new Random(seed + burst * producers + p);
				bursts.add(new Thread(() -> {
					for (int task = 0; task < 100; task++) {
						offered.incrementAndGet();
						if (random.nextInt(7) == 0 || !queue.offer(random.nextInt(10))) {
							recorder.taskRejected(RejectionReason.QUEUE_FULL);
						}
					}
				}));
			}
			bursts.forEach(Thread::start);
			for (int read = 0; read < 200; read++) {
				// Most reads fall in the pause after the burst, while the workers drain
				// the queue: then the tasks offered are exactly those submitted.
				TaskCounts counts = recorder.taskCounts();
				long offeredAfter = offered.get();
				long completedAfter = completed.get();
				String described = "seed " + seed + ", burst " + burst + ", read " + read;
				assertThat(counts.submitted()).as(described).isLessThanOrEqualTo(offeredAfter);
				assertThat(counts.completed() + counts.failed() + counts.rejected() + counts.abandoned()).as(described)
					.isLessThanOrEqualTo(counts.submitted());
				assertThat(counts.submitted()).as(described).isGreaterThanOrEqualTo(lastSubmitted);
				assertThat(counts.completed()).as(described).isBetween(lastCompleted, completedAfter);
				lastSubmitted = counts.submitted();
				lastCompleted = counts.completed();
			}
			for (Thread thread : bursts) {
				thread.join();
			}
		}
		producing.set(false);
		for (Thread thread : threads) {
			thread.join();
		}
		TaskCounts counts = recorder.taskCounts();
		assertThat(counts.submitted()).as("seed %d", seed).isEqualTo(offered.get());
		assertThat(counts.completed()).as("seed %d", seed).isEqualTo(completed.get());
		assertThat(counts.submitted()).as("seed %d", seed)
			.isEqualTo(counts.completed() + counts.failed() + counts.rejected() + counts.abandoned());
	}

	/**
	 * Count a task's end as its pool does: each end, or only its failure when the pool
	 * counts the tasks its threads ran.
	 */
	private static void end(PoolRecorder recorder, boolean endsByPool, boolean failed) {
		if (!endsByPool) {
			recorder.untimedTaskFinished(failed);
		}
		else if (failed) {
			recorder.untimedTaskFailed();
		}
	}

	private static Integer pollUninterruptibly(BlockingQueue<Integer> queue) {
		try {
			return queue.poll(1, TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
