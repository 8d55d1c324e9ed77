package io.github.poolpilot.pool;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.execution.ManagedExecutor;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.measure.RejectionReason;
import io.github.poolpilot.testsupport.Blocking;
import io.github.poolpilot.testsupport.FakeClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for the Retry-After a pool's refusal carries ({@link ManagedPool#retryAfter}):
 * the time its queue takes to drain, estimated from what is known, at the first burst
 * too. A two-thread pool with a queue of four, on a fake clock.
 *
 * @author poolpilot authors
 */
class RetryAfterTests {

	private final FakeClock clock = new FakeClock();

	private final CountDownLatch release = new CountDownLatch(1);

	private final ManagedExecutor executor = ManagedExecutor.builder("talk", new PoolBounds(1, 2), 4)
		.sizes(2, 2)
		.recorder(PoolRecorder.builder().clock(this.clock).build())
		.build();

	private final ManagedPool pool = this.executor.getPool();

	@AfterEach
	void shutDown() throws InterruptedException {
		this.release.countDown();
		this.executor.shutdownNow();
		assertThat(this.executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void atTheFirstBurstTheTimeTheRunningTasksHaveTakenSoFarIsTheServiceTime() {
		fill();
		// The burst's first window closes with tasks in flight and none ended.
		this.pool.takeSnapshot();
		this.clock.advanceMillis(3000);
		// Nothing ended in 3 s: each task takes at least that; four queued on two
		// threads take 6 s more.
		assertThat(this.pool.expectedServiceMs()).isEqualTo(3000);
		assertThat(refusal().getRetryAfter()).isEqualTo(Duration.ofSeconds(6));
	}

	@Test
	void beforeAnyWindowClosedNothingIsKnownAndRetryAfterIsItsFloor() {
		fill();
		this.clock.advanceMillis(3000);
		assertThat(this.pool.drainRate()).isZero();
		assertThat(refusal().getRetryAfter()).isEqualTo(Duration.ofSeconds(1));
	}

	@Test
	void aWindowWithNoTaskEndedUsesTheBestServiceTimeSeenBefore() {
		measureAServiceTimeOf(1000);
		fill();
		this.pool.takeSnapshot();
		// Two threads at 1 s a task drain 2 tasks a second: 4 queued take 2 s.
		assertThat(this.pool.drainRate()).isEqualTo(2);
		assertThat(refusal().getRetryAfter()).isEqualTo(Duration.ofSeconds(2));
		this.clock.advanceMillis(4000);
		// Nothing ended for 4 s since: the tasks take longer now.
		assertThat(refusal().getRetryAfter()).isEqualTo(Duration.ofSeconds(8));
	}

	@Test
	void theLastWindowsServiceTimeGivesTheDrainRate() {
		measureAServiceTimeOf(1000);
		fill();
		// Two threads at 1 s a task: 4 queued take 2 s.
		assertThat(this.pool.expectedServiceMs()).isEqualTo(1000);
		assertThat(refusal().getRetryAfter()).isEqualTo(Duration.ofSeconds(2));
	}

	@Test
	void theBestServiceTimeIsTheLeastOfTheWindowsWithTasksEnded() {
		measureAServiceTimeOf(3000);
		measureAServiceTimeOf(1000);
		measureAServiceTimeOf(2000);
		fill();
		this.pool.takeSnapshot();
		assertThat(this.pool.expectedServiceMs()).isEqualTo(1000);
	}

	@Test
	void retryAfterIsInWholeSecondsRoundedUpAndAtMostAnHour() {
		measureAServiceTimeOf(1100);
		fill();
		// Two threads at 1.1 s a task: 4 queued take 2.2 s, said as 3.
		assertThat(refusal().getRetryAfter()).isEqualTo(Duration.ofSeconds(3));
		this.pool.takeSnapshot();
		this.clock.advance(Duration.ofHours(2));
		// Nothing ended for 2 h: the 4 queued would take 4 h, said as the hour at most.
		assertThat(refusal().getRetryAfter()).isEqualTo(Duration.ofHours(1));
	}

	private void measureAServiceTimeOf(long millis) {
		long completed = this.pool.getRecorder().taskCounts().completed();
		this.executor.execute(() -> this.clock.advanceMillis(millis));
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.pool.getRecorder().taskCounts().completed() == completed + 1);
		this.pool.takeSnapshot();
	}

	/**
	 * Both threads busy and the queue full.
	 */
	private void fill() {
		for (int i = 0; i < 2; i++) {
			this.executor.execute(() -> Blocking.await(this.release));
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> this.executor.getActiveCount() == 2);
		for (int i = 0; i < 4; i++) {
			this.executor.execute(() -> {
			});
		}
	}

	private PoolRejectedException refusal() {
		PoolRejectedException[] refusal = new PoolRejectedException[1];
		assertThatExceptionOfType(PoolRejectedException.class).isThrownBy(() -> this.executor.execute(() -> {
		})).satisfies((ex) -> {
			assertThat(ex.getReason()).isEqualTo(RejectionReason.QUEUE_FULL);
			refusal[0] = ex;
		});
		return refusal[0];
	}

}
