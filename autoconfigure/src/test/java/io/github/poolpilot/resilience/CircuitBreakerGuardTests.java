package io.github.poolpilot.resilience;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreaker.State;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.execution.ManagedExecutor;
import io.github.poolpilot.guard.TaskGuard;
import io.github.poolpilot.guard.TaskTimeouts;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRejectedException;
import io.github.poolpilot.measure.RejectionReason;
import io.github.poolpilot.measure.PoolSnapshot.Rejections;
import io.github.poolpilot.testsupport.Blocking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link CircuitBreakerGuard} on a real pool and a Resilience4j circuit breaker
 * that opens after two failures out of four calls, for ten seconds.
 *
 * @author poolpilot authors
 */
class CircuitBreakerGuardTests {

	private final CircuitBreaker circuitBreaker = CircuitBreaker.of("talk",
			CircuitBreakerConfig.custom()
				.slidingWindow(4, 4, SlidingWindowType.COUNT_BASED)
				.failureRateThreshold(50)
				.waitDurationInOpenState(Duration.ofSeconds(10))
				.permittedNumberOfCallsInHalfOpenState(1)
				.build());

	private final ManagedExecutor pool = ManagedExecutor.builder("talk", new PoolBounds(1, 1), 1).build();

	private final CountDownLatch release = new CountDownLatch(1);

	@AfterEach
	void shutDown() throws InterruptedException {
		this.release.countDown();
		this.pool.shutdownNow();
		assertThat(this.pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void failingTasksOpenTheCircuitThenThePoolRefusesAtOnce() throws Exception {
		this.pool.setGuard(new CircuitBreakerGuard(this.pool.getPool(), this.circuitBreaker));
		run(() -> "ok");
		run(() -> "ok");
		fail();
		fail();
		assertThat(this.circuitBreaker.getState()).isEqualTo(State.OPEN);
		assertThatExceptionOfType(PoolRejectedException.class).isThrownBy(() -> this.pool.execute(() -> {
		})).satisfies((ex) -> {
			assertThat(ex.getReason()).isEqualTo(RejectionReason.CIRCUIT_OPEN);
			assertThat(ex.getReason().isUnavailable()).isTrue();
			assertThat(ex.getRetryAfter()).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(10));
		});
		assertThat(this.pool.getPool().getRecorder().taskCounts().rejections()).isEqualTo(new Rejections(0, 0, 1, 0));
		assertThat(this.circuitBreaker.getMetrics().getNumberOfFailedCalls()).isEqualTo(2);
		assertThat(this.circuitBreaker.getMetrics().getNumberOfSuccessfulCalls()).isEqualTo(2);
	}

	@Test
	void aPermissionIsGivenBackWhenTheQueueRefusesTheTask() throws Exception {
		this.pool.setGuard(new CircuitBreakerGuard(this.pool.getPool(), this.circuitBreaker));
		this.pool.execute(() -> Blocking.await(this.release));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.pool.getActiveCount() == 1);
		this.pool.execute(() -> {
		});
		this.circuitBreaker.transitionToOpenState();
		this.circuitBreaker.transitionToHalfOpenState();
		// The one call allowed half-open is refused by the full queue: its permission
		// comes back.
		assertThatExceptionOfType(PoolRejectedException.class).isThrownBy(() -> this.pool.execute(() -> {
		})).satisfies((ex) -> assertThat(ex.getReason()).isEqualTo(RejectionReason.QUEUE_FULL));
		assertThat(this.circuitBreaker.tryAcquirePermission()).isTrue();
	}

	@Test
	void aTimedOutTaskIsRecordedAsAFailureWithItsFullServiceTime() {
		// Calls over 50 ms are slow: a timed-out task ran at least its timeout, 100 ms.
		CircuitBreaker breaker = CircuitBreaker.of("talk",
				CircuitBreakerConfig.custom().slowCallDurationThreshold(Duration.ofMillis(50)).build());
		Duration timeout = Duration.ofMillis(100);
		// In the order a pool's guards are built: the timeout last.
		this.pool.setGuard(TaskGuard.of(List.of(new CircuitBreakerGuard(this.pool.getPool(), breaker),
				new TaskTimeouts(this.pool.getPool(), timeout))));
		long started = System.nanoTime();
		Future<String> hanging = this.pool.submit(() -> {
			new CountDownLatch(1).await();
			return "never";
		});
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> hanging.get(10, TimeUnit.SECONDS))
			.withCauseInstanceOf(InterruptedException.class);
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(timeout);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isOne());
		assertThat(breaker.getMetrics().getNumberOfSlowFailedCalls()).isOne();
		assertThat(breaker.getMetrics().getNumberOfSuccessfulCalls()).isZero();
		assertThat(this.pool.getPool().getRecorder().taskCounts().timedOut()).isOne();
	}

	@Test
	void aTimedOutTaskThatSwallowsTheInterruptIsRecordedAsTheSuccessItReports() throws Exception {
		CircuitBreaker breaker = CircuitBreaker.of("talk",
				CircuitBreakerConfig.custom().slowCallDurationThreshold(Duration.ofMillis(50)).build());
		this.pool.setGuard(TaskGuard.of(List.of(new CircuitBreakerGuard(this.pool.getPool(), breaker),
				new TaskTimeouts(this.pool.getPool(), Duration.ofMillis(100)))));
		Future<String> swallowing = this.pool.submit(() -> {
			try {
				new CountDownLatch(1).await();
			}
			catch (InterruptedException ex) {
				// Swallowed: the task reports a success.
			}
			return "swallowed";
		});
		assertThat(swallowing.get(10, TimeUnit.SECONDS)).isEqualTo("swallowed");
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(breaker.getMetrics().getNumberOfSuccessfulCalls()).isOne());
		assertThat(breaker.getMetrics().getNumberOfSlowSuccessfulCalls()).isOne();
		assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isZero();
		assertThat(this.pool.getPool().getRecorder().taskCounts().timedOut()).isOne();
	}

	@Test
	void aTimeoutsInterruptNeverReachesTheThreadsNextTask() throws Exception {
		this.pool.setGuard(new TaskTimeouts(this.pool.getPool(), Duration.ofMillis(50)));
		// Runs past its timeout until it is interrupted, without clearing the flag, so
		// that the flag is still set when it returns.
		Future<Boolean> deaf = this.pool.submit(() -> {
			long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
			while (!Thread.currentThread().isInterrupted() && System.nanoTime() < until) {
				Thread.onSpinWait();
			}
			return Thread.currentThread().isInterrupted();
		});
		assertThat(deaf.get(10, TimeUnit.SECONDS)).isTrue();
		// The pool has one thread: the next task runs on the same one.
		assertThat(this.pool.submit(() -> Thread.currentThread().isInterrupted()).get(10, TimeUnit.SECONDS)).isFalse();
		assertThat(this.pool.getPool().getRecorder().taskCounts().timedOut()).isOne();
	}

	private void run(Callable<String> task) throws Exception {
		assertThat(this.pool.submit(task).get(10, TimeUnit.SECONDS)).isEqualTo("ok");
	}

	private void fail() throws InterruptedException {
		Future<String> failing = this.pool.submit(() -> {
			throw new IllegalStateException("downstream down");
		});
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> failing.get(10, TimeUnit.SECONDS));
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.pool.getPool().getRecorder().taskCounts().failed() >= 1
					&& this.circuitBreaker.getMetrics().getNumberOfBufferedCalls() >= 3);
	}

}
