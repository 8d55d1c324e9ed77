package io.github.poolpilot.execution;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.guard.TaskGuard;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.measure.PoolSnapshot.Sizes;
import io.github.poolpilot.measure.PoolSnapshot.TaskCounts;
import io.github.poolpilot.measure.RejectionReason;
import io.github.poolpilot.pool.InvalidPoolSizeException;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRejectedException;
import io.github.poolpilot.testsupport.Blocking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link ExistingExecutor}: an application's own executor managed from outside,
 * its tasks entering through another executor (Spring's), as the Spring module's proxy
 * sends them.
 *
 * @author poolpilot authors
 */
class ExistingExecutorTests {

	private final ThreadPoolExecutor live = new ThreadPoolExecutor(1, 1, 0, TimeUnit.NANOSECONDS,
			new LinkedBlockingQueue<>());

	private final ExistingExecutor existing = new ExistingExecutor("talk", this.live, PoolRecorder.builder().build(),
			new PoolBounds(1, 4));

	/**
	 * The entry executor: runs each task at once on the caller's thread, and keeps what
	 * it was handed.
	 */
	private final List<Runnable> entered = new ArrayList<>();

	private final Executor entry = (task) -> {
		this.entered.add(task);
		task.run();
	};

	@AfterEach
	void shutDown() throws InterruptedException {
		this.live.shutdownNow();
		this.live.awaitTermination(10, TimeUnit.SECONDS);
	}

	@Test
	void aTaskThroughAnEntryExecutorIsCountedAndRunByIt() {
		List<String> ran = new ArrayList<>();
		this.existing.execute(this.entry, () -> ran.add(Thread.currentThread().getName()));
		assertThat(ran).containsExactly(Thread.currentThread().getName());
		assertThat(this.entered).hasSize(1);
		TaskCounts counts = this.existing.getPool().getRecorder().taskCounts();
		assertThat(counts.submitted()).isOne();
		assertThat(counts.completed()).isOne();
	}

	@Test
	void aCompletableSubmittedThroughAnEntryExecutorCompletesWithTheTasksResult() throws Exception {
		CompletableFuture<String> future = this.existing.submitCompletable(this.entry, () -> "done");
		assertThat(future).isCompletedWithValue("done");
		assertThat(this.existing.getPool().getRecorder().taskCounts().submitted()).isOne();
	}

	@Test
	void aCompletableWhoseTaskFailsCompletesWithItsFailure() {
		IllegalStateException failure = new IllegalStateException("no answer");
		CompletableFuture<String> future = this.existing.submitCompletable(this.entry, () -> {
			throw failure;
		});
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(future::get).withCause(failure);
	}

	@Test
	void aCompletableCancelledBeforeItRanNeverRuns() {
		List<String> ran = new ArrayList<>();
		List<Runnable> held = new ArrayList<>();
		CompletableFuture<String> future = this.existing.submitCompletable(held::add, () -> {
			ran.add("ran");
			return "done";
		});
		assertThat(future.cancel(false)).isTrue();
		held.forEach(Runnable::run);
		assertThat(ran).isEmpty();
		assertThat(future).isCancelled();
	}

	@Test
	void aCompletableItsGuardRefusesFailsWithTheRefusal() {
		PoolRejectedException refusal = new PoolRejectedException("talk", RejectionReason.CIRCUIT_OPEN,
				Duration.ofSeconds(5));
		this.existing.setGuard(new TaskGuard() {

			@Override
			public void beforeSubmit() {
				throw refusal;
			}

		});
		assertThatExceptionOfType(PoolRejectedException.class)
			.isThrownBy(() -> this.existing.submitCompletable(this.entry, () -> "done"))
			.isSameAs(refusal);
		assertThat(this.entered).isEmpty();
	}

	@Test
	void aSubmittedTaskItsGuardRefusesOnceQueuedFailsItsFutureAndNeverRuns() {
		PoolRejectedException refusal = new PoolRejectedException("talk", RejectionReason.QUEUE_WAIT,
				Duration.ofSeconds(1));
		this.existing.setGuard(new TaskGuard() {

			@Override
			public void beforeRun(long queueWaitNanos, boolean refusable) {
				if (refusable) {
					throw refusal;
				}
			}

		});
		List<String> ran = new ArrayList<>();
		Future<String> callable = this.existing.submit(this.entry, () -> {
			ran.add("callable");
			return "done";
		});
		Future<?> runnable = this.existing.submit(this.entry, () -> ran.add("runnable"));
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(callable::get).withCause(refusal);
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(runnable::get).withCause(refusal);
		assertThat(ran).isEmpty();
		TaskCounts counts = this.existing.getPool().getRecorder().taskCounts();
		assertThat(counts.submitted()).isEqualTo(2);
		assertThat(counts.rejected()).isEqualTo(2);
	}

	@Test
	void aSubmittedTaskCompletesItsFutureWithItsResult() throws Exception {
		Future<String> future = this.existing.submit(this.entry, () -> "done");
		assertThat(future.get()).isEqualTo("done");
		assertThat(this.existing.getPool().getRecorder().taskCounts().completed()).isOne();
	}

	@Test
	void theGuardIsTheOneSetAndIsClosedWithTheExecutor() {
		List<String> closed = new ArrayList<>();
		TaskGuard guard = new TaskGuard() {

			@Override
			public void close() {
				closed.add("closed");
			}

		};
		assertThat(this.existing.getGuard()).isNull();
		this.existing.setGuard(guard);
		assertThat(this.existing.getGuard()).isSameAs(guard);
		this.existing.close();
		assertThat(closed).containsExactly("closed");
		this.existing.setGuard(null);
		assertThat(this.existing.getGuard()).isNull();
		this.existing.close();
		assertThat(closed).hasSize(1);
	}

	@Test
	void anExecutorOutsideItsBoundsIsRefused() {
		ThreadPoolExecutor large = new ThreadPoolExecutor(5, 5, 0, TimeUnit.NANOSECONDS, new LinkedBlockingQueue<>());
		try {
			assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(
					() -> new ExistingExecutor("large", large, PoolRecorder.builder().build(), new PoolBounds(1, 4)))
				.withMessage("corePoolSize 5 of pool 'large' is above its max-threads 4 (allowed: 1 to 4)");
		}
		finally {
			large.shutdownNow();
		}
	}

	@Test
	void thePoolCountsItsRunningAndQueuedTasks() {
		CountDownLatch release = new CountDownLatch(1);
		try {
			ThreadPoolExecutor view = this.existing.asThreadPoolExecutor();
			view.execute(() -> Blocking.await(release));
			view.execute(() -> {
			});
			view.execute(() -> {
			});
			await().atMost(Duration.ofSeconds(10)).until(() -> this.live.getActiveCount() == 1);
			Sizes sizes = this.existing.getPool().sizes();
			assertThat(sizes.poolSize()).isOne();
			assertThat(sizes.activeCount()).isOne();
			assertThat(sizes.queueSize()).isEqualTo(2);
			assertThat(this.existing.getPool().rejectionReason()).isEqualTo(RejectionReason.QUEUE_FULL);
		}
		finally {
			release.countDown();
		}
	}

	@Test
	void queuedTasksRemovedPurgedOrHandedBackAtShutdownAreCountedAsAbandoned() throws Exception {
		CountDownLatch release = new CountDownLatch(1);
		ThreadPoolExecutor view = this.existing.asThreadPoolExecutor();
		view.execute(() -> Blocking.await(release));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.live.getActiveCount() == 1);
		Runnable removed = () -> {
		};
		view.execute(removed);
		assertThat(view.remove(removed)).isTrue();
		assertThat(abandoned()).isOne();
		Future<?> cancelled = view.submit(() -> {
		});
		cancelled.cancel(false);
		view.purge();
		assertThat(this.live.getQueue()).isEmpty();
		assertThat(abandoned()).isEqualTo(2);
		Runnable handedBack = () -> {
		};
		view.execute(handedBack);
		assertThat(view.shutdownNow()).containsExactly(handedBack);
		assertThat(abandoned()).isEqualTo(3);
		release.countDown();
	}

	@Test
	void theViewIsTheLiveExecutorsStateThreadsAndKeepAlive() throws InterruptedException {
		ThreadPoolExecutor view = this.existing.asThreadPoolExecutor();
		assertThat(view).hasToString(this.live.toString());
		ThreadFactory factory = (task) -> new Thread(task, "talk-thread");
		view.setThreadFactory(factory);
		assertThat(this.live.getThreadFactory()).isSameAs(factory);
		assertThat(view.getThreadFactory()).isSameAs(factory);
		view.setKeepAliveTime(3, TimeUnit.SECONDS);
		assertThat(this.live.getKeepAliveTime(TimeUnit.SECONDS)).isEqualTo(3);
		assertThat(view.isTerminated()).isFalse();
		view.shutdown();
		assertThat(view.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
		assertThat(view.isTerminated()).isTrue();
	}

	@Test
	void theViewRefusesAKeepAliveAsAManagedPoolDoesNamingThePool() {
		ThreadPoolExecutor view = this.existing.asThreadPoolExecutor();
		assertThatIllegalArgumentException().isThrownBy(() -> view.setKeepAliveTime(-10, TimeUnit.SECONDS))
			.withMessage("keep-alive -10 s of pool 'talk' is negative (allowed: 0 or more)");
		assertThatIllegalArgumentException().isThrownBy(() -> view.allowCoreThreadTimeOut(true))
			.withMessageStartingWith("core threads of pool 'talk' cannot time out with a keep-alive of 0");
		assertThat(this.live.getKeepAliveTime(TimeUnit.NANOSECONDS)).isZero();
		assertThat(this.live.allowsCoreThreadTimeOut()).isFalse();
		view.setKeepAliveTime(3, TimeUnit.SECONDS);
		view.allowCoreThreadTimeOut(true);
		assertThatIllegalArgumentException().isThrownBy(() -> view.setKeepAliveTime(0, TimeUnit.SECONDS))
			.withMessageStartingWith("keep-alive 0 of pool 'talk' would end its core threads");
		assertThat(this.live.getKeepAliveTime(TimeUnit.SECONDS)).isEqualTo(3);
		assertThat(this.live.allowsCoreThreadTimeOut()).isTrue();
	}

	private long abandoned() {
		return this.existing.getPool().getRecorder().taskCounts().abandoned();
	}

	@Test
	void thePoolReadsTheLiveExecutorsSizesAndQueue() {
		ThreadPoolExecutor bounded = new ThreadPoolExecutor(2, 3, 0, TimeUnit.NANOSECONDS, new ArrayBlockingQueue<>(7));
		try {
			ExistingExecutor managed = new ExistingExecutor("bounded", bounded, PoolRecorder.builder().build(),
					new PoolBounds(1, 4));
			assertThat(managed.getPool().sizes().corePoolSize()).isEqualTo(2);
			assertThat(managed.getPool().sizes().maxPoolSize()).isEqualTo(3);
			assertThat(managed.getPool().sizes().queueCapacity()).isEqualTo(7);
			assertThat(managed.getPool().sizes().queueSize()).isZero();
			assertThat(managed.getPool().sizes().poolSize()).isZero();
			assertThat(managed.getPool().sizes().activeCount()).isZero();
			bounded.shutdown();
			assertThat(managed.getPool().rejectionReason()).isEqualTo(RejectionReason.SHUTDOWN);
		}
		finally {
			bounded.shutdownNow();
		}
	}

}
