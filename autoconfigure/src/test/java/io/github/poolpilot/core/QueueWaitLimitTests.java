package io.github.poolpilot.core;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.core.PoolRejectedException.Reason;
import io.github.poolpilot.core.PoolSnapshot.Rejections;
import io.github.poolpilot.core.PoolSnapshot.TaskCounts;
import io.github.poolpilot.testsupport.Blocking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link QueueWaitLimit}: a one-thread pool whose tasks take 100 ms of a fake
 * clock drains 10 tasks a second, so with a 250 ms target the third queued task is
 * expected to wait too long.
 *
 * @author poolpilot authors
 */
class QueueWaitLimitTests {

	private final FakeClock clock = new FakeClock();

	private final CountDownLatch release = new CountDownLatch(1);

	private final ManagedExecutor pool = ManagedExecutor.builder("talk", new PoolBounds(1, 1), 10)
		.recorder(PoolRecorder.builder().clock(this.clock).build())
		.build();

	private final QueueWaitLimit limit = new QueueWaitLimit(this.pool.getPool(), Duration.ofMillis(250));

	@AfterEach
	void shutDown() throws InterruptedException {
		this.release.countDown();
		this.pool.shutdownNow();
		assertThat(this.pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void aTaskExpectedToWaitLongerThanTheTargetIsRefusedAtSubmit() {
		measureAServiceTimeOf100Ms();
		this.pool.getPool().setGuard(this.limit);
		occupyTheThread();
		this.pool.execute(() -> {
		});
		// One ahead: (1 + 1) / 10 per second = 200 ms.
		this.pool.execute(() -> {
		});
		// Two ahead: 300 ms.
		assertThatExceptionOfType(PoolRejectedException.class).isThrownBy(() -> this.pool.execute(() -> {
		})).satisfies((ex) -> {
			assertThat(ex.getReason()).isEqualTo(Reason.QUEUE_WAIT);
			assertThat(ex.getRetryAfter()).isEqualTo(Duration.ofSeconds(1));
			assertThat(ex).hasMessageContaining("expected queue wait over max-queue-wait");
		});
		assertThat(this.pool.getQueue()).hasSize(2);
		assertThat(this.pool.getPool().getRecorder().taskCounts().rejections()).isEqualTo(new Rejections(0, 1, 0, 0));
	}

	@Test
	void aTaskThatWaitedLongerThanTheTargetFailsItsFutureInsteadOfRunning() throws Exception {
		measureAServiceTimeOf100Ms();
		this.pool.getPool().setGuard(this.limit);
		occupyTheThread();
		AtomicBoolean ran = new AtomicBoolean();
		Future<?> late = this.pool.submit(() -> ran.set(true));
		AtomicBoolean plainRan = new AtomicBoolean();
		this.pool.execute(() -> plainRan.set(true));
		this.clock.advanceMillis(300);
		this.release.countDown();
		await().atMost(Duration.ofSeconds(10)).until(late::isDone);
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(late::get)
			.havingCause()
			.isInstanceOfSatisfying(PoolRejectedException.class,
					(ex) -> assertThat(ex.getReason()).isEqualTo(Reason.QUEUE_WAIT));
		assertThat(ran).isFalse();
		// Nobody could be told about a plain Runnable: it runs anyway.
		await().atMost(Duration.ofSeconds(10)).untilTrue(plainRan);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(this.pool.getPool().getRecorder().taskCounts())
				.isEqualTo(new TaskCounts(4, 3, 0, 1, 0, new Rejections(0, 1, 0, 0), 0)));
	}

	@Test
	void beforeAnythingIsMeasuredOnlyTheQueueCapacityLimits() {
		this.pool.getPool().setGuard(this.limit);
		occupyTheThread();
		for (int i = 0; i < 10; i++) {
			this.pool.execute(() -> {
			});
		}
		assertThat(this.pool.getQueue()).hasSize(10);
	}

	@Test
	void theTargetMustBePositive() {
		assertThatIllegalArgumentException().isThrownBy(() -> new QueueWaitLimit(this.pool.getPool(), Duration.ZERO))
			.withMessage("max-queue-wait of pool 'talk' must be a positive duration but was PT0S");
	}

	private void measureAServiceTimeOf100Ms() {
		this.pool.execute(() -> this.clock.advanceMillis(100));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.pool.getCompletedTaskCount() == 1);
		this.pool.getPool().takeSnapshot();
	}

	private void occupyTheThread() {
		this.pool.execute(() -> Blocking.await(this.release));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.pool.getActiveCount() == 1);
	}

}
