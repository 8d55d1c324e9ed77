package io.github.poolpilot.execution;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.measure.PoolSnapshot.TaskCounts;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.pool.PoolBounds;

/**
 * Tests that a {@link ManagedExecutor} accounts for every task exactly while many
 * producers submit and its size changes under them.
 *
 * @author poolpilot authors
 */
class ManagedExecutorConservationTests {

	private static final int PRODUCERS = 6;

	private static final int TASKS_PER_PRODUCER = 5_000;

	/**
	 * Producers and the resizer get threads of their own: on Java 21+ with 2 CPUs,
	 * {@code CompletableFuture.runAsync} shares one common-pool thread among them all,
	 * which the resizer would keep until the producers end, so they never start.
	 */
	private final ExecutorService threads = Executors.newCachedThreadPool();

	@AfterEach
	void stopThreads() {
		this.threads.shutdownNow();
	}

	@Test
	void everySubmittedTaskIsCompletedFailedOrRejectedExactlyOnceWhileResizing() throws Exception {
		LongAdder uncaught = new LongAdder();
		ManagedExecutor pool = ManagedExecutor.builder("stress", new PoolBounds(1, 8), 50)
			.sizes(2, 4)
			.threadFactory(quietThreads(uncaught))
			.recorder(PoolRecorder.builder().timingSampleEvery(3).cpuSampleEvery(4).build())
			.build();
		LongAdder ran = new LongAdder();
		LongAdder threw = new LongAdder();
		LongAdder rejectedSeen = new LongAdder();
		AtomicBoolean producing = new AtomicBoolean(true);
		CompletableFuture<Void> resizer = CompletableFuture.runAsync(() -> resizeRandomly(pool, producing),
				this.threads);
		List<CompletableFuture<Void>> producers = new ArrayList<>();
		for (int p = 0; p < PRODUCERS; p++) {
			long seed = p;
			producers
				.add(CompletableFuture.runAsync(() -> produce(pool, seed, ran, threw, rejectedSeen), this.threads));
		}
		CompletableFuture.allOf(producers.toArray(CompletableFuture[]::new)).get(2, TimeUnit.MINUTES);
		producing.set(false);
		resizer.get(1, TimeUnit.MINUTES);
		pool.shutdown();
		assertThat(pool.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
		TaskCounts counts = pool.getPool().getRecorder().taskCounts();
		assertThat(counts.submitted()).isEqualTo((long) PRODUCERS * TASKS_PER_PRODUCER);
		assertThat(counts.rejected()).isEqualTo(rejectedSeen.sum());
		assertThat(counts.failed()).isEqualTo(threw.sum());
		assertThat(counts.completed()).isEqualTo(ran.sum() - threw.sum());
		assertThat(counts.submitted()).isEqualTo(counts.completed() + counts.failed() + counts.rejected());
		assertThat(counts.rejected()).as("the test should overload the pool").isPositive();
		assertThat(counts.abandoned()).isZero();
		// A task given to execute() that fails ends its worker thread with the failure.
		assertThat(uncaught.sum()).isPositive().isLessThanOrEqualTo(threw.sum());
	}

	/**
	 * Worker threads whose uncaught failures (the planned ones of tasks given to
	 * {@code execute}) are counted rather than printed.
	 */
	private static ThreadFactory quietThreads(LongAdder uncaught) {
		ThreadFactory threads = Executors.defaultThreadFactory();
		return (runnable) -> {
			Thread thread = threads.newThread(runnable);
			thread.setUncaughtExceptionHandler((t, ex) -> uncaught.increment());
			return thread;
		};
	}

	private void produce(ManagedExecutor pool, long seed, LongAdder ran, LongAdder threw, LongAdder rejectedSeen) {
		SplittableRandom random = new SplittableRandom(seed);
		List<Future<?>> futures = new ArrayList<>();
		for (int i = 0; i < TASKS_PER_PRODUCER; i++) {
			boolean fails = random.nextInt(10) == 0;
			int spins = random.nextInt(2_000);
			Runnable task = () -> {
				ran.increment();
				spin(spins);
				if (fails) {
					threw.increment();
					throw new IllegalStateException("planned failure");
				}
			};
			try {
				if (random.nextBoolean()) {
					futures.add(pool.submit(task));
				}
				else {
					pool.execute(task);
				}
			}
			catch (RejectedExecutionException ex) {
				rejectedSeen.increment();
			}
		}
	}

	private static void resizeRandomly(ManagedExecutor pool, AtomicBoolean producing) {
		SplittableRandom random = new SplittableRandom(42);
		while (producing.get()) {
			int max = 1 + random.nextInt(8);
			pool.getPool().resize(1 + random.nextInt(max), max);
			Thread.onSpinWait();
		}
	}

	private static long spin(int iterations) {
		long value = 0;
		for (int i = 0; i < iterations; i++) {
			value += i * 31L;
		}
		return value;
	}

}
