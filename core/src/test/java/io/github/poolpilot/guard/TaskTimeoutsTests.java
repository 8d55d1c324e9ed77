package io.github.poolpilot.guard;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import io.github.poolpilot.execution.ManagedExecutor;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.testsupport.FakeClock;

/**
 * Tests for {@link TaskTimeouts}, whose watchdog is run by hand on a fake clock.
 *
 * @author poolpilot authors
 */
class TaskTimeoutsTests {

	private final FakeClock clock = new FakeClock();

	private final ManagedExecutor pool = ManagedExecutor.builder("talk", new PoolBounds(1, 1), 10).build();

	private final TaskTimeouts timeouts = new TaskTimeouts(this.pool.getPool(), Duration.ofSeconds(2), this.clock,
			false);

	@AfterEach
	void shutDown() throws InterruptedException {
		this.pool.shutdownNow();
		assertThat(this.pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void aTaskRunningPastTheTimeoutIsInterruptedAndCounted() throws Exception {
		this.pool.setGuard(this.timeouts);
		CountDownLatch started = new CountDownLatch(1);
		Future<?> slow = this.pool.submit(() -> {
			started.countDown();
			new CountDownLatch(1).await();
			return null;
		});
		assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
		this.clock.advance(Duration.ofMillis(1999));
		this.timeouts.scan();
		assertThat(slow.isDone()).isFalse();
		this.clock.advance(Duration.ofMillis(2));
		this.timeouts.scan();
		await().atMost(Duration.ofSeconds(10)).until(slow::isDone);
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(slow::get)
			.withCauseInstanceOf(InterruptedException.class);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(this.pool.getPool().getRecorder().taskCounts().failed()).isEqualTo(1));
		assertThat(this.pool.getPool().getRecorder().taskCounts().timedOut()).isEqualTo(1);
		// The interrupt stayed with the task that timed out.
		Future<Boolean> next = this.pool.submit(() -> Thread.currentThread().isInterrupted());
		assertThat(next.get(10, TimeUnit.SECONDS)).isFalse();
	}

	@Test
	void aTaskThatEndsInTimeIsLeftAlone() throws Exception {
		this.pool.setGuard(this.timeouts);
		Future<String> quick = this.pool.submit(() -> "done");
		assertThat(quick.get(10, TimeUnit.SECONDS)).isEqualTo("done");
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(this.pool.getPool().getRecorder().taskCounts().completed()).isEqualTo(1));
		this.clock.advance(Duration.ofMinutes(1));
		this.timeouts.scan();
		assertThat(this.pool.getPool().getRecorder().taskCounts().timedOut()).isZero();
	}

	@Test
	void aTaskIsTimedOutOnceHoweverOftenTheWatchdogLooks() throws Exception {
		this.pool.setGuard(this.timeouts);
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch finish = new CountDownLatch(1);
		// A task that ignores its interrupt runs on; it is still counted, once.
		Future<?> stubborn = this.pool.submit(() -> {
			started.countDown();
			while (finish.getCount() > 0) {
				Thread.onSpinWait();
			}
		});
		assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
		this.clock.advance(Duration.ofSeconds(3));
		this.timeouts.scan();
		this.timeouts.scan();
		finish.countDown();
		stubborn.get(10, TimeUnit.SECONDS);
		assertThat(this.pool.getPool().getRecorder().taskCounts().timedOut()).isEqualTo(1);
	}

	@Test
	void aTaskThatEndsAsItIsTimedOutLeavesNoInterruptForTheThreadsNextTask() {
		this.clock.advance(Duration.ofSeconds(10));
		this.timeouts.beforeRun(0, true);
		this.clock.advance(Duration.ofMillis(2001));
		this.timeouts.scan();
		this.timeouts.afterRun(2001, null);
		assertThat(Thread.interrupted()).isFalse();
		assertThat(this.pool.getPool().getRecorder().taskCounts().timedOut()).isEqualTo(1);
	}

	@Test
	void aTaskRunningExactlyItsTimeoutIsNotInterrupted() {
		this.clock.advance(Duration.ofSeconds(10));
		this.timeouts.beforeRun(0, true);
		this.clock.advance(Duration.ofSeconds(2));
		this.timeouts.scan();
		assertThat(Thread.interrupted()).isFalse();
		this.timeouts.afterRun(2000, null);
		assertThat(this.pool.getPool().getRecorder().taskCounts().timedOut()).isZero();
		// Nothing to stop without a watchdog.
		this.timeouts.close();
	}

	@Test
	void theWatchdogIsADaemonThreadThatStopsWhenClosed() {
		ManagedExecutor watched = ManagedExecutor.builder("watched", new PoolBounds(1, 1), 10).build();
		try {
			TaskTimeouts timeouts = new TaskTimeouts(watched.getPool(), Duration.ofSeconds(1));
			assertThat(timeouts.getTimeout()).isEqualTo(Duration.ofSeconds(1));
			Thread watchdog = await().atMost(Duration.ofSeconds(10))
				.until(() -> Thread.getAllStackTraces()
					.keySet()
					.stream()
					.filter((thread) -> thread.getName().equals("watched-timeouts"))
					.findFirst()
					.orElse(null), (thread) -> thread != null);
			assertThat(watchdog.isDaemon()).isTrue();
			timeouts.close();
			await().atMost(Duration.ofSeconds(10)).until(() -> !watchdog.isAlive());
		}
		finally {
			watched.shutdownNow();
		}
	}

	@Test
	void theTimeoutMustBePositive() {
		assertThatIllegalArgumentException().isThrownBy(() -> new TaskTimeouts(this.pool.getPool(), Duration.ZERO))
			.withMessage("timeout of pool 'talk' must be a positive duration but was PT0S");
	}

}
