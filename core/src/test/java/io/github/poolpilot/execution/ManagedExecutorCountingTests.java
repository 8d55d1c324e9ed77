package io.github.poolpilot.execution;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.poolpilot.measure.PoolSnapshot.TaskCounts;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.testsupport.Blocking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that a {@link ManagedExecutor} counts a task once, as what became of it, when the
 * task's way through the pool meets another thread's action or a hook's failure at an
 * awkward moment; each moment is reached through latches, not timing.
 *
 * @author poolpilot authors
 */
class ManagedExecutorCountingTests {

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

	/**
	 * The queue's wrapper of a task is a {@code Future} that can be cancelled while the
	 * task waits. Taken from the queue before a thread took the task and cancelled once
	 * the task runs, it is too late: the task is counted once, as completed, and not also
	 * as abandoned.
	 */
	@Test
	void aTaskCancelledThroughTheQueueOnceItRunsIsCountedOnceAsCompleted() {
		ManagedExecutor pool = pool();
		pool.execute(this::awaitRelease);
		await().atMost(Duration.ofSeconds(10)).until(() -> pool.getActiveCount() == 1);
		CountDownLatch running = new CountDownLatch(1);
		CountDownLatch finish = new CountDownLatch(1);
		pool.execute(() -> {
			running.countDown();
			Blocking.await(finish);
		});
		Runnable queued = pool.getQueue().peek();
		assertThat(queued).isInstanceOf(Future.class);
		this.release.countDown();
		Blocking.await(running);
		assertThat(((Future<?>) queued).cancel(false)).isFalse();
		assertThat(((Future<?>) queued).isCancelled()).isFalse();
		finish.countDown();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> pool.getCompletedTaskCount() == 2 && pool.getActiveCount() == 0);
		assertThat(pool.getPool().getRecorder().taskCounts()).isEqualTo(new TaskCounts(2, 2, 0, 0, 0));
	}

	/**
	 * A subclass's {@code beforeExecute} that throws, after counting the start in this
	 * pool's or before: {@code ThreadPoolExecutor} then neither runs the task nor calls
	 * {@code afterExecute}, and the worker thread ends with the exception. The task did
	 * not complete: it is counted as failed, as a task that threw is.
	 */
	@ParameterizedTest
	@ValueSource(booleans = { true, false })
	void aTaskWhoseBeforeExecuteThrowsIsCountedAsFailedNotCompleted(boolean startCounted) {
		AtomicBoolean ran = new AtomicBoolean();
		Runnable refused = () -> ran.set(true);
		ManagedExecutor.Builder builder = ManagedExecutor.builder("test", new PoolBounds(1, 1), 10)
			.sizes(1, 1)
			.threadFactory(ManagedExecutorCountingTests::quietThread);
		ManagedExecutor pool = track(new ManagedExecutor(builder) {

			@Override
			protected void beforeExecute(Thread thread, Runnable task) {
				if (startCounted) {
					super.beforeExecute(thread, task);
				}
				if (submittedTask(task) == refused) {
					throw new IllegalStateException("hook failed");
				}
				if (!startCounted) {
					super.beforeExecute(thread, task);
				}
			}

		});
		pool.execute(refused);
		CountDownLatch next = new CountDownLatch(1);
		pool.execute(next::countDown);
		Blocking.await(next);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(pool.getPool().getRecorder().taskCounts())
				.isEqualTo(new TaskCounts(2, 1, 1, 0, 0)));
		assertThat(ran).isFalse();
	}

	private ManagedExecutor pool() {
		return track(ManagedExecutor.builder("test", new PoolBounds(1, 1), 10).sizes(1, 1).build());
	}

	private ManagedExecutor track(ManagedExecutor pool) {
		this.pools.add(pool);
		return pool;
	}

	/**
	 * A thread whose end by a hook's exception keeps the test's output clean.
	 */
	private static Thread quietThread(Runnable task) {
		Thread thread = new Thread(task);
		thread.setUncaughtExceptionHandler((t, ex) -> {
		});
		return thread;
	}

	private void awaitRelease() {
		Blocking.await(this.release);
	}

}
