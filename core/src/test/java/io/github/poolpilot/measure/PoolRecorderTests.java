package io.github.poolpilot.measure;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.measure.PoolSnapshot.LittlesLaw;
import io.github.poolpilot.measure.PoolSnapshot.Sizes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

import io.github.poolpilot.testsupport.FakeClock;

/**
 * Tests for {@link PoolRecorder}, driven by a {@link FakeClock} so that every figure is
 * known exactly, with tasks timed as an executor times them.
 *
 * @author poolpilot authors
 */
class PoolRecorderTests {

	private static final Sizes SIZES = new Sizes(4, 4, 4, 0, 0, 10, 1, 8);

	private final FakeClock clock = new FakeClock();

	private final FakeClock cpuClock = new FakeClock();

	@Test
	void snapshotDerivesRatesTimesAndLittlesLawFiguresFromTheWindow() {
		PoolRecorder recorder = recorder(1);
		// Four tasks: each queues 10 ms, then runs 40 ms of which 10 ms on the CPU.
		for (int i = 0; i < 4; i++) {
			Runnable task = submit(recorder, () -> {
				this.cpuClock.advanceMillis(10);
				this.clock.advanceMillis(40);
			});
			this.clock.advanceMillis(10);
			task.run();
		}
		submit(recorder, () -> {
		});
		recorder.taskRejected(RejectionReason.QUEUE_FULL);
		this.clock.advanceMillis(800);
		PoolSnapshot snapshot = recorder.snapshot("talk", SIZES);
		assertThat(snapshot.windowSeconds()).isEqualTo(1.0);
		assertThat(snapshot.windowArrivals()).isEqualTo(5);
		assertThat(snapshot.windowCompletions()).isEqualTo(4);
		assertThat(snapshot.tasks()).isEqualTo(new PoolSnapshot.TaskCounts(5, 4, 0, 1, 0));
		assertThat(snapshot.queueWait().meanMs()).isEqualTo(10.0);
		assertThat(snapshot.serviceTime().meanMs()).isEqualTo(40.0);
		assertThat(snapshot.responseTime().meanMs()).isEqualTo(50.0);
		LittlesLaw law = snapshot.littlesLaw();
		assertThat(law.arrivalRate()).isEqualTo(5.0);
		assertThat(law.throughput()).isEqualTo(4.0);
		assertThat(law.meanServiceTimeMs()).isEqualTo(40.0);
		assertThat(law.meanQueueWaitMs()).isEqualTo(10.0);
		assertThat(law.meanResponseTimeMs()).isEqualTo(50.0);
		assertThat(law.estimatedConcurrency()).isCloseTo(0.2, within(1e-12));
		assertThat(law.busyThreads()).isCloseTo(0.16, within(1e-12));
		assertThat(law.deadTimeRatio()).isCloseTo(0.2, within(1e-12));
		assertThat(law.concurrencyPerCpu()).isCloseTo(0.1, within(1e-12));
		assertThat(law.waitComputeRatio()).isEqualTo(3.0);
		// Goetz: 2 CPUs · 1.0 · (1 + 3) = 8.
		assertThat(law.recommendedThreads()).isEqualTo(8);
		assertThat(snapshot.sizes()).isEqualTo(SIZES);
	}

	@Test
	void sharedTotalsCountExactlyTheTasksOfManyShortLivedThreadsRunningAtOnce() throws InterruptedException {
		PoolRecorder recorder = PoolRecorder.builder().clock(this.clock).processors(2).build();
		recorder.shareTotalsAmongShortLivedThreads();
		List<Thread> threads = new ArrayList<>();
		for (int i = 0; i < 400; i++) {
			boolean fails = i % 4 == 0;
			Runnable task = submit(recorder, () -> {
				this.clock.advanceMillis(1);
				if (fails) {
					throw new IllegalStateException("planned failure");
				}
			});
			Runnable untimed = () -> recorder.untimedTaskFinished(false);
			Thread thread = new Thread(() -> {
				try {
					task.run();
				}
				catch (IllegalStateException ex) {
					// counted as failed
				}
				untimed.run();
			});
			thread.start();
			threads.add(thread);
		}
		for (Thread thread : threads) {
			thread.join();
		}
		PoolSnapshot snapshot = recorder.snapshot("talk", SIZES);
		// 400 timed tasks, a quarter failing, and 400 untimed ends (not submitted here).
		assertThat(snapshot.tasks().completed()).isEqualTo(300 + 400);
		assertThat(snapshot.tasks().failed()).isEqualTo(100);
		assertThat(snapshot.windowCompletions()).isEqualTo(800);
		assertThat(snapshot.serviceTime().meanMs()).isPositive();
		assertThat(recorder.snapshot("talk", SIZES).tasks().completed()).as("shared totals are never folded twice")
			.isEqualTo(700);
	}

