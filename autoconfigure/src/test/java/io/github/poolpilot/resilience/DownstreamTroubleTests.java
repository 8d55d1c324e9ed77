package io.github.poolpilot.resilience;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreaker.State;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.execution.ManagedExecutor;
import io.github.poolpilot.measure.NanoClock;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.measure.RejectionReason;
import io.github.poolpilot.pool.PoolRejectedException;
import io.github.poolpilot.pool.PoolSampler;
import io.github.poolpilot.guard.TaskGuard;
import io.github.poolpilot.guard.TaskTimeouts;
import io.github.poolpilot.testsupport.Blocking;
import io.github.poolpilot.tuning.Tuner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A downstream that becomes 10× slower, then fails, then recovers, behind the pool
 * {@code talk} (timeout 300 ms, a circuit breaker) while the pool {@code start} shares
 * the budget with it, the tuner running on 100 ms windows. The downstream admits 4 calls
 * at a time, so once slow it serves 40 of the 100 calls a second offered to it.
 *
 * @author poolpilot authors
 */
class DownstreamTroubleTests {

	private static final int BUDGET = 12;

	private final PoolRegistry registry = new PoolRegistry(BUDGET);

	private final ManagedExecutor talk = pool("talk", 8, 4, 20);

	private final ManagedExecutor start = pool("start", 4, 4, 50);

	private final CircuitBreaker circuitBreaker = CircuitBreaker.of("downstream",
			CircuitBreakerConfig.custom()
				.slidingWindow(10, 10, SlidingWindowType.COUNT_BASED)
				.failureRateThreshold(50)
				.waitDurationInOpenState(Duration.ofSeconds(1))
				.permittedNumberOfCallsInHalfOpenState(3)
				.build());

	private final Semaphore downstreamPermits = new Semaphore(4, true);

	private volatile Duration downstreamLatency = Duration.ofMillis(10);

	private final AtomicBoolean downstreamFailing = new AtomicBoolean();

	private final AtomicBoolean running = new AtomicBoolean(true);

	private final AtomicBoolean degraded = new AtomicBoolean();

	private final AtomicInteger largestTalkSizeWhileDegraded = new AtomicInteger();

	private final AtomicInteger mostLiveThreads = new AtomicInteger();

	private final LongAdder circuitOpenRejections = new LongAdder();

	private final LongAdder startCompleted = new LongAdder();

	private final LongAdder startRejected = new LongAdder();

	private final LongAdder startSubmitted = new LongAdder();

	@AfterEach
	void shutDown() throws InterruptedException {
		this.running.set(false);
		for (ManagedExecutor pool : List.of(this.talk, this.start)) {
			pool.shutdownNow();
			assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
		}
	}

	@Test
	void aSlowThenFailingDownstreamTakesNoThreadsFromOthersAndTheCircuitOpensAndCloses() throws Exception {
		this.talk.setGuard(TaskGuard.of(List.of(new CircuitBreakerGuard(this.talk.getPool(), this.circuitBreaker),
				new TaskTimeouts(this.talk.getPool(), Duration.ofMillis(300)))));
		Tuner tuner = new Tuner(this.registry, NanoClock.SYSTEM, Tuner.processCpuLoad(), (pool, decision) -> {
		});
		try (PoolSampler sampler = new PoolSampler(this.registry, Duration.ofMillis(100), tuner::tick)) {
			sampler.start();
			Thread talkLoad = loop("talk-load", 10, this::callDownstream);
			Thread startLoad = loop("start-load", 20, this::startSomething);
			Thread monitor = loop("monitor", 5, this::watch);
			LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));

			this.downstreamLatency = Duration.ofMillis(100);
			this.degraded.set(true);
			LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(2));
			this.downstreamFailing.set(true);
			await().atMost(Duration.ofSeconds(20)).until(() -> this.circuitBreaker.getState() == State.OPEN);
			await().atMost(Duration.ofSeconds(20)).until(() -> this.circuitOpenRejections.sum() > 0);

			this.downstreamLatency = Duration.ofMillis(10);
			this.downstreamFailing.set(false);
			await().atMost(Duration.ofSeconds(30)).until(() -> this.circuitBreaker.getState() == State.CLOSED);
			this.degraded.set(false);
			this.running.set(false);
			for (Thread thread : List.of(talkLoad, startLoad, monitor)) {
				thread.join();
			}
		}
		// The tuner never gave talk more threads while its downstream was the bottleneck.
		assertThat(this.largestTalkSizeWhileDegraded.get()).isLessThanOrEqualTo(4);
		assertThat(this.mostLiveThreads.get()).isLessThanOrEqualTo(BUDGET);
		// start kept serving all along.
		assertThat(this.startRejected.sum()).isZero();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.startCompleted.sum() == this.startSubmitted.sum());
		assertThat(this.talk.getPool().getRecorder().taskCounts().rejections().circuitOpen())
			.isEqualTo(this.circuitOpenRejections.sum());
	}

	private ManagedExecutor pool(String name, int maxThreads, int size, int queueCapacity) {
		ManagedExecutor executor = ManagedExecutor.builder(name, new PoolBounds(1, maxThreads), queueCapacity)
			.sizes(size, size)
			.build();
		this.registry.register(executor.getPool());
		return executor;
	}

	private void callDownstream() {
		try {
			this.talk.submit(() -> {
				this.downstreamPermits.acquire();
				try {
					if (this.downstreamFailing.get()) {
						throw new IllegalStateException("downstream failing");
					}
					Thread.sleep(this.downstreamLatency.toMillis());
					return "ok";
				}
				finally {
					this.downstreamPermits.release();
				}
			});
		}
		catch (PoolRejectedException ex) {
			if (ex.getReason() == RejectionReason.CIRCUIT_OPEN) {
				assertThat(ex.getReason().isUnavailable()).isTrue();
				this.circuitOpenRejections.increment();
			}
		}
	}

	private void startSomething() {
		this.startSubmitted.increment();
		try {
			this.start.execute(() -> {
				Blocking.sleep(Duration.ofMillis(1));
				this.startCompleted.increment();
			});
		}
		catch (PoolRejectedException ex) {
			this.startRejected.increment();
		}
	}

	private void watch() {
		if (this.degraded.get()) {
			this.largestTalkSizeWhileDegraded.accumulateAndGet(this.talk.getMaximumPoolSize(), Math::max);
		}
		this.mostLiveThreads.accumulateAndGet(this.registry.budget().liveThreads(), Math::max);
	}

	private Thread loop(String name, long periodMillis, Runnable action) {
		Thread thread = new Thread(() -> {
			while (this.running.get()) {
				action.run();
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(periodMillis));
			}
		}, name);
		thread.start();
		return thread;
	}

}
