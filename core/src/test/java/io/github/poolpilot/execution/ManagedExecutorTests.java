package io.github.poolpilot.execution;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.poolpilot.measure.RejectionReason;
import io.github.poolpilot.measure.PoolSnapshot.LittlesLaw;
import io.github.poolpilot.measure.PoolSnapshot.TaskCounts;
import io.github.poolpilot.testsupport.Blocking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import io.github.poolpilot.guard.TaskGuard;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.pool.InvalidPoolSizeException;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRejectedException;
import io.github.poolpilot.testsupport.FakeClock;

/**
 * Tests for {@link ManagedExecutor} on real threads.
 *
 * @author poolpilot authors
 */
class ManagedExecutorTests {

	private final List<ManagedExecutor> pools = new ArrayList<>();

	private final CountDownLatch release = new CountDownLatch(1);

	@AfterEach
	void shutDown() throws InterruptedException {
		this.release.countDown();
		for (ManagedExecutor pool : this.pools) {
			pool.shutdownNow();
			assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
		}
	}

	@Test
	void figuresAgreeWithAKnownBlockingWorkload() {
		// 4 threads, 50 ms blocking tasks: X = 4 / 0.05 s = 80/s and X·S = 4 busy
		// threads. Every task's CPU time is read, so that W/C is known whatever the
		// random draws that sample it by default.
		ManagedExecutor pool = track(ManagedExecutor.builder("test", new PoolBounds(1, 16), 400)
			.sizes(4, 4)
			.recorder(PoolRecorder.builder().cpuSampleEvery(1).build())
			.build());
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
		assertThat(law.deadTimeRatio()).isBetween(0.0, 1.0);
		assertThat(law.estimatedConcurrency()).isGreaterThan(law.busyThreads());
		// Sleeping tasks barely use the CPU: W/C is large and Goetz asks for many
		// threads.
		assertThat(law.waitComputeRatio()).isGreaterThan(10.0);
		assertThat(law.recommendedThreads()).isGreaterThan(20);
		assertThat(snapshot.sizes().poolSize()).isEqualTo(4);
		assertThat(snapshot.sizes().queueCapacity()).isEqualTo(400);
	}