	@Test
	void percentilesComeFromTheWindowsDistributionWithinOnePercent() {
		PoolRecorder recorder = recorder(1);
		for (int i = 1; i <= 100; i++) {
			long serviceMillis = i;
			Runnable task = submit(recorder, () -> this.clock.advanceMillis(serviceMillis));
			task.run();
		}
		PoolSnapshot snapshot = recorder.snapshot("talk", SIZES);
		assertThat(snapshot.serviceTime().meanMs()).isEqualTo(50.5);
		assertThat(snapshot.serviceTime().p50Ms()).isCloseTo(50, within(0.5));
		assertThat(snapshot.serviceTime().p90Ms()).isCloseTo(90, within(0.9));
		assertThat(snapshot.serviceTime().p99Ms()).isCloseTo(99, within(0.99));
		assertThat(snapshot.serviceTime().maxMs()).isCloseTo(100, within(1.0));
		assertThat(snapshot.littlesLaw().p99ResponseTimeMs()).isEqualTo(snapshot.responseTime().p99Ms());
	}

	@Test
	void eachSnapshotStartsANewWindowButKeepsTheLastKnownWaitComputeRatio() {
		PoolRecorder recorder = recorder(1);
		Runnable task = submit(recorder, () -> {
			this.cpuClock.advanceMillis(5);
			this.clock.advanceMillis(20);
		});
		task.run();
		this.clock.advanceMillis(980);
		recorder.snapshot("talk", SIZES);
		this.clock.advanceMillis(2000);
		PoolSnapshot idle = recorder.snapshot("talk", SIZES);
		assertThat(idle.windowSeconds()).isEqualTo(2.0);
		assertThat(idle.windowArrivals()).isZero();
		assertThat(idle.windowCompletions()).isZero();
		assertThat(idle.responseTime()).isEqualTo(PoolSnapshot.Latency.NONE);
		assertThat(idle.littlesLaw().throughput()).isZero();
		assertThat(idle.littlesLaw().deadTimeRatio()).isZero();
		assertThat(idle.littlesLaw().waitComputeRatio()).isEqualTo(3.0);
		assertThat(idle.tasks().completed()).isEqualTo(1);
	}

	@Test
	void waitComputeRatioIsUnknownWhenCpuSamplingIsOff() {
		PoolRecorder recorder = PoolRecorder.builder().clock(this.clock).cpuSampleEvery(0).processors(2).build();
		Runnable task = submit(recorder, () -> this.clock.advanceMillis(20));
		task.run();
		LittlesLaw law = recorder.snapshot("talk", SIZES).littlesLaw();
		assertThat(law.waitComputeRatio()).isNull();
		assertThat(law.recommendedThreads()).isNull();
	}

	@Test
	void goetzRecommendationHonoursTheTargetUtilization() {
		PoolRecorder recorder = PoolRecorder.builder()
			.clock(this.clock)
			.cpuClock(this.cpuClock)
			.cpuSampleEvery(1)
			.processors(2)
			.targetCpuUtilization(0.5)
			.build();
		Runnable task = submit(recorder, () -> {
			this.cpuClock.advanceMillis(2);
			this.clock.advanceMillis(1490);
		});
		task.run();
		LittlesLaw law = recorder.snapshot("talk", SIZES).littlesLaw();
		assertThat(law.waitComputeRatio()).isEqualTo(744.0);
		// 2 · 0.5 · (1 + 744) = 745.
		assertThat(law.recommendedThreads()).isEqualTo(745);
	}

