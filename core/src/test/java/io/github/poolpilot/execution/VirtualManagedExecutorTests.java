package io.github.poolpilot.execution;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import io.github.poolpilot.measure.RejectionReason;
import io.github.poolpilot.measure.PoolSnapshot.LittlesLaw;
import io.github.poolpilot.measure.PoolSnapshot.Rejections;
import io.github.poolpilot.measure.PoolSnapshot.TaskCounts;
import io.github.poolpilot.testsupport.Blocking;
import io.github.poolpilot.testsupport.VirtualThreadsSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

import io.github.poolpilot.guard.QueueWaitLimit;
import io.github.poolpilot.guard.TaskGuard;
import io.github.poolpilot.guard.TaskTimeouts;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.pool.InvalidPoolSizeException;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRejectedException;
import io.github.poolpilot.testsupport.FakeClock;

/**
 * Tests for {@link VirtualManagedExecutor}: one virtual thread per task, at most the
 * limit at once, with the bounded queue, rejections, resizing, guards and shutdown of any
 * managed pool.
 *
 * @author poolpilot authors
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class VirtualManagedExecutorTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final List<VirtualManagedExecutor> pools = new ArrayList<>();

	private final CountDownLatch release = new CountDownLatch(1);

	@AfterEach
	void shutDown() throws InterruptedException {
		this.release.countDown();
		for (VirtualManagedExecutor pool : this.pools) {
			pool.shutdownNow();
			assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
		}
	}

	@Test
	void theBuilderMakesAVirtualPool() {
		assertThat(pool(1, 10)).isInstanceOf(VirtualManagedExecutor.class);
	}

	@Test
	void eachTaskRunsOnAVirtualThreadOfItsOwnNamedAfterThePool() throws Exception {
		VirtualManagedExecutor pool = pool(2, 50);
		Set<Thread> threads = ConcurrentHashMap.newKeySet();
		List<Future<Thread>> futures = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			futures.add(pool.submit(() -> {
				threads.add(Thread.currentThread());
				return Thread.currentThread();
			}));
		}
		for (Future<Thread> future : futures) {
			Thread thread = future.get(10, TimeUnit.SECONDS);
			assertThat(VirtualThreadsSupport.isVirtual(thread)).isTrue();
			// One name for all, the pool's: a number would cost a string per task.
			assertThat(thread.getName()).isEqualTo("test");
		}
		assertThat(threads).hasSize(20);
	}

	@Test
	void aThreadFactoryGivenNumbersTheThreadsWhenAsked() throws Exception {
		VirtualManagedExecutor pool = track(
				virtual("test", 2, 50).threadFactory(VirtualThreads.factory("test-")).buildVirtual());
		Set<String> names = ConcurrentHashMap.newKeySet();
		List<Future<?>> futures = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			futures.add(pool.submit(() -> names.add(Thread.currentThread().getName())));
		}
		for (Future<?> future : futures) {
			future.get(10, TimeUnit.SECONDS);
		}
		assertThat(names).hasSize(5).allMatch((name) -> name.matches("test-\\d+"));
	}

	@Test
	void theLimitIsNeverExceededUnderLoad() {
		VirtualManagedExecutor pool = pool(4, 1000);
		AtomicInteger running = new AtomicInteger();
		AtomicInteger mostRunning = new AtomicInteger();
		for (int i = 0; i < 300; i++) {
			pool.execute(() -> {
				mostRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
				Blocking.sleep(Duration.ofMillis(2));
				running.decrementAndGet();
			});
		}
		await().atMost(Duration.ofSeconds(30)).until(() -> pool.getCompletedTaskCount() == 300);
		assertThat(mostRunning.get()).isBetween(2, 4);
		assertThat(pool.getLargestPoolSize()).isBetween(2, 4);
		assertThat(pool.getPool().getRecorder().taskCounts()).isEqualTo(new TaskCounts(300, 300, 0, 0, 0));
	}

	@Test
	void sizesReadAsPermitsInUseAndQueuedTasks() {
		VirtualManagedExecutor pool = pool(4, 10);
		for (int i = 0; i < 7; i++) {
			pool.execute(this::awaitRelease);
		}
		await().atMost(WAIT).until(() -> pool.getActiveCount() == 4);
		PoolSnapshot.Sizes sizes = pool.getPool().sizes();
		assertThat(sizes.maxPoolSize()).isEqualTo(4);
		assertThat(sizes.poolSize()).isEqualTo(4);
		assertThat(sizes.activeCount()).isEqualTo(4);
		assertThat(sizes.queueSize()).isEqualTo(3);
		assertThat(sizes.queueCapacity()).isEqualTo(10);
		this.release.countDown();
		await().atMost(WAIT).until(() -> pool.getCompletedTaskCount() == 7 && pool.getPoolSize() == 0);
		assertThat(pool.getActiveCount()).isZero();
		assertThat(pool.getTaskCount()).isEqualTo(7);
	}

	@Test
	void growingTheLimitStartsQueuedTasksAndShrinkingItLetsRunningTasksFinish() {
		VirtualManagedExecutor pool = pool(2, 10);
		AtomicInteger running = new AtomicInteger();
		AtomicInteger runningWhenTheLastStarted = new AtomicInteger();
		for (int i = 0; i < 4; i++) {
			pool.execute(() -> {
				running.incrementAndGet();
				awaitRelease();
				running.decrementAndGet();
			});
		}
		pool.execute(() -> runningWhenTheLastStarted.set(running.incrementAndGet()));
		await().atMost(WAIT).until(() -> pool.getActiveCount() == 2);
		assertThat(pool.getQueue()).hasSize(3);
		pool.getPool().resize(1, 4);
		await().atMost(WAIT).until(() -> running.get() == 4);
		assertThat(pool.getQueue()).hasSize(1);
		pool.getPool().resize(1, 1);
		assertThat(pool.getMaximumPoolSize()).isEqualTo(1);
		assertThat(pool.getCorePoolSize()).isEqualTo(1);
		// Nothing is interrupted: the four run on, and the fifth waits for all of them.
		assertThat(pool.getActiveCount()).isEqualTo(4);
		assertThat(pool.getQueue()).hasSize(1);
		this.release.countDown();
		await().atMost(WAIT).until(() -> pool.getCompletedTaskCount() == 5);
		assertThat(runningWhenTheLastStarted.get()).isEqualTo(1);
		assertThat(pool.getLargestPoolSize()).isEqualTo(4);
	}

	@Test
	void aGrownLimitStartsEveryQueuedTaskEvenWhenEachNewThreadTakesItsTaskAtOnce() {
		AtomicReference<VirtualManagedExecutor> created = new AtomicReference<>();
		VirtualManagedExecutor pool = track(
				virtual("test", 3, 10).threadFactory((task) -> new EagerThread(task, created::get)).buildVirtual());
		created.set(pool);
		for (int i = 0; i < 5; i++) {
			pool.execute(this::awaitRelease);
		}
		await().atMost(WAIT).until(() -> pool.getActiveCount() == 3);
		assertThat(pool.getQueue()).hasSize(2);
		pool.getPool().resize(1, 5);
		await().atMost(WAIT).until(() -> pool.getActiveCount() == 5);
		assertThat(pool.getQueue()).isEmpty();
	}

	@Test
	void resizingChecksTheBoundsAndKeepsCoreAtMostMax() {
		VirtualManagedExecutor pool = pool(4, 10);
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> pool.getPool().resize(4, 17))
			.withMessage("maxPoolSize 17 of pool 'test' is above its max-threads 16 (allowed: 1 to 16)");
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> pool.getPool().resize(5, 3))
			.withMessage("corePoolSize 5 of pool 'test' must not be greater than maxPoolSize 3 (allowed: 1 to 3)");
		pool.getPool().resize(8, 12);
		assertThat(pool.getCorePoolSize()).isEqualTo(8);
		assertThat(pool.getMaximumPoolSize()).isEqualTo(12);
		pool.getPool().resize(2, 2);
		assertThat(pool.getCorePoolSize()).isEqualTo(2);
		assertThat(pool.getMaximumPoolSize()).isEqualTo(2);
	}

	@Test
	void aFullQueueRejectsWithThePoolNameReasonAndRetryAfterAndShutdownRejectsToo() {
		VirtualManagedExecutor pool = pool(1, 1);
		pool.execute(this::awaitRelease);
		pool.execute(this::awaitRelease);
		await().atMost(WAIT).until(() -> pool.getActiveCount() == 1);
		assertThatExceptionOfType(PoolRejectedException.class).isThrownBy(() -> pool.execute(this::awaitRelease))
			.satisfies((ex) -> {
				assertThat(ex.getPool()).isEqualTo("test");
				assertThat(ex.getReason()).isEqualTo(RejectionReason.QUEUE_FULL);
				assertThat(ex.getRetryAfter()).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
			});
		pool.shutdown();
		assertThatExceptionOfType(PoolRejectedException.class).isThrownBy(() -> pool.execute(() -> {
		})).satisfies((ex) -> assertThat(ex.getReason()).isEqualTo(RejectionReason.SHUTDOWN));
		assertThat(pool.getPool().getRecorder().taskCounts().rejections()).isEqualTo(new Rejections(1, 0, 0, 1));
	}

	@Test
	void retryAfterIsTheTimeTheMeasuredThroughputNeedsToDrainTheQueue() {
		FakeClock clock = new FakeClock();
		VirtualManagedExecutor pool = track(
				virtual("test", 1, 10).recorder(PoolRecorder.builder().clock(clock).build()).buildVirtual());
		pool.execute(() -> {
		});
		await().atMost(WAIT).until(() -> pool.getCompletedTaskCount() == 1);
		clock.advance(Duration.ofMillis(500));
		assertThat(pool.getPool().takeSnapshot().littlesLaw().throughput()).isEqualTo(2.0);
		pool.execute(this::awaitRelease);
		await().atMost(WAIT).until(() -> pool.getActiveCount() == 1);
		for (int i = 0; i < 10; i++) {
			pool.execute(this::awaitRelease);
		}
		assertThatExceptionOfType(PoolRejectedException.class).isThrownBy(() -> pool.execute(this::awaitRelease))
			.satisfies((ex) -> assertThat(ex.getRetryAfter()).isEqualTo(Duration.ofSeconds(5)));
	}

	@Test
	void failuresAreCountedAndEveryPermitComesBack() throws Exception {
		VirtualManagedExecutor pool = track(virtual("test", 2, 10).threadFactory(quiet()).buildVirtual());
		pool.execute(() -> {
			throw new IllegalStateException("boom");
		});
		Future<Object> future = pool.submit(() -> {
			throw new Exception("boom");
		});
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(future::get).withMessageContaining("boom");
		assertThat(pool.submitCompletable(() -> "fine").get(10, TimeUnit.SECONDS)).isEqualTo("fine");
		await().atMost(WAIT)
			.untilAsserted(() -> assertThat(pool.getPool().getRecorder().taskCounts())
				.isEqualTo(new TaskCounts(3, 1, 2, 0, 0)));
		await().atMost(WAIT).until(() -> pool.getPoolSize() == 0);
	}

	@Test
	void aTaskDecoratorRunsOnTheSubmittingThreadEvenForQueuedTasks() throws Exception {
		ThreadLocal<String> context = new ThreadLocal<>();
		VirtualManagedExecutor pool = track(virtual("test", 1, 10).taskDecorator((task) -> {
			String captured = context.get();
			return () -> {
				context.set(captured);
				try {
					task.run();
				}
				finally {
					context.remove();
				}
			};
		}).buildVirtual());
		pool.execute(this::awaitRelease);
		context.set("caller");
		Future<String> queued = pool.submit(context::get);
		context.remove();
		assertThat(pool.getQueue()).hasSize(1);
		this.release.countDown();
		assertThat(queued.get(10, TimeUnit.SECONDS)).isEqualTo("caller");
	}

	@Test
	void figuresAgreeWithAKnownBlockingWorkload() {
		// A limit of 4, 50 ms blocking tasks: X = 4 / 0.05 s = 80/s and X·S = 4 busy.
		VirtualManagedExecutor pool = pool(4, 400);
		pool.getPool().takeSnapshot();
		for (int i = 0; i < 200; i++) {
			pool.execute(() -> Blocking.sleep(Duration.ofMillis(50)));
		}
		await().atMost(Duration.ofSeconds(30)).until(() -> pool.getCompletedTaskCount() >= 80);
		PoolSnapshot snapshot = pool.getPool().takeSnapshot();
		LittlesLaw law = snapshot.littlesLaw();
		assertThat(law.throughput()).isBetween(40.0, 82.0);
		assertThat(law.meanServiceTimeMs()).isBetween(49.0, 250.0);
		assertThat(law.busyThreads()).isBetween(3.0, 4.1);
		assertThat(law.meanQueueWaitMs()).isPositive();
		assertThat(law.estimatedConcurrency()).isGreaterThan(law.busyThreads());
		assertThat(snapshot.sizes().poolSize()).isEqualTo(4);
	}

	@Test
	void shutdownRunsTheQueuedTasksThenTerminatesAndClosesTheGuard() throws Exception {
		AtomicBoolean closed = new AtomicBoolean();
		VirtualManagedExecutor pool = pool(1, 5);
		pool.setGuard(new TaskGuard() {

			@Override
			public void close() {
				closed.set(true);
			}

		});
		AtomicInteger ran = new AtomicInteger();
		pool.execute(this::awaitRelease);
		for (int i = 0; i < 3; i++) {
			pool.execute(ran::incrementAndGet);
		}
		pool.shutdown();
		assertThat(pool.isShutdown()).isTrue();
		assertThat(pool.isTerminating()).isTrue();
		assertThat(pool.awaitTermination(50, TimeUnit.MILLISECONDS)).isFalse();
		assertThat(closed).isFalse();
		this.release.countDown();
		assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
		assertThat(pool.isTerminated()).isTrue();
		assertThat(pool.isTerminating()).isFalse();
		assertThat(ran.get()).isEqualTo(3);
		assertThat(closed).isTrue();
		assertThat(pool.getPool().getRecorder().taskCounts()).isEqualTo(new TaskCounts(4, 4, 0, 0, 0));
	}

	@Test
	void anIdlePoolTerminatesAtOnceOnShutdown() throws Exception {
		VirtualManagedExecutor pool = pool(2, 5);
		pool.shutdown();
		assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void shutdownNowHandsBackQueuedTasksAsSubmittedInterruptsRunningOnesAndCountsThemAbandoned() {
		VirtualManagedExecutor pool = pool(1, 5);
		AtomicBoolean interrupted = new AtomicBoolean();
		pool.execute(() -> {
			awaitRelease();
			interrupted.set(Thread.currentThread().isInterrupted());
		});
		await().atMost(WAIT).until(() -> pool.getActiveCount() == 1);
		Runnable queued = () -> {
		};
		pool.execute(queued);
		pool.execute(queued);
		assertThat(pool.shutdownNow()).containsExactly(queued, queued);
		await().atMost(WAIT).until(pool::isTerminated);
		assertThat(interrupted).isTrue();
		TaskCounts counts = pool.getPool().getRecorder().taskCounts();
		assertThat(counts).isEqualTo(new TaskCounts(3, 1, 0, 0, 2));
	}

	@Test
	void guardsSeeEveryTaskOnTheSamePathAsOnPlatformThreads() throws Exception {
		VirtualManagedExecutor pool = pool(1, 1);
		RecordingGuard guard = new RecordingGuard();
		pool.setGuard(guard);
		guard.refuseNextSubmit = true;
		assertThatExceptionOfType(PoolRejectedException.class).isThrownBy(() -> pool.execute(() -> {
		})).satisfies((ex) -> assertThat(ex.getReason()).isEqualTo(RejectionReason.CIRCUIT_OPEN));
		pool.execute(this::awaitRelease);
		await().atMost(WAIT).until(() -> pool.getActiveCount() == 1);
		Future<?> refusedAtStart = pool.submit(() -> {
		});
		// The queue is full: refused, and the guard told it will not run.
		assertThatExceptionOfType(PoolRejectedException.class).isThrownBy(() -> pool.execute(() -> {
		}));
		guard.refuseNextStart = true;
		this.release.countDown();
		await().atMost(WAIT).until(refusedAtStart::isDone);
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(refusedAtStart::get)
			.withCauseInstanceOf(PoolRejectedException.class);
		await().atMost(WAIT)
			.untilAsserted(() -> assertThat(pool.getPool().getRecorder().taskCounts())
				.isEqualTo(new TaskCounts(4, 1, 0, 3, 0, new Rejections(1, 1, 1, 0), 0)));
		assertThat(guard.admitted.get()).isEqualTo(3);
		assertThat(guard.ended.get() + guard.notRun.get()).isEqualTo(guard.admitted.get());
	}

	@Test
	void aMaxQueueWaitRefusesWorkExpectedToWaitTooLongFromTheLimitAndServiceTime() {
		FakeClock clock = new FakeClock();
		VirtualManagedExecutor pool = track(
				virtual("test", 1, 10).recorder(PoolRecorder.builder().clock(clock).build()).buildVirtual());
		pool.execute(() -> clock.advanceMillis(100));
		await().atMost(WAIT).until(() -> pool.getCompletedTaskCount() == 1);
		pool.getPool().takeSnapshot();
		pool.setGuard(new QueueWaitLimit(pool.getPool(), Duration.ofMillis(250)));
		pool.execute(this::awaitRelease);
		await().atMost(WAIT).until(() -> pool.getActiveCount() == 1);
		// One permit, 100 ms a task: 10 a second leave the queue, so the third queued
		// task would wait 300 ms.
		pool.execute(() -> {
		});
		pool.execute(() -> {
		});
		assertThatExceptionOfType(PoolRejectedException.class).isThrownBy(() -> pool.execute(() -> {
		})).satisfies((ex) -> assertThat(ex.getReason()).isEqualTo(RejectionReason.QUEUE_WAIT));
		// With two permits, both held, the queue drains twice as fast: 20 a second, so
		// five tasks may wait where two did, and the sixth would wait 300 ms.
		pool.getPool().resize(1, 2);
		pool.execute(this::awaitRelease);
		await().atMost(WAIT).until(() -> pool.getCompletedTaskCount() == 3 && pool.getActiveCount() == 2);
		for (int i = 0; i < 5; i++) {
			pool.execute(() -> {
			});
		}
		assertThatExceptionOfType(PoolRejectedException.class).isThrownBy(() -> pool.execute(() -> {
		})).satisfies((ex) -> assertThat(ex.getReason()).isEqualTo(RejectionReason.QUEUE_WAIT));
		assertThat(pool.getQueue()).hasSize(5);
		assertThat(pool.getPool().getRecorder().taskCounts().rejections()).isEqualTo(new Rejections(0, 2, 0, 0));
	}

	@Test
	void aTaskRunningPastItsTimeoutIsInterruptedOnItsVirtualThreadAndCounted() throws Exception {
		VirtualManagedExecutor pool = pool(1, 10);
		pool.setGuard(new TaskTimeouts(pool.getPool(), Duration.ofMillis(100)));
		Future<?> slow = pool.submit(() -> {
			new CountDownLatch(1).await();
			return null;
		});
		await().atMost(WAIT).until(slow::isDone);
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(slow::get)
			.withCauseInstanceOf(InterruptedException.class);
		await().atMost(WAIT)
			.untilAsserted(() -> assertThat(pool.getPool().getRecorder().taskCounts().timedOut()).isEqualTo(1));
		assertThat(pool.submit(() -> Thread.currentThread().isInterrupted()).get(10, TimeUnit.SECONDS)).isFalse();
	}

	@Test
	void aTaskRemovedAfterShutdownNeverRunsAndIsCountedAsAbandoned() throws InterruptedException {
		VirtualManagedExecutor pool = pool(1, 10);
		pool.execute(this::awaitRelease);
		await().atMost(WAIT).until(() -> pool.getActiveCount() == 1);
		AtomicReference<Thread> ran = new AtomicReference<>();
		Runnable removed = () -> ran.set(Thread.currentThread());
		pool.execute(removed);
		pool.shutdown();
		assertThat(pool.asThreadPoolExecutor().remove(removed)).isTrue();
		this.release.countDown();
		assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
		assertThat(ran.get()).isNull();
		assertThat(pool.getPool().getRecorder().taskCounts()).isEqualTo(new TaskCounts(2, 1, 0, 0, 1));
	}

	@Test
	void aTaskWhoseThreadCannotBeStartedWaitsInTheQueueUntilOneCan() throws Exception {
		AtomicBoolean noThreads = new AtomicBoolean(true);
		ThreadFactory virtual = VirtualThreads.factory("test-");
		VirtualManagedExecutor pool = track(
				virtual("test", 2, 10).threadFactory((task) -> noThreads.get() ? null : virtual.newThread(task))
					.buildVirtual());
		CountDownLatch ran = new CountDownLatch(1);
		pool.execute(ran::countDown);
		Future<String> future = pool.submit(() -> "ran");
		assertThat(pool.getQueue()).hasSize(2);
		assertThat(pool.getActiveCount()).isZero();
		assertThat(future.isDone()).isFalse();
		assertThat(pool.getPool().getRecorder().taskCounts()).isEqualTo(new TaskCounts(2, 0, 0, 0, 0));
		noThreads.set(false);
		pool.execute(() -> {
		});
		assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(future.get(10, TimeUnit.SECONDS)).isEqualTo("ran");
		await().atMost(WAIT)
			.untilAsserted(() -> assertThat(pool.getPool().getRecorder().taskCounts())
				.isEqualTo(new TaskCounts(3, 3, 0, 0, 0)));
		assertThat(pool.getPoolSize()).isZero();
	}

	@Test
	void aTaskWhoseThreadFactoryFailsWaitsInTheQueueUntilALargerLimitCanStartOne() throws Exception {
		AtomicBoolean failing = new AtomicBoolean(true);
		ThreadFactory virtual = VirtualThreads.factory("test-");
		VirtualManagedExecutor pool = track(virtual("test", 1, 2).threadFactory((task) -> {
			if (failing.get()) {
				throw new IllegalStateException("no threads today");
			}
			return virtual.newThread(task);
		}).buildVirtual());
		CountDownLatch ran = new CountDownLatch(2);
		pool.execute(ran::countDown);
		pool.execute(ran::countDown);
		assertThat(pool.getQueue()).hasSize(2);
		assertThat(pool.getActiveCount()).isZero();
		// Its caller hears of it only when the queue fills.
		assertThatExceptionOfType(PoolRejectedException.class).isThrownBy(() -> pool.execute(() -> {
		})).satisfies((ex) -> assertThat(ex.getReason()).isEqualTo(RejectionReason.QUEUE_FULL));
		failing.set(false);
		pool.getPool().resize(1, 2);
		assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
		await().atMost(WAIT)
			.untilAsserted(() -> assertThat(pool.getPool().getRecorder().taskCounts())
				.isEqualTo(new TaskCounts(3, 2, 0, 1, 0)));
	}

	@Test
	void aThreadFactoryReturningNullIsLoggedOnce() {
		List<LogRecord> records = new CopyOnWriteArrayList<>();
		Handler handler = new Handler() {

			@Override
			public void publish(LogRecord record) {
				records.add(record);
			}

			@Override
			public void flush() {
			}

			@Override
			public void close() {
			}

		};
		Logger logger = Logger.getLogger(VirtualManagedExecutor.class.getName());
		logger.addHandler(handler);
		try {
			VirtualManagedExecutor pool = track(
					virtual("null-threads", 2, 10).threadFactory((task) -> null).buildVirtual());
			pool.execute(() -> {
			});
			pool.execute(() -> {
			});
			assertThat(pool.getQueue()).hasSize(2);
			assertThat(records).filteredOn((record) -> record.getMessage().contains("'null-threads'"))
				.singleElement()
				.satisfies((record) -> assertThat(record.getMessage()).contains("returned null"));
		}
		finally {
			logger.removeHandler(handler);
		}
	}

	@Test
	void shutdownNowHandsBackATaskWhoseThreadCouldNeverStart() throws InterruptedException {
		VirtualManagedExecutor pool = track(virtual("test", 2, 10).threadFactory((task) -> null).buildVirtual());
		Runnable task = () -> {
		};
		pool.execute(task);
		assertThat(pool.getQueue()).hasSize(1);
		pool.shutdown();
		assertThat(pool.awaitTermination(10, TimeUnit.MILLISECONDS)).isFalse();
		assertThat(pool.shutdownNow()).containsExactly(task);
		assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
		assertThat(pool.getPool().getRecorder().taskCounts()).isEqualTo(new TaskCounts(1, 0, 0, 0, 1));
	}

	@Test
	void theUsersRejectionPolicyIsKept() {
		VirtualManagedExecutor pool = pool(1, 1);
		AtomicReference<Runnable> seen = new AtomicReference<>();
		pool.setRejectedExecutionHandler((task, executor) -> seen.set(task));
		pool.execute(this::awaitRelease);
		pool.execute(this::awaitRelease);
		Runnable third = () -> {
		};
		pool.execute(third);
		assertThat(seen.get()).isSameAs(third);
		assertThat(pool.getPool().getRecorder().taskCounts().rejected()).isEqualTo(1);
	}

	@Test
	void noPlatformWorkerIsEverStarted() {
		VirtualManagedExecutor pool = pool(2, 10);
		assertThat(pool.asThreadPoolExecutor().prestartAllCoreThreads()).isZero();
		assertThat(pool.asThreadPoolExecutor().prestartCoreThread()).isFalse();
		pool.execute(this::awaitRelease);
		pool.execute(this::awaitRelease);
		pool.execute(this::awaitRelease);
		await().atMost(WAIT).until(() -> pool.getActiveCount() == 2);
		assertThat(pool.threads()).allMatch(VirtualThreadsSupport::isVirtual).hasSize(2);
		assertThat(pool.toString()).contains("test", "Running", "limit = 2", "permits in use = 2", "queued tasks = 1");
	}

	private VirtualManagedExecutor pool(int limit, int queueCapacity) {
		return track(virtual("test", limit, queueCapacity).buildVirtual());
	}

	private static ManagedExecutorBuilder virtual(String name, int limit, int queueCapacity) {
		return ManagedExecutor.builder(name, new PoolBounds(1, 16), queueCapacity).sizes(Math.min(limit, 1), limit);
	}

	/**
	 * Virtual threads that keep a task's uncaught exception out of the test's output.
	 */
	private static ThreadFactory quiet() {
		ThreadFactory virtual = VirtualThreads.factory("test-");
		return (task) -> {
			Thread thread = virtual.newThread(task);
			thread.setUncaughtExceptionHandler((t, ex) -> {
			});
			return thread;
		};
	}

	private VirtualManagedExecutor track(VirtualManagedExecutor pool) {
		this.pools.add(pool);
		return pool;
	}

	private void awaitRelease() {
		Blocking.await(this.release);
	}

	/**
	 * A thread whose {@code start()} returns only once it took a task from the pool's
	 * queue, the order in which a busy machine may run a new thread and the call that
	 * started it.
	 */
	private static final class EagerThread extends Thread {

		private final Supplier<VirtualManagedExecutor> pool;

		EagerThread(Runnable task, Supplier<VirtualManagedExecutor> pool) {
			super(task, "eager");
			setDaemon(true);
			this.pool = pool;
		}

		@Override
		public synchronized void start() {
			BlockingQueue<Runnable> queue = this.pool.get().getQueue();
			int queued = queue.size();
			super.start();
			if (queued > 0) {
				await().atMost(WAIT).until(() -> queue.size() < queued);
			}
		}

	}

	/**
	 * Refuses when told to and counts what it saw.
	 */
	private static final class RecordingGuard implements TaskGuard {

		volatile boolean refuseNextSubmit;

		volatile boolean refuseNextStart;

		final AtomicInteger admitted = new AtomicInteger();

		final AtomicInteger ended = new AtomicInteger();

		final AtomicInteger notRun = new AtomicInteger();

		@Override
		public void beforeSubmit() {
			if (this.refuseNextSubmit) {
				this.refuseNextSubmit = false;
				throw new PoolRejectedException("test", RejectionReason.CIRCUIT_OPEN, Duration.ofSeconds(1));
			}
			this.admitted.incrementAndGet();
		}

		@Override
		public void beforeRun(long queueWaitNanos, boolean refusable) {
			if (this.refuseNextStart && refusable) {
				this.refuseNextStart = false;
				// The pool tells every guard, this one too, that the task will not run.
				throw new PoolRejectedException("test", RejectionReason.QUEUE_WAIT, Duration.ofSeconds(1));
			}
		}

		@Override
		public void afterRun(long serviceNanos, @Nullable Throwable failure) {
			this.ended.incrementAndGet();
		}

		@Override
		public void notRun() {
			this.notRun.incrementAndGet();
		}

	}

}