	@Test
	void aCompletableTaskCompletesItsFutureAndIsCountedByHowItEnded() throws Exception {
		ManagedExecutor pool = pool(1, 1, 10);
		assertThat(pool.submitCompletable(() -> "done").get(10, TimeUnit.SECONDS)).isEqualTo("done");
		CompletableFuture<String> failing = pool.submitCompletable(() -> {
			throw new IllegalStateException("downstream down");
		});
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> failing.get(10, TimeUnit.SECONDS))
			.withCauseInstanceOf(IllegalStateException.class);
		// CompletableFuture.supplyAsync's own task would be counted as completed.
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(pool.getPool().getRecorder().taskCounts())
				.isEqualTo(new TaskCounts(2, 1, 1, 0, 0)));
	}

	@ParameterizedTest
	@ValueSource(ints = { 1, 1_000_000 })
	void aRemovedOrPurgedTaskIsCountedAsAbandoned(int timingSampleEvery) {
		ManagedExecutor pool = track(ManagedExecutor.builder("test", new PoolBounds(1, 1), 10)
			.recorder(PoolRecorder.builder().timingSampleEvery(timingSampleEvery).build())
			.build());
		pool.execute(this::awaitRelease);
		await().atMost(Duration.ofSeconds(10)).until(() -> pool.getActiveCount() == 1);
		Runnable removed = () -> {
		};
		pool.execute(removed);
		Future<?> cancelled = pool.submit(() -> {
		});
		pool.execute(() -> {
		});
		assertThat(pool.remove(removed)).isTrue();
		assertThat(pool.remove(removed)).isFalse();
		cancelled.cancel(false);
		pool.purge();
		assertThat(pool.getQueue()).hasSize(1);
		this.release.countDown();
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(pool.getPool().getRecorder().taskCounts())
				.isEqualTo(new TaskCounts(4, 2, 0, 0, 2)));
	}

	/**
	 * A queued timed task's wrapper is a {@code Future}: cancelling it from the queue
	 * counts the task as abandoned, once, and a thread that takes it later neither runs
	 * it nor counts it again, as submitted or as completed.
	 */
	@Test
	void aQueuedTaskCancelledThroughTheQueueIsCountedOnceAsAbandoned() {
		ManagedExecutor pool = pool(1, 1, 10);
		pool.execute(this::awaitRelease);
		await().atMost(Duration.ofSeconds(10)).until(() -> pool.getActiveCount() == 1);
		AtomicReference<Thread> ran = new AtomicReference<>();
		pool.execute(() -> ran.set(Thread.currentThread()));
		Runnable queued = pool.getQueue().peek();
		assertThat(queued).isInstanceOf(Future.class);
		assertThat(((Future<?>) queued).cancel(false)).isTrue();
		this.release.countDown();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> pool.getCompletedTaskCount() == 2 && pool.getActiveCount() == 0);
		assertThat(ran.get()).isNull();
		assertThat(pool.getPool().getRecorder().taskCounts()).isEqualTo(new TaskCounts(2, 1, 0, 0, 1));
	}

	@Test
	void aTaskRemovedAfterShutdownNeverRunsAndIsCountedAsAbandoned() throws InterruptedException {
		ManagedExecutor pool = pool(1, 1, 10);
		pool.execute(this::awaitRelease);
		await().atMost(Duration.ofSeconds(10)).until(() -> pool.getActiveCount() == 1);
		AtomicReference<Thread> ran = new AtomicReference<>();
		Runnable removed = () -> ran.set(Thread.currentThread());
		pool.execute(removed);
		pool.shutdown();
		assertThat(pool.remove(removed)).isTrue();
		this.release.countDown();
		assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
		assertThat(ran.get()).isNull();
		assertThat(pool.getPool().getRecorder().taskCounts()).isEqualTo(new TaskCounts(2, 1, 0, 0, 1));
	}

	@Test
	void aFullPoolRejectsWithThePoolNameReasonAndRetryAfter() {
		ManagedExecutor pool = pool(1, 1, 1);
		pool.execute(this::awaitRelease);
		pool.execute(this::awaitRelease);
		await().atMost(Duration.ofSeconds(10)).until(() -> pool.getActiveCount() == 1);
		assertThatExceptionOfType(PoolRejectedException.class).isThrownBy(() -> pool.execute(this::awaitRelease))
			.satisfies((ex) -> {
				assertThat(ex.getPool()).isEqualTo("test");
				assertThat(ex.getReason()).isEqualTo(RejectionReason.QUEUE_FULL);
				assertThat(ex.getRetryAfter()).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
				assertThat(ex).hasMessageContaining("'test'").hasMessageContaining("queue full");
			});
		assertThat(pool.getPool().getRecorder().taskCounts().rejected()).isEqualTo(1);
		pool.shutdown();
		assertThatExceptionOfType(PoolRejectedException.class).isThrownBy(() -> pool.execute(() -> {
		})).satisfies((ex) -> assertThat(ex.getReason()).isEqualTo(RejectionReason.SHUTDOWN));
		assertThat(pool.getPool().getRecorder().taskCounts().rejected()).isEqualTo(2);
	}

	@Test
	void retryAfterIsTheTimeTheBusyPoolNeedsToDrainTheQueue() {
		FakeClock clock = new FakeClock();
		ManagedExecutor pool = track(ManagedExecutor.builder("test", new PoolBounds(1, 2), 10)
			.sizes(2, 2)
			.recorder(PoolRecorder.builder().clock(clock).build())
			.build());
		// One task of 400 ms in a 2 s window: 0.5 per second measured, held down by what
		// was offered, while 2 busy threads of 400 ms drain 5 per second.
		pool.execute(() -> clock.advanceMillis(400));
		await().atMost(Duration.ofSeconds(10)).until(() -> pool.getCompletedTaskCount() == 1);
		clock.advanceMillis(1600);
		assertThat(pool.getPool().takeSnapshot().littlesLaw().throughput()).isEqualTo(0.5);
		assertThat(pool.getPool().drainRate()).isEqualTo(5.0);
		pool.execute(this::awaitRelease);
		pool.execute(this::awaitRelease);
		await().atMost(Duration.ofSeconds(10)).until(() -> pool.getActiveCount() == 2);
		for (int i = 0; i < 10; i++) {
			pool.execute(this::awaitRelease);
		}
		// 10 queued at 5 per second drain in 2 s.
		assertThatExceptionOfType(PoolRejectedException.class).isThrownBy(() -> pool.execute(this::awaitRelease))
			.satisfies((ex) -> assertThat(ex.getRetryAfter()).isEqualTo(Duration.ofSeconds(2)));
	}

	@Test
	void theUsersRejectionPolicyIsKeptAndSeesTheTaskAsSubmitted() {
		ManagedExecutor pool = pool(1, 1, 1);
		AtomicReference<Runnable> seen = new AtomicReference<>();
		pool.setRejectedExecutionHandler((task, executor) -> seen.set(task));
		assertThat(pool.getRejectedExecutionHandler()).isNotInstanceOf(ThreadPoolExecutor.AbortPolicy.class);
		pool.execute(this::awaitRelease);
		pool.execute(this::awaitRelease);
		Runnable third = () -> {
		};
		pool.execute(third);
		assertThat(seen.get()).isSameAs(third);
		assertThat(pool.getPool().getRecorder().taskCounts().rejected()).isEqualTo(1);
	}

	@Test
	void callerRunsPolicyRunsTheTaskInTheCallerAndCountsItRejected() {
		ManagedExecutor pool = track(ManagedExecutor.builder("test", new PoolBounds(1, 1), 1)
			.rejectionPolicy(new ThreadPoolExecutor.CallerRunsPolicy())
			.build());
		pool.execute(this::awaitRelease);
		pool.execute(this::awaitRelease);
		AtomicReference<Thread> ranOn = new AtomicReference<>();
		pool.execute(() -> ranOn.set(Thread.currentThread()));
		assertThat(ranOn.get()).isSameAs(Thread.currentThread());
		this.release.countDown();
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(pool.getPool().getRecorder().taskCounts())
				.isEqualTo(new TaskCounts(3, 2, 0, 1, 0)));
	}

	@Test
	void aGuardsRefusalThrowsUnderCallerRunsPolicyTooAndTheTaskNeverRuns() {
		ManagedExecutor pool = track(ManagedExecutor.builder("test", new PoolBounds(1, 1), 1)
			.rejectionPolicy(new ThreadPoolExecutor.CallerRunsPolicy())
			.build());
		pool.setGuard(new TaskGuard() {

			@Override
			public void beforeSubmit() {
				throw new PoolRejectedException("test", RejectionReason.CIRCUIT_OPEN, Duration.ofSeconds(1));
			}

		});
		AtomicReference<Thread> ranOn = new AtomicReference<>();
		assertThatExceptionOfType(PoolRejectedException.class)
			.isThrownBy(() -> pool.execute(() -> ranOn.set(Thread.currentThread())))
			.satisfies((ex) -> assertThat(ex.getReason()).isEqualTo(RejectionReason.CIRCUIT_OPEN));
		assertThat(ranOn.get()).isNull();
		assertThat(pool.getPool().getRecorder().taskCounts().rejections())
			.isEqualTo(new PoolSnapshot.Rejections(0, 0, 1, 0));
	}

	@Test
	void failuresAreCountedWhetherThrownOrHeldInAFuture() throws InterruptedException {
		// A task that throws from execute() ends its worker thread, as in any
		// ThreadPoolExecutor; the handler keeps the test's output clean.
		ManagedExecutor pool = track(
				ManagedExecutor.builder("test", new PoolBounds(1, 16), 10).sizes(2, 2).threadFactory((task) -> {
					Thread thread = new Thread(task);
					thread.setUncaughtExceptionHandler((t, ex) -> {
					});
					return thread;
				}).build());
		pool.execute(() -> {
			throw new IllegalStateException("boom");
		});
		Future<Object> future = pool.submit(() -> {
			throw new Exception("boom");
		});
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(future::get).withMessageContaining("boom");
		pool.submit(() -> "fine");
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(pool.getPool().getRecorder().taskCounts())
				.isEqualTo(new TaskCounts(3, 1, 2, 0, 0)));
	}

	@Test
	void aTaskIsNotLostWhenItsGuardFailsOrRefusesATaskThatCannotBeRefused() throws Exception {
		ManagedExecutor pool = track(ManagedExecutor.builder("test", new PoolBounds(1, 16), 10).sizes(1, 1).build());
		List<String> told = new CopyOnWriteArrayList<>();
		pool.setGuard(new TaskGuard() {

			@Override
			public void beforeRun(long queueWaitNanos, boolean refusable) {
				if (refusable) {
					throw new IllegalStateException("guard broken");
				}
				throw new PoolRejectedException("test", RejectionReason.QUEUE_WAIT, Duration.ofSeconds(1));
			}

			@Override
			public void afterRun(long serviceNanos, Throwable failure) {
				told.add("afterRun");
			}

			@Override
			public void notRun() {
				told.add("notRun");
			}

		});
		// A future's task: the guard fails. A plain Runnable: refused, but its caller
		// cannot be told. Both run, and the guard hears of each exactly once.
		assertThat(pool.submit(() -> "ran").get(10, TimeUnit.SECONDS)).isEqualTo("ran");
		CountDownLatch ran = new CountDownLatch(1);
		pool.execute(ran::countDown);
		assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(pool.getPool().getRecorder().taskCounts())
				.isEqualTo(new TaskCounts(2, 2, 0, 0, 0)));
		assertThat(told).containsExactly("notRun", "notRun");
	}

	@Test
	void shutdownNowHandsBackQueuedTasksAsSubmittedAndCountsThemAbandoned() {
		ManagedExecutor pool = pool(1, 1, 5);
		pool.execute(this::awaitRelease);
		await().atMost(Duration.ofSeconds(10)).until(() -> pool.getActiveCount() == 1);
		Runnable queued = () -> {
		};
		pool.execute(queued);
		pool.execute(queued);
		assertThat(pool.shutdownNow()).containsExactly(queued, queued);
		await().atMost(Duration.ofSeconds(10)).until(pool::isTerminated);
		TaskCounts counts = pool.getPool().getRecorder().taskCounts();
		assertThat(counts.abandoned()).isEqualTo(2);
		assertThat(counts.submitted())
			.isEqualTo(counts.completed() + counts.failed() + counts.rejected() + counts.abandoned());
	}

	@Test
	void resizeGrowsMaximumFirstAndShrinksCoreFirst() {
		ManagedExecutor pool = pool(2, 2, 10);
		pool.getPool().resize(8, 10);
		assertThat(pool.getCorePoolSize()).isEqualTo(8);
		assertThat(pool.getMaximumPoolSize()).isEqualTo(10);
		pool.getPool().resize(1, 1);
		assertThat(pool.getCorePoolSize()).isEqualTo(1);
		assertThat(pool.getMaximumPoolSize()).isEqualTo(1);
		pool.getPool().resize(3, 5);
		assertThat(pool.getPool().sizes().corePoolSize()).isEqualTo(3);
		assertThat(pool.getPool().sizes().maxPoolSize()).isEqualTo(5);
	}

	@Test
	void resizeOutsideTheBoundsNamesTheFieldAndBoundAndChangesNothing() {
		ManagedExecutor pool = track(ManagedExecutor.builder("talk", new PoolBounds(2, 10), 10).sizes(4, 6).build());
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> pool.getPool().resize(1, 6))
			.withMessage("corePoolSize 1 of pool 'talk' is below its min-threads 2 (allowed: 2 to 10)")
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("corePoolSize"));
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> pool.getPool().resize(4, 11))
			.withMessage("maxPoolSize 11 of pool 'talk' is above its max-threads 10 (allowed: 2 to 10)")
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("maxPoolSize"));
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> pool.getPool().resize(8, 5))
			.withMessage("corePoolSize 8 of pool 'talk' must not be greater than maxPoolSize 5 (allowed: 2 to 5)");
		assertThat(pool.getCorePoolSize()).isEqualTo(4);
		assertThat(pool.getMaximumPoolSize()).isEqualTo(6);
	}

	@Test
	void buildingWithSizesOutsideTheBoundsFails() {
		assertThatExceptionOfType(InvalidPoolSizeException.class)
			.isThrownBy(() -> ManagedExecutor.builder("talk", new PoolBounds(2, 10), 10).sizes(2, 20).build())
			.withMessageContaining("maxPoolSize 20 of pool 'talk' is above its max-threads 10");
		assertThatIllegalArgumentException().isThrownBy(() -> ManagedExecutor.builder("talk", new PoolBounds(2, 10), 0))
			.withMessage("queue-capacity of pool 'talk' must be at least 1 but was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> new PoolBounds(5, 4))
			.withMessage("max-threads must be at least 1 and at least min-threads (5) but was 4");
	}

	@Test
	void aRefusedKeepAliveNamesThePoolAndWhatIsAllowedAndChangesNothing() {
		ManagedExecutor pool = track(
				ManagedExecutor.builder("talk", new PoolBounds(1, 4), 10).keepAlive(Duration.ofSeconds(30)).build());
		assertThatIllegalArgumentException().isThrownBy(() -> pool.setKeepAliveTime(-10, TimeUnit.SECONDS))
			.withMessage("keep-alive -10 s of pool 'talk' is negative (allowed: 0 or more)");
		pool.allowCoreThreadTimeOut(true);
		assertThatIllegalArgumentException().isThrownBy(() -> pool.setKeepAliveTime(0, TimeUnit.SECONDS))
			.withMessage("keep-alive 0 of pool 'talk' would end its core threads, which may time out, as soon as "
					+ "they are idle (allowed: more than 0, or core threads that do not time out)");
		assertThat(pool.getKeepAliveTime(TimeUnit.SECONDS)).isEqualTo(30);
		pool.allowCoreThreadTimeOut(false);
		pool.setKeepAliveTime(0, TimeUnit.SECONDS);
		assertThatIllegalArgumentException().isThrownBy(() -> pool.allowCoreThreadTimeOut(true))
			.withMessage("core threads of pool 'talk' cannot time out with a keep-alive of 0 (allowed: once its "
					+ "keep-alive is more than 0)");
		assertThat(pool.allowsCoreThreadTimeOut()).isFalse();
		assertThat(pool.getKeepAliveTime(TimeUnit.NANOSECONDS)).isZero();
	}

	@Test
	void buildingWithARefusedKeepAliveFailsNamingThePool() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ManagedExecutor.builder("talk", new PoolBounds(1, 4), 10)
				.keepAlive(Duration.ofMillis(-1500))
				.build())
			.withMessage("keep-alive -1500 ms of pool 'talk' is negative (allowed: 0 or more)");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ManagedExecutor.builder("talk", new PoolBounds(1, 4), 10)
				.keepAlive(Duration.ZERO)
				.allowCoreThreadTimeOut(true)
				.build())
			.withMessageStartingWith("keep-alive 0 of pool 'talk' would end its core threads");
	}

	@Test
	void threadsAreNamedAfterThePool() throws Exception {
		ManagedExecutor pool = pool(1, 1, 1);
		assertThat(pool.submit(() -> Thread.currentThread().getName()).get(10, TimeUnit.SECONDS)).isEqualTo("test-1");
	}

	private ManagedExecutor pool(int core, int max, int queueCapacity) {
		return track(ManagedExecutor.builder("test", new PoolBounds(1, 16), queueCapacity).sizes(core, max).build());
	}

	private ManagedExecutor track(ManagedExecutor pool) {
		this.pools.add(pool);
		return pool;
	}

	private void awaitRelease() {
		Blocking.await(this.release);
	}

}