	@Test
	void countsOfWorkerThreadsThatEndedAreKept() throws InterruptedException {
		PoolRecorder recorder = recorder(1);
		for (int i = 0; i < 3; i++) {
			Thread worker = new Thread(submit(recorder, () -> this.clock.advanceMillis(5)));
			worker.start();
			worker.join();
		}
		assertThat(recorder.taskCounts()).isEqualTo(new PoolSnapshot.TaskCounts(3, 3, 0, 0, 0));
		assertThat(recorder.taskCounts()).isEqualTo(new PoolSnapshot.TaskCounts(3, 3, 0, 0, 0));
		assertThat(recorder.snapshot("talk", SIZES).serviceTime().meanMs()).isEqualTo(5.0);
	}

	@Test
	void aPoolsOwnThreadsCountTheirTasksInThatPoolAloneAndKeepThemOnceEnded() throws InterruptedException {
		PoolRecorder pool = recorder(1);
		PoolRecorder other = recorder(1);
		for (int i = 0; i < 3; i++) {
			Runnable timed = submit(pool, () -> this.clock.advanceMillis(5));
			Runnable foreign = submit(other, () -> this.clock.advanceMillis(7));
			Thread worker = pool.newThread(() -> {
				timed.run();
				pool.untimedTaskFinished(false);
				pool.untimedTaskFinished(true);
				// A task of another pool run on this thread, as caller-runs would.
				foreign.run();
				other.untimedTaskFinished(true);
			}, "talk-" + i);
			assertThat(worker.getName()).isEqualTo("talk-" + i);
			worker.start();
			worker.join();
		}
		// Submitted counts only the timed tasks; each thread also ended two untimed ones.
		assertThat(pool.taskCounts()).isEqualTo(new PoolSnapshot.TaskCounts(3, 6, 3, 0, 0));
		assertThat(other.taskCounts()).isEqualTo(new PoolSnapshot.TaskCounts(3, 3, 3, 0, 0));
		assertThat(pool.snapshot("talk", SIZES).serviceTime().meanMs()).isEqualTo(5.0);
		assertThat(other.snapshot("other", SIZES).serviceTime().meanMs()).isEqualTo(7.0);
		assertThat(pool.taskCounts()).as("ended threads' totals are folded once")
			.isEqualTo(new PoolSnapshot.TaskCounts(3, 6, 3, 0, 0));
	}

	@Test
	void submitsOfThreadsThatEndedAreKeptAndFoldedOnce() throws InterruptedException {
		PoolRecorder recorder = recorder(0);
		long expected = 0;
		for (int i = 0; i < 6; i++) {
			int tasks = 10 + i;
			Runnable submits = () -> {
				for (int task = 0; task < tasks; task++) {
					recorder.taskSubmitted();
				}
			};
			// Plain threads count their submits through a ThreadLocal, the pool's own in
			// a field of theirs: both are kept once the thread ended.
			Thread producer = (i % 2 == 0) ? new Thread(submits) : recorder.newThread(submits, "talk-" + i);
			producer.start();
			producer.join();
			expected += tasks;
		}
		recorder.taskSubmitted();
		expected++;
		assertThat(recorder.taskCounts().submitted()).isEqualTo(expected);
		assertThat(recorder.taskCounts().submitted()).as("ended threads' submits are folded once").isEqualTo(expected);
		assertThat(recorder.snapshot("talk", SIZES).windowArrivals()).isEqualTo(expected);
		assertThat(recorder.snapshot("talk", SIZES).windowArrivals()).isZero();
	}

