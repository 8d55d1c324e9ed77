package io.github.poolpilot.execution;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import io.github.poolpilot.measure.RejectionReason;
import io.github.poolpilot.measure.PoolSnapshot.TaskCounts;
import io.github.poolpilot.testsupport.Blocking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.poolpilot.guard.QueueWaitLimit;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRejectedException;

/**
 * Tests that a {@link VirtualManagedExecutor} accounts for every task exactly, so that
 * {@code submitted == completed + failed + rejected + abandoned} once it is idle, while
 * many producers submit, its limit changes under them, a guard refuses work, and it is
 * stopped at once in the middle of it all. The counts are compared with what the
 * producers themselves saw.
 *
 * @author poolpilot authors
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class VirtualManagedExecutorConservationTests {

	private static final int PRODUCERS = 6;

	private static final int TASKS_PER_PRODUCER = 5_000;

	private final Ledger ledger = new Ledger();

	/**
	 * Producers and the resizer get threads of their own: on Java 21+ with 2 CPUs,
	 * {@code CompletableFuture.runAsync} shares one common-pool thread among them all,
	 * which the resizer would keep.
	 */
	private final ExecutorService threads = Executors.newCachedThreadPool();

	@AfterEach
	void stopThreads() {
		this.threads.shutdownNow();
	}

	@Test
	void everySubmittedTaskIsCompletedFailedOrRejectedExactlyOnceWhileTheLimitChanges() throws Exception {
		VirtualManagedExecutor pool = ManagedExecutor.builder("stress", new PoolBounds(1, 8), 50)
			.sizes(2, 4)
			.threadFactory(quietVirtualThreads())
			.recorder(PoolRecorder.builder().timingSampleEvery(3).cpuSampleEvery(4).build())
			.buildVirtual();
		AtomicBoolean producing = new AtomicBoolean(true);
		CompletableFuture<Void> resizer = CompletableFuture.runAsync(() -> resizeRandomly(pool, producing),
				this.threads);
		runProducers(pool, TASKS_PER_PRODUCER, Integer.MAX_VALUE);
		producing.set(false);
		resizer.get(1, TimeUnit.MINUTES);
		pool.shutdown();
		assertThat(pool.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
		TaskCounts counts = pool.getPool().getRecorder().taskCounts();
		assertThat(counts.submitted()).isEqualTo((long) PRODUCERS * TASKS_PER_PRODUCER);
		this.ledger.assertAgreesWith(counts);
		assertThat(counts.submitted()).isEqualTo(counts.completed() + counts.failed() + counts.rejected());
		assertThat(counts.rejected()).as("the test should overload the pool").isPositive();
		assertThat(counts.abandoned()).isZero();
		assertThat(this.ledger.mostRunning.get()).as("never more than max-threads at once").isBetween(1, 8);
		assertThat(pool.getPoolSize()).isZero();
	}

	@Test
	void queuedTasksAtShutdownNowAreHandedBackAndCountedAbandonedAndNothingElseIsLost() throws Exception {
		VirtualManagedExecutor pool = ManagedExecutor.builder("stress", new PoolBounds(1, 8), 200)
			.sizes(2, 2)
			.threadFactory(quietVirtualThreads())
			.buildVirtual();
		List<CompletableFuture<Void>> producers = startProducers(pool, Integer.MAX_VALUE, 200);
		await().atMost(Duration.ofSeconds(30)).until(() -> pool.getCompletedTaskCount() >= 500);
		List<Runnable> handedBack = pool.shutdownNow();
		CompletableFuture.allOf(producers.toArray(CompletableFuture[]::new)).get(1, TimeUnit.MINUTES);
		assertThat(pool.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
		TaskCounts counts = pool.getPool().getRecorder().taskCounts();
		this.ledger.assertAgreesWith(counts);
		assertThat(counts.abandoned()).isEqualTo(handedBack.size());
		assertThat(handedBack).as("every task handed back is one a producer had submitted")
			.allMatch(this.ledger.accepted::contains);
		assertThat(counts.submitted())
			.isEqualTo(counts.completed() + counts.failed() + counts.rejected() + counts.abandoned());
		assertThat(counts.rejections().shutdown()).as("producers went on after the stop").isPositive();
		assertThat(pool.getPoolSize()).isZero();
	}

	@Test
	void withAMaxQueueWaitEveryRefusalReachesItsCallerAndIsCountedOnce() throws Exception {
		VirtualManagedExecutor pool = ManagedExecutor.builder("stress", new PoolBounds(1, 8), 500)
			.sizes(2, 2)
			.buildVirtual();
		pool.setGuard(new QueueWaitLimit(pool.getPool(), Duration.ofMillis(5)));
		AtomicBoolean producing = new AtomicBoolean(true);
		CompletableFuture<Void> sampler = CompletableFuture.runAsync(() -> {
			while (producing.get()) {
				pool.getPool().takeSnapshot();
				Blocking.sleep(Duration.ofMillis(50));
			}
		}, this.threads);
		CompletableFuture<Void> resizer = CompletableFuture.runAsync(() -> resizeRandomly(pool, producing),
				this.threads);
		List<CompletableFuture<Void>> producers = new ArrayList<>();
		for (int p = 0; p < PRODUCERS; p++) {
			long seed = p;
			producers.add(CompletableFuture.runAsync(() -> produceFutures(pool, seed, 1_000), this.threads));
		}
		CompletableFuture.allOf(producers.toArray(CompletableFuture[]::new)).get(2, TimeUnit.MINUTES);
		producing.set(false);
		resizer.get(1, TimeUnit.MINUTES);
		sampler.get(1, TimeUnit.MINUTES);
		pool.shutdown();
		assertThat(pool.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
		TaskCounts counts = pool.getPool().getRecorder().taskCounts();
		assertThat(counts.submitted()).isEqualTo(PRODUCERS * 1_000L);
		assertThat(counts.rejected())
			.isEqualTo(this.ledger.rejectedSeen.sum() + this.ledger.refusedAfterQueueing.sum());
		assertThat(counts.rejections().queueWait()).as("the guard should refuse some work").isPositive();
		assertThat(counts.completed()).isEqualTo(this.ledger.succeeded.sum());
		assertThat(counts.failed()).isEqualTo(this.ledger.threw.sum());
		assertThat(counts.submitted()).isEqualTo(counts.completed() + counts.failed() + counts.rejected());
	}

	private void runProducers(VirtualManagedExecutor pool, int tasks, int sleepEvery) throws Exception {
		List<CompletableFuture<Void>> producers = startProducers(pool, tasks, sleepEvery);
		CompletableFuture.allOf(producers.toArray(CompletableFuture[]::new)).get(2, TimeUnit.MINUTES);
	}

	private List<CompletableFuture<Void>> startProducers(VirtualManagedExecutor pool, int tasks, int sleepEvery) {
		List<CompletableFuture<Void>> producers = new ArrayList<>();
		for (int p = 0; p < PRODUCERS; p++) {
			long seed = p;
			producers.add(CompletableFuture.runAsync(() -> produce(pool, seed, tasks, sleepEvery), this.threads));
		}
		return producers;
	}

	/**
	 * Submit tasks until the given number, or until the pool refuses one because it shut
	 * down; a tenth of them fail. Half go through {@code submit}, half through
	 * {@code execute}.
	 */
	private void produce(VirtualManagedExecutor pool, long seed, int tasks, int sleepEvery) {
		SplittableRandom random = new SplittableRandom(seed);
		for (int i = 0; i < tasks; i++) {
			boolean fails = random.nextInt(10) == 0;
			int spins = random.nextInt(2_000);
			Runnable task = () -> {
				this.ledger.started(spins);
				if (fails) {
					this.ledger.threw.increment();
					throw new IllegalStateException("planned failure");
				}
			};
			this.ledger.submitted.increment();
			try {
				if (random.nextBoolean()) {
					this.ledger.accepted.add(pool.submit(task));
				}
				else {
					pool.execute(task);
					this.ledger.accepted.add(task);
				}
			}
			catch (PoolRejectedException ex) {
				this.ledger.rejectedSeen.increment();
				if (ex.getReason() == RejectionReason.SHUTDOWN) {
					return;
				}
			}
			if (i % sleepEvery == sleepEvery - 1) {
				Blocking.sleep(Duration.ofMillis(1));
			}
		}
	}

	/**
	 * Submit blocking tasks through {@code submit} and classify each by its future.
	 */
	private void produceFutures(VirtualManagedExecutor pool, long seed, int tasks) {
		SplittableRandom random = new SplittableRandom(seed);
		List<Future<?>> futures = new ArrayList<>();
		for (int i = 0; i < tasks; i++) {
			boolean fails = random.nextInt(10) == 0;
			try {
				futures.add(pool.submit(() -> {
					Blocking.sleep(Duration.ofMillis(1));
					if (fails) {
						throw new IllegalStateException("planned failure");
					}
				}));
			}
			catch (PoolRejectedException ex) {
				this.ledger.rejectedSeen.increment();
			}
		}
		for (Future<?> future : futures) {
			try {
				future.get(1, TimeUnit.MINUTES);
				this.ledger.succeeded.increment();
			}
			catch (ExecutionException ex) {
				if (ex.getCause() instanceof PoolRejectedException) {
					this.ledger.refusedAfterQueueing.increment();
				}
				else {
					this.ledger.threw.increment();
				}
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}
	}

	private static void resizeRandomly(VirtualManagedExecutor pool, AtomicBoolean producing) {
		SplittableRandom random = new SplittableRandom(42);
		while (producing.get()) {
			int max = 1 + random.nextInt(8);
			pool.getPool().resize(1 + random.nextInt(max), max);
			// Leave the two CPUs to the virtual threads' carriers now and then.
			LockSupport.parkNanos(100_000);
		}
	}

	private static ThreadFactory quietVirtualThreads() {
		ThreadFactory virtual = VirtualThreads.factory("stress-");
		return (task) -> {
			Thread thread = virtual.newThread(task);
			thread.setUncaughtExceptionHandler((t, ex) -> {
			});
			return thread;
		};
	}

	/**
	 * What the producers and the tasks saw.
	 */
	private static final class Ledger {

		/**
		 * What each accepted submission handed over: the task given to {@code execute},
		 * the future {@code submit} returned.
		 */
		final Set<Object> accepted = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));

		final LongAdder submitted = new LongAdder();

		final LongAdder ran = new LongAdder();

		final LongAdder threw = new LongAdder();

		final LongAdder succeeded = new LongAdder();

		final LongAdder rejectedSeen = new LongAdder();

		final LongAdder refusedAfterQueueing = new LongAdder();

		final AtomicInteger running = new AtomicInteger();

		final AtomicInteger mostRunning = new AtomicInteger();

		void started(int spins) {
			this.ran.increment();
			this.mostRunning.accumulateAndGet(this.running.incrementAndGet(), Math::max);
			try {
				spin(spins);
			}
			finally {
				this.running.decrementAndGet();
			}
		}

		void assertAgreesWith(TaskCounts counts) {
			assertThat(counts.submitted()).isEqualTo(this.submitted.sum());
			assertThat(counts.rejected()).isEqualTo(this.rejectedSeen.sum());
			assertThat(counts.failed()).isEqualTo(this.threw.sum());
			assertThat(counts.completed()).isEqualTo(this.ran.sum() - this.threw.sum());
		}

		private static long spin(int iterations) {
			long value = 0;
			for (int i = 0; i < iterations; i++) {
				value += i * 31L;
			}
			return value;
		}

	}

}
