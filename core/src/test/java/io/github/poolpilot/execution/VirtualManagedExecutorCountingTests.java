package io.github.poolpilot.execution;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import io.github.poolpilot.guard.TaskGuard;
import io.github.poolpilot.measure.PoolSnapshot.TaskCounts;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.testsupport.Blocking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that a {@link VirtualManagedExecutor} counts a task once, as what became of it,
 * when a hook around it fails.
 *
 * @author poolpilot authors
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class VirtualManagedExecutorCountingTests {

	private final List<VirtualManagedExecutor> pools = new ArrayList<>();

	@AfterEach
	void shutDown() throws InterruptedException {
		for (VirtualManagedExecutor pool : this.pools) {
			pool.shutdownNow();
			assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
		}
	}

	/**
	 * A subclass's {@code beforeExecute} that throws: the task does not run and
	 * {@code afterExecute} is not called, as in {@code ThreadPoolExecutor}. The task did
	 * not complete, and is not lost either: it is counted as failed, as a task that threw
	 * is.
	 */
	@Test
	void aTaskWhoseBeforeExecuteThrowsIsCountedAsFailed() {
		AtomicBoolean ran = new AtomicBoolean();
		Runnable refused = () -> ran.set(true);
		ThreadFactory virtual = VirtualThreads.factory("test-");
		ManagedExecutorBuilder builder = ManagedExecutor.builder("test", new PoolBounds(1, 1), 10)
			.sizes(1, 1)
			.threadFactory((task) -> {
				Thread thread = virtual.newThread(task);
				thread.setUncaughtExceptionHandler((t, ex) -> {
				});
				return thread;
			});
		List<Runnable> afterExecuted = new CopyOnWriteArrayList<>();
		VirtualManagedExecutor pool = new VirtualManagedExecutor(builder) {

			@Override
			protected void beforeExecute(Thread thread, Runnable task) {
				if (task == refused) {
					throw new IllegalStateException("hook failed");
				}
			}

			@Override
			protected void afterExecute(Runnable task, @Nullable Throwable thrown) {
				afterExecuted.add(task);
			}

		};
		this.pools.add(pool);
		AtomicInteger notRun = new AtomicInteger();
		pool.setGuard(new TaskGuard() {

			@Override
			public void notRun() {
				notRun.incrementAndGet();
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
		// afterExecute ran for the next task only, and the guard heard the first did not
		// run.
		await().atMost(Duration.ofSeconds(10)).until(() -> afterExecuted.size() == 1);
		assertThat(afterExecuted).doesNotContain(refused);
		assertThat(notRun).hasValue(1);
	}

}
