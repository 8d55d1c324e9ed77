package io.github.poolpilot.execution;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.guard.TaskGuard;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.testsupport.Blocking;
import io.github.poolpilot.testsupport.FakeClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a managed executor hands its guard and its recorder: the queue wait and the
 * service time of each task, as the recorder's clock measured them, and every arrival,
 * decorated or not.
 *
 * @author poolpilot authors
 */
class GuardTimingTests {

	private final FakeClock clock = new FakeClock();

	private final CountDownLatch release = new CountDownLatch(1);

	private final List<Long> queueWaits = new CopyOnWriteArrayList<>();

	private final List<Long> serviceTimes = new CopyOnWriteArrayList<>();

	private ManagedExecutor executor = ManagedExecutor.builder("guarded", new PoolBounds(1, 1), 10)
		.recorder(PoolRecorder.builder().clock(this.clock).build())
		.build();

	@AfterEach
	void shutDown() throws InterruptedException {
		this.release.countDown();
		this.executor.shutdownNow();
		assertThat(this.executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void theGuardIsHandedEachTasksQueueWaitAndServiceTime() {
		this.executor.setGuard(new TaskGuard() {

			@Override
			public void beforeRun(long queueWaitNanos, boolean refusable) {
				GuardTimingTests.this.queueWaits.add(queueWaitNanos);
			}

			@Override
			public void afterRun(long serviceNanos, @Nullable Throwable failure) {
				GuardTimingTests.this.serviceTimes.add(serviceNanos);
			}

		});
		this.executor.execute(() -> Blocking.await(this.release));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.executor.getActiveCount() == 1);
		this.executor.execute(() -> this.clock.advanceMillis(50));
		this.clock.advanceMillis(300);
		this.release.countDown();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.serviceTimes.size() == 2);
		assertThat(this.queueWaits).containsExactly(0L, Duration.ofMillis(300).toNanos());
		assertThat(this.serviceTimes.get(1)).isEqualTo(Duration.ofMillis(50).toNanos());
	}

	@Test
	void tasksThroughATaskDecoratorAreCountedAsArrivals() throws InterruptedException {
		this.executor.shutdownNow();
		this.executor = ManagedExecutor.builder("decorated", new PoolBounds(1, 1), 10)
			.recorder(PoolRecorder.builder().clock(this.clock).timingSampleEvery(16).build())
			.taskDecorator((task) -> task::run)
			.build();
		for (int i = 0; i < 3; i++) {
			this.executor.execute(() -> {
			});
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> this.executor.getCompletedTaskCount() == 3);
		this.clock.advanceMillis(1000);
		PoolSnapshot snapshot = this.executor.getPool().takeSnapshot();
		assertThat(snapshot.windowArrivals()).isEqualTo(3);
		assertThat(snapshot.tasks().submitted()).isEqualTo(3);
		assertThat(snapshot.littlesLaw().arrivalRate()).isEqualTo(3);
	}

}
