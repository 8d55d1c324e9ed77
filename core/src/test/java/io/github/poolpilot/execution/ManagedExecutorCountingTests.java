package io.github.poolpilot.execution;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.measure.PoolSnapshot.TaskCounts;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.testsupport.Blocking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that a {@link ManagedExecutor} counts a task once, as what became of it, when the
 * task's way through the pool meets another thread's action on it at an awkward moment;
 * each moment is reached through latches, not timing.
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

	@Test
	void aWrapperCancelledInTheQueueIsNotCountedAgainByShutdownNow() {
		CountDownLatch release = new CountDownLatch(1);
		ManagedExecutor pool = track(ManagedExecutor.builder("test", new PoolBounds(1, 1), 10)
			.sizes(1, 1)
			.taskDecorator((task) -> task)
			.build());
		pool.execute(() -> Blocking.await(release));
		await().atMost(Duration.ofSeconds(10)).until(() -> pool.getActiveCount() == 1);
		pool.execute(() -> {
		});
		Runnable queued = pool.getQueue().peek();
		assertThat(((Future<?>) queued).cancel(false)).isTrue();
		assertThat(pool.shutdownNow()).hasSize(1);
		release.countDown();
		await().atMost(Duration.ofSeconds(10)).until(pool::isTerminated);
		TaskCounts counts = pool.getPool().getRecorder().taskCounts();
		assertThat(counts.abandoned()).isOne();
		assertThat(counts.completed() + counts.failed()).isOne();
		assertThat(counts.submitted()).isEqualTo(2);
	}

	private ManagedExecutor pool() {
		return track(ManagedExecutor.builder("test", new PoolBounds(1, 1), 10).sizes(1, 1).build());
	}

	/**
	 * A subclass's {@code beforeExecute} that throws (after calling its super's, as it
	 * must): the task does not run and {@code afterExecute} is not called, as in
	 * {@code ThreadPoolExecutor}. It is counted once, as completed, a documented limit:
	 * {@code ThreadPoolExecutor} counts it among the tasks its threads ran, where the
	 * pool reads its completions, and tells nobody before that count.
	 */
	@Test
	void aTaskWhoseBeforeExecuteThrowsIsCountedOnceAsCompleted() {
		AtomicBoolean ran = new AtomicBoolean();
		Runnable refused = () -> ran.set(true);
		ManagedExecutorBuilder builder = ManagedExecutor.builder("test", new PoolBounds(1, 1), 10)
			.sizes(1, 1)
			.threadFactory((task) -> {
				Thread thread = new Thread(task);
				thread.setUncaughtExceptionHandler((t, ex) -> {
				});
				return thread;
			});
		List<Runnable> afterExecuted = new CopyOnWriteArrayList<>();
		ManagedExecutor pool = track(new ManagedExecutor(builder) {

			@Override
			protected void beforeExecute(Thread thread, Runnable task) {
				super.beforeExecute(thread, task);
				if (ManagedExecutor.submittedTask(task) == refused) {
					throw new IllegalStateException("hook failed");
				}
			}

			@Override
			protected void afterExecute(Runnable task, @Nullable Throwable thrown) {
				super.afterExecute(task, thrown);
				afterExecuted.add(ManagedExecutor.submittedTask(task));
			}

		});
		pool.execute(refused);
		CountDownLatch next = new CountDownLatch(1);
		Runnable counting = next::countDown;
		pool.execute(counting);
		Blocking.await(next);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(pool.getPool().getRecorder().taskCounts())
				.isEqualTo(new TaskCounts(2, 2, 0, 0, 0)));
		assertThat(ran).isFalse();
		await().atMost(Duration.ofSeconds(10)).until(() -> afterExecuted.size() == 1);
		assertThat(afterExecuted).containsExactly(counting);
	}

	private ManagedExecutor track(ManagedExecutor pool) {
		this.pools.add(pool);
		return pool;
	}

	private void awaitRelease() {
		Blocking.await(this.release);
	}

}