	/**
	 * Producers count submits in totals of their own and workers count ends in theirs,
	 * each with a plain add, while a reader reads them all: no read may see a task ended
	 * or refused that it does not see submitted, and none may see fewer submits than the
	 * one before.
	 */
	@Test
	void noReadSeesATaskEndedOrRefusedBeforeItWasSubmitted() throws InterruptedException {
		PoolRecorder recorder = recorder(0);
		int producers = 3;
		int tasksEach = 30_000;
		BlockingQueue<Boolean> queue = new ArrayBlockingQueue<>(64);
		List<Thread> threads = new ArrayList<>();
		for (int p = 0; p < producers; p++) {
			threads.add(new Thread(() -> {
				for (int task = 0; task < tasksEach; task++) {
					recorder.taskSubmitted();
					if (task % 7 == 0) {
						recorder.taskRejected(RejectionReason.QUEUE_FULL);
					}
					else {
						putUninterruptibly(queue, task % 5 == 0);
					}
				}
			}));
		}
		long toRun = producers * (long) (tasksEach - (tasksEach + 6) / 7);
		threads.add(recorder.newThread(() -> {
			for (long task = 0; task < toRun; task++) {
				recorder.untimedTaskFinished(takeUninterruptibly(queue));
			}
		}, "talk-1"));
		threads.forEach(Thread::start);
		long lastSubmitted = 0;
		long reads = 0;
		while (threads.stream().anyMatch(Thread::isAlive) || reads == 0) {
			PoolSnapshot.TaskCounts counts = recorder.taskCounts();
			assertThat(counts.completed() + counts.failed() + counts.rejected()).as("read %d", reads)
				.isLessThanOrEqualTo(counts.submitted());
			assertThat(counts.submitted()).isGreaterThanOrEqualTo(lastSubmitted);
			lastSubmitted = counts.submitted();
			reads++;
		}
		for (Thread thread : threads) {
			thread.join();
		}
		PoolSnapshot.TaskCounts counts = recorder.taskCounts();
		assertThat(counts.submitted()).isEqualTo(producers * (long) tasksEach);
		assertThat(counts.completed() + counts.failed()).isEqualTo(toRun);
		assertThat(counts.rejected()).isEqualTo(producers * (long) tasksEach - toRun);
	}

	private static void putUninterruptibly(BlockingQueue<Boolean> queue, boolean failed) {
		try {
			queue.put(failed);
		}
		catch (InterruptedException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static boolean takeUninterruptibly(BlockingQueue<Boolean> queue) {
		try {
			return queue.take();
		}
		catch (InterruptedException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Test
	void aFastPoolSamplesItsHistogramsButKeepsExactMeans() {
		PoolRecorder recorder = recorder(0);
		for (int i = 0; i < 5000; i++) {
			submit(recorder, () -> this.clock.advanceMillis(2)).run();
		}
		recorder.snapshot("talk", SIZES);
		for (int i = 0; i < 5000; i++) {
			submit(recorder, () -> this.clock.advanceMillis(4)).run();
		}
		PoolSnapshot snapshot = recorder.snapshot("talk", SIZES);
		assertThat(snapshot.windowCompletions()).isEqualTo(5000);
		assertThat(snapshot.serviceTime().meanMs()).isEqualTo(4.0);
		assertThat(snapshot.serviceTime().p99Ms()).isCloseTo(4.0, within(0.04));
	}

	@Test
	void invalidSettingsAreRefusedWithTheirAllowedRange() {
		assertThatIllegalArgumentException().isThrownBy(() -> PoolRecorder.builder().timingSampleEvery(0))
			.withMessage("timingSampleEvery must be at least 1 but was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> PoolRecorder.builder().cpuSampleEvery(-1))
			.withMessage("cpuSampleEvery must be 0 (off) or more but was -1");
		assertThatIllegalArgumentException().isThrownBy(() -> PoolRecorder.builder().targetCpuUtilization(1.5))
			.withMessage("targetCpuUtilization must be in (0, 1] but was 1.5");
		assertThatIllegalArgumentException().isThrownBy(() -> PoolRecorder.builder().processors(0))
			.withMessage("processors must be at least 1 but was 0");
	}

	/**
	 * Count a task as submitted and return it timed as an executor's wrapper times it:
	 * its submit time now, its start and end when it runs.
	 */
	private static Runnable submit(PoolRecorder recorder, Runnable task) {
		recorder.taskSubmitted();
		long submittedAt = recorder.now();
		return () -> {
			long cpuStart = recorder.cpuSampleStart();
			long startedAt = recorder.now();
			boolean failed = true;
			try {
				task.run();
				failed = false;
			}
			finally {
				recorder.timedTaskFinished(submittedAt, startedAt, cpuStart, failed);
			}
		};
	}

	private PoolRecorder recorder(int cpuSampleEvery) {
		return PoolRecorder.builder()
			.clock(this.clock)
			.cpuClock(this.cpuClock)
			.cpuSampleEvery(cpuSampleEvery)
			.processors(2)
			.build();
	}

}
