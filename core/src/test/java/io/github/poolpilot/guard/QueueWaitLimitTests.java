package io.github.poolpilot.guard;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.measure.RejectionReason;
import io.github.poolpilot.measure.PoolSnapshot.Rejections;
import io.github.poolpilot.measure.PoolSnapshot.TaskCounts;
import io.github.poolpilot.testsupport.Blocking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import io.github.poolpilot.execution.ManagedExecutor;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRejectedException;
import io.github.poolpilot.testsupport.FakeClock;

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
		this.pool.setGuard(this.limit);
		occupyTheThread();
		this.pool.execute(() -> {
		});
		// One ahead: (1 + 1) / 10 per second = 200 ms.
		this.pool.execute(() -> {
		});
		// Two ahead: 300 ms.
		assertThatExceptionOfType(PoolRejectedException.class).isThrownBy(() -> this.pool.execute(() -> {
		})).satisfies((ex) -> {
			assertThat(ex.getReason()).isEqualTo(RejectionReason.QUEUE_WAIT);
			assertThat(ex.getRetryAfter()).isEqualTo(Duration.ofSeconds(1));
			assertThat(ex).hasMessageContaining("expected queue wait over max-queue-wait");
		});
		assertThat(this.pool.getQueue()).hasSize(2);
		assertThat(this.pool.getPool().getRecorder().taskCounts().rejections()).isEqualTo(new Rejections(0, 1, 0, 0));
	}

	@Test
	void aTaskExpectedToWaitExactlyTheTargetIsAdmitted() {
		QueueWaitLimit limit = new QueueWaitLimit(this.pool.getPool(), Duration.ofMillis(200));
		assertThat(limit.getTarget()).isEqualTo(Duration.ofMillis(200));
		measureAServiceTimeOf100Ms();
		this.pool.setGuard(limit);
		occupyTheThread();
		this.pool.execute(() -> {
		});
		// One ahead: (1 + 1) / 10 per second = 200 ms, the target itself.
		this.pool.execute(() -> {
		});
		assertThatExceptionOfType(PoolRejectedException.class).isThrownBy(() -> this.pool.execute(() -> {
		}));
		assertThat(this.pool.getQueue()).hasSize(2);
	}

	@Test
	void aTaskThatWaitedLongerThanTheTargetFailsItsFutureInsteadOfRunning() throws Exception {
		measureAServiceTimeOf100Ms();
		this.pool.setGuard(this.limit);
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
					(ex) -> assertThat(ex.getReason()).isEqualTo(RejectionReason.QUEUE_WAIT));
		assertThat(ran).isFalse();
		// Nobody could be told about a plain Runnable: it runs anyway.
		await().atMost(Duration.ofSeconds(10)).untilTrue(plainRan);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(this.pool.getPool().getRecorder().taskCounts())
				.isEqualTo(new TaskCounts(4, 3, 0, 1, 0, new Rejections(0, 1, 0, 0), 0)));
	}

	@Test
	void beforeAnythingIsMeasuredOnlyTheQueueCapacityLimits() {
		this.pool.setGuard(this.limit);
		occupyTheThread();
		for (int i = 0; i < 10; i++) {
			this.pool.execute(() -> {
			});
		}
		assertThat(this.pool.getQueue()).hasSize(10);
	}

	@Test
	void atTheFirstBurstATaskIsRefusedByTheTimeTheRunningOneHasTakenSoFar() {
		this.pool.setGuard(this.limit);
		occupyTheThread();
		this.pool.getPool().takeSnapshot();
		this.clock.advanceMillis(2000);
		// Nothing ended in 2 s: one queued task takes 2 s more, past 250 ms.
		this.pool.execute(() -> {
		});
		assertThatExceptionOfType(PoolRejectedException.class).isThrownBy(() -> this.pool.execute(() -> {
		})).satisfies((ex) -> {
			assertThat(ex.getReason()).isEqualTo(RejectionReason.QUEUE_WAIT);
			assertThat(ex.getRetryAfter()).isEqualTo(Duration.ofSeconds(2));
		});
	}

	@Test
	void theRetryAfterOfARefusalAtSubmitIsTheTimeTheQueueTakesToDrain() {
		QueueWaitLimit limit = new QueueWaitLimit(this.pool.getPool(), Duration.ofMillis(2500));
		measureAServiceTimeOf(2000);
		this.pool.setGuard(limit);
		occupyTheThread();
		// None ahead: 2 s, within the target.
		this.pool.execute(() -> {
		});
		// One ahead: 4 s, refused; the one queued takes 2 s.
		assertThatExceptionOfType(PoolRejectedException.class).isThrownBy(() -> this.pool.execute(() -> {
		})).satisfies((ex) -> assertThat(ex.getRetryAfter()).isEqualTo(Duration.ofSeconds(2)));
	}

	@Test
	void aTaskIsRefusedWhenItsQueueWaitIsOverTheTargetAndRunWhenItIsNot() {
		// The wait a thread hands the guard is what is checked, to the nanosecond.
		long target = Duration.ofMillis(250).toNanos();
		this.limit.beforeRun(target, true);
		this.limit.beforeRun(target + 1, false);
		assertThatExceptionOfType(PoolRejectedException.class).isThrownBy(() -> this.limit.beforeRun(target + 1, true))
			.satisfies((ex) -> assertThat(ex.getReason()).isEqualTo(RejectionReason.QUEUE_WAIT));
	}

	@Test
	void theTargetMustBePositive() {
		assertThatIllegalArgumentException().isThrownBy(() -> new QueueWaitLimit(this.pool.getPool(), Duration.ZERO))
			.withMessage("max-queue-wait of pool 'talk' must be a positive duration but was PT0S");
	}

	private void measureAServiceTimeOf100Ms() {
		measureAServiceTimeOf(100);
	}

	private void measureAServiceTimeOf(long millis) {
		this.pool.execute(() -> this.clock.advanceMillis(millis));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.pool.getCompletedTaskCount() == 1);
		this.pool.getPool().takeSnapshot();
	}

	private void occupyTheThread() {
		this.pool.execute(() -> Blocking.await(this.release));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.pool.getActiveCount() == 1);
	}

}
