package io.github.poolpilot;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.LongStream;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.github.poolpilot.pool.InvalidPoolSizeException;
import io.github.poolpilot.execution.ManagedExecutor;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.measure.NanoClock;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.pool.PoolRejectedException;
import io.github.poolpilot.pool.PoolSampler;
import io.github.poolpilot.measure.PoolSnapshot.TaskCounts;
import io.github.poolpilot.guard.QueueWaitLimit;
import io.github.poolpilot.guard.TaskGuard;
import io.github.poolpilot.guard.TaskTimeouts;
import io.github.poolpilot.tuning.TuningMode;
import io.github.poolpilot.resilience.CircuitBreakerGuard;
import io.github.poolpilot.testsupport.Blocking;
import io.github.poolpilot.testsupport.Draw;
import io.github.poolpilot.testsupport.Seeds;
import io.github.poolpilot.task.ExistingExecutorSettings;
import io.github.poolpilot.task.ExistingExecutorsPostProcessor;
import io.github.poolpilot.tuning.Tuner;

import org.springframework.core.task.TaskRejectedException;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Nothing is lost under load, resizes and shutdown: many producers submit to four pools
 * sharing a budget (one plain, one with a max-queue-wait, one with a timeout and a
 * circuit breaker whose downstream turns slow halfway through, and an application's own
 * {@code ThreadPoolTaskExecutor} brought under management as a Spring application's is)
 * in every way a caller can, while the tuner runs and a resizer changes sizes and modes
 * through the public API (the application's executor through its own setters and the
 * {@code ThreadPoolExecutor} it hands out); then every pool shuts down gracefully. Every
 * submitted task must have completed, failed with its exception delivered to the caller,
 * or been rejected with the caller told; the pools' counts must agree exactly with what
 * the callers saw; the pools' maximum sizes never exceed the budget together, nor their
 * live threads but for the one worker per pool above its maximum that
 * {@code ThreadPoolExecutor} itself may hold as it shrinks (docs/guarantees.md); no
 * thread is left behind.
 * <p>
 * Every thread's choices are drawn from the seed ({@code -Dpoolpilot-tests.seed=N} runs
 * one). Runs for a few seconds in the default build;
 * {@code ./mvnw -pl autoconfigure -am test
 * -Pstress} runs it for five minutes ({@code -Dpoolpilot-tests.stress.duration=PT30M} for
 * longer).
 *
 * @author poolpilot authors
 */
class NothingLostStressTests {

	private static final Duration DURATION = Duration
		.parse(System.getProperty("poolpilot-tests.stress.duration", "PT4S"));

	private static final int BUDGET = 24;

	private static final int PRODUCERS = 6;

	private final PoolRegistry registry = new PoolRegistry(BUDGET);

	private final Map<String, Ledger> ledgers = new LinkedHashMap<>();

	private final AtomicBoolean slowDownstream = new AtomicBoolean();

	private final AtomicBoolean running = new AtomicBoolean(true);

	private final AtomicInteger mostLiveThreads = new AtomicInteger();

	private final Queue<String> violations = new ConcurrentLinkedQueue<>();

	private final LongAdder overruns = new LongAdder();

	private final Map<ManagedPool, ThreadPoolExecutor> liveExecutors = new LinkedHashMap<>();

	private final List<ManagedExecutor> executors = new ArrayList<>();

	private final LongAdder existingResizes = new LongAdder();

	private ManagedPool existingPool;

	private final Tuner tuner = new Tuner(this.registry, NanoClock.SYSTEM, Tuner.processCpuLoad(), (pool, decision) -> {
	});

	static LongStream seeds() {
		return Seeds.first(1);
	}

	@ParameterizedTest(name = "seed {0}")
	@MethodSource("seeds")
	void everyTaskIsAccountedForAndTheCountsAgree(long seed) throws Exception {
		System.out.println("seed " + seed + " (alone: -D" + Seeds.SEED + "=" + seed + ")");
		ManagedExecutor plain = pool("stress-plain", 40);
		ManagedExecutor deadline = pool("stress-deadline", 40);
		deadline.setGuard(new QueueWaitLimit(deadline.getPool(), Duration.ofMillis(20)));
		ManagedExecutor downstream = pool("stress-downstream", 20);
		CircuitBreaker circuitBreaker = CircuitBreaker.of("downstream",
				CircuitBreakerConfig.custom()
					.slidingWindow(20, 10, SlidingWindowType.COUNT_BASED)
					.waitDurationInOpenState(Duration.ofMillis(200))
					.build());
		downstream.setGuard(TaskGuard.of(List.of(new CircuitBreakerGuard(downstream.getPool(), circuitBreaker),
				new TaskTimeouts(downstream.getPool(), Duration.ofMillis(100)))));
		List<ManagedExecutor> pools = List.of(plain, deadline, downstream);
		ThreadPoolTaskExecutor existing = existingExecutor("stress-existing", 40);
		List<Thread> threads = new ArrayList<>();
		try (PoolSampler sampler = new PoolSampler(this.registry, Duration.ofMillis(50), this.tuner::tick)) {
			sampler.start();
			for (int i = 0; i < PRODUCERS; i++) {
				Draw draw = draw(seed, "producer-" + i);
				threads.add(start("producer-" + i, () -> produce(draw, pools, existing)));
			}
			Draw resizes = draw(seed, "resizer");
			threads.add(start("resizer", () -> resize(resizes, pools)));
			Draw existingResizes = draw(seed, "existing-resizer");
			threads.add(start("existing-resizer", () -> resize(existingResizes, existing)));
			Thread monitor = start("monitor", this::watchLiveThreads);
			LockSupport.parkNanos(DURATION.toNanos() / 2);
			this.slowDownstream.set(true);
			LockSupport.parkNanos(DURATION.toNanos() / 2);
			this.running.set(false);
			for (Thread thread : threads) {
				thread.join();
			}
			for (ManagedExecutor pool : pools) {
				pool.shutdown();
			}
			// Graceful, as the bean was configured: it waits for its queued tasks.
			existing.shutdown();
			for (ManagedExecutor pool : pools) {
				assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).as(pool.getPool().getName()).isTrue();
			}
			assertThat(existing.getThreadPoolExecutor().awaitTermination(60, TimeUnit.SECONDS)).isTrue();
			monitor.join();
		}
		List<ManagedPool> managed = new ArrayList<>(pools.stream().map(ManagedExecutor::getPool).toList());
		managed.add(this.existingPool);
		for (ManagedPool pool : managed) {
			this.ledgers.get(pool.getName()).settle(pool);
			System.out.println(pool.getName() + ": " + pool.getRecorder().taskCounts());
		}
		System.out.println("most live threads: " + this.mostLiveThreads.get() + " of " + BUDGET
				+ "; samples over it by shrinking pools' one worker each: " + this.overruns.sum());
		assertThat(this.violations).as("samples over the budget").isEmpty();
		TaskCounts downstreamCounts = downstream.getPool().getRecorder().taskCounts();
		assertThat(downstreamCounts.timedOut()).as("the slow downstream's tasks time out").isPositive();
		assertThat(pools).as("the pools were overloaded")
			.anySatisfy((pool) -> assertThat(pool.getPool().getRecorder().taskCounts().rejected()).isPositive());
		assertThat(this.existingResizes.sum()).as("the application's executor was resized through its setters")
			.isPositive();
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(Thread.getAllStackTraces().keySet())
				.noneMatch((thread) -> thread.getName().startsWith("stress-")));
	}

	private ManagedExecutor pool(String name, int queueCapacity) {
		AtomicInteger count = new AtomicInteger();
		ManagedExecutor executor = ManagedExecutor.builder(name, new PoolBounds(1, 12), queueCapacity)
			.sizes(6, 6)
			.keepAlive(Duration.ofMillis(100))
			.threadFactory((task) -> {
				Thread thread = new Thread(task, name + "-" + count.incrementAndGet());
				// Runnables that fail on purpose end their worker; nothing to print.
				thread.setUncaughtExceptionHandler((failed, ex) -> {
				});
				return thread;
			})
			.build();
		this.registry.register(executor.getPool());
		this.ledgers.put(name, new Ledger());
		this.executors.add(executor);
		this.liveExecutors.put(executor.getPool(), executor);
		return executor;
	}

	/**
	 * An application's own executor, brought under management the way Spring brings it:
	 * through the post-processor, before and after its initialization.
	 */
	private ThreadPoolTaskExecutor existingExecutor(String name, int queueCapacity) {
		ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
		executor.setCorePoolSize(6);
		executor.setMaxPoolSize(6);
		executor.setQueueCapacity(queueCapacity);
		executor.setKeepAliveSeconds(1);
		executor.setWaitForTasksToCompleteOnShutdown(true);
		executor.setAwaitTerminationSeconds(60);
		AtomicInteger count = new AtomicInteger();
		executor.setThreadFactory((task) -> {
			Thread thread = new Thread(task, name + "-" + count.incrementAndGet());
			thread.setUncaughtExceptionHandler((failed, ex) -> {
			});
			return thread;
		});
		ExistingExecutorsPostProcessor postProcessor = new ExistingExecutorsPostProcessor(() -> this.registry,
				PoolRecorder::builder, List.of(),
				(own) -> new ExistingExecutorSettings(new PoolBounds(1, 12), own.corePoolSize(), own.maxPoolSize(),
						own.queueCapacity(), null, null, 1, (pool) -> List.of()));
		postProcessor.postProcessBeforeInitialization(executor, name);
		executor.setBeanName(name);
		executor.afterPropertiesSet();
		ThreadPoolExecutor live = executor.getThreadPoolExecutor();
		ThreadPoolTaskExecutor managed = (ThreadPoolTaskExecutor) postProcessor.postProcessAfterInitialization(executor,
				name);
		this.existingPool = this.registry.get(name);
		this.liveExecutors.put(this.existingPool, live);
		this.ledgers.put(name, new Ledger());
		return managed;
	}

	private void produce(Draw draw, List<ManagedExecutor> pools, ThreadPoolTaskExecutor existing) {
		while (this.running.get()) {
			if (draw.between(0, pools.size()) == 0) {
				produce(existing, draw);
				continue;
			}
			ManagedExecutor pool = pools.get(draw.between(0, pools.size() - 1));
			Ledger ledger = this.ledgers.get(pool.getPool().getName());
			boolean slow = pool.getPool().getName().endsWith("downstream") && this.slowDownstream.get();
			boolean fail = draw.chance(0.05);
			int millis = draw.between(0, 2);
			ledger.attempts.increment();
			try {
				switch (draw.between(0, 2)) {
					case 0 -> pool.execute(() -> {
						work(slow, millis, fail, ledger);
						ledger.runnablesCompleted.increment();
					});
					case 1 -> ledger.futures.add(pool.submit(() -> {
						work(slow, millis, fail, null);
						return "done";
					}));
					default -> ledger.futures.add(pool.submitCompletable(() -> {
						work(slow, millis, fail, null);
						return "done";
					}));
				}
			}
			catch (PoolRejectedException ex) {
				ledger.rejectedAtSubmit.increment();
			}
			LockSupport.parkNanos(draw.between(20_000, 99_999));
		}
	}

	private void produce(ThreadPoolTaskExecutor existing, Draw draw) {
		Ledger ledger = this.ledgers.get(this.existingPool.getName());
		boolean fail = draw.chance(0.05);
		int millis = draw.between(0, 2);
		ledger.attempts.increment();
		try {
			switch (draw.between(0, 2)) {
				case 0 -> existing.execute(() -> {
					work(false, millis, fail, ledger);
					ledger.runnablesCompleted.increment();
				});
				case 1 -> ledger.futures.add(existing.submit(() -> {
					work(false, millis, fail, null);
					return "done";
				}));
				default -> ledger.futures.add(existing.submitCompletable(() -> {
					work(false, millis, fail, null);
					return "done";
				}));
			}
		}
		catch (TaskRejectedException ex) {
			assertThat(ex).hasCauseInstanceOf(PoolRejectedException.class);
			ledger.rejectedAtSubmit.increment();
		}
		LockSupport.parkNanos(draw.between(20_000, 99_999));
	}

	/**
	 * Resize the application's executor as its own code would: through the bean's setters
	 * and the executor it hands out, each change checked against the pool's bounds and
	 * the budget.
	 */
	private void resize(Draw draw, ThreadPoolTaskExecutor existing) {
		while (this.running.get()) {
			int size = draw.between(1, 12);
			try {
				switch (draw.between(0, 3)) {
					case 0 -> existing.setMaxPoolSize(size);
					case 1 -> existing.setCorePoolSize(size);
					case 2 -> existing.getThreadPoolExecutor().setMaximumPoolSize(size);
					default -> existing.getThreadPoolExecutor().setCorePoolSize(size);
				}
				this.existingResizes.increment();
			}
			catch (InvalidPoolSizeException ex) {
				// Outside its bounds, below its core size or over the budget: refused,
				// nothing changed.
			}
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(draw.between(1, 9)));
		}
	}

	private static void work(boolean slow, int millis, boolean fail, Ledger ledger) {
		if (slow) {
			try {
				Thread.sleep(150);
			}
			catch (InterruptedException ex) {
				if (ledger != null) {
					ledger.runnablesFailed.increment();
				}
				throw new IllegalStateException("timed out", ex);
			}
		}
		else {
			Blocking.sleep(Duration.ofMillis(millis));
		}
		if (fail) {
			if (ledger != null) {
				ledger.runnablesFailed.increment();
			}
			throw new IllegalStateException("failed on purpose");
		}
	}

	private void resize(Draw draw, List<ManagedExecutor> pools) {
		while (this.running.get()) {
			ManagedPool pool = pools.get(draw.between(0, pools.size() - 1)).getPool();
			if (draw.chance(0.25)) {
				this.tuner.setMode(pool.getName(), draw.chance(0.5) ? TuningMode.AUTO : TuningMode.MANUAL);
			}
			else {
				int max = draw.between(1, 12);
				try {
					pool.resize(draw.between(1, max), max);
				}
				catch (InvalidPoolSizeException ex) {
					// Over the budget: refused, nothing changed.
				}
			}
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(draw.between(1, 9)));
		}
	}

	/**
	 * Sample, every millisecond and under the budget's lock (so that no resize falls
	 * between the reads of two pools), the threads the pools count as theirs and their
	 * maximum sizes, against the budget as {@link Workers.Census#within} allows. The
	 * threads are read as {@code ThreadPoolExecutor} counts its workers, the count it
	 * keeps within its maximum size: {@code getPoolSize()} also holds, for the
	 * microseconds between that count dropping and the worker leaving its set, a worker
	 * that is ending (its task threw, or its keep-alive ran out) beside the one started
	 * in its place, and reads maximum + 1 then on any {@code ThreadPoolExecutor}
	 * (docs/guarantees.md).
	 */
	private void watchLiveThreads() {
		while (this.running.get() || this.registry.budget().liveThreads() > 0) {
			this.registry.budget().change(() -> {
				Workers.Census census = Workers.census(this.liveExecutors);
				if (!census.within(BUDGET)) {
					this.violations.add(census + " over a budget of " + BUDGET);
				}
				else if (census.workers() > BUDGET) {
					this.overruns.increment();
				}
				this.mostLiveThreads.accumulateAndGet(census.workers(), Math::max);
			});
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
			if (!this.running.get() && this.executors.stream().allMatch(ManagedExecutor::isTerminated)
					&& this.registry.budget().liveThreads() == 0) {
				return;
			}
		}
	}

	/**
	 * What one of the test's threads draws: from the seed and the thread's name, so that
	 * each thread's choices are the seed's whatever the others do.
	 */
	private static Draw draw(long seed, String thread) {
		return new Draw(seed * 1_000_003 + thread.hashCode());
	}

	private static Thread start(String name, Runnable task) {
		Thread thread = new Thread(task, name);
		thread.start();
		return thread;
	}

	/**
	 * What the callers of one pool saw.
	 */
	private static final class Ledger {

		private final LongAdder attempts = new LongAdder();

		private final LongAdder rejectedAtSubmit = new LongAdder();

		private final LongAdder runnablesCompleted = new LongAdder();

		private final LongAdder runnablesFailed = new LongAdder();

		private final Queue<Future<String>> futures = new ConcurrentLinkedQueue<>();

		void settle(ManagedPool pool) throws InterruptedException {
			long completed = 0;
			long failed = 0;
			long rejectedLater = 0;
			for (Future<String> future : this.futures) {
				assertThat(future).isDone();
				try {
					assertThat(future.get()).isEqualTo("done");
					completed++;
				}
				catch (ExecutionException ex) {
					if (ex.getCause() instanceof PoolRejectedException) {
						rejectedLater++;
					}
					else {
						assertThat(ex.getCause()).isInstanceOf(IllegalStateException.class);
						failed++;
					}
				}
				catch (CancellationException ex) {
					throw new AssertionError("A task was cancelled in a graceful shutdown", ex);
				}
			}
			TaskCounts counts = pool.getRecorder().taskCounts();
			String name = pool.getName();
			assertThat(counts.submitted()).as(name + " submitted").isEqualTo(this.attempts.sum());
			assertThat(counts.abandoned()).as(name + " abandoned").isZero();
			assertThat(counts.rejected()).as(name + " rejected").isEqualTo(this.rejectedAtSubmit.sum() + rejectedLater);
			assertThat(counts.failed()).as(name + " failed").isEqualTo(failed + this.runnablesFailed.sum());
			assertThat(counts.completed()).as(name + " completed").isEqualTo(completed + this.runnablesCompleted.sum());
			assertThat(counts.submitted()).as(name + " conservation")
				.isEqualTo(counts.completed() + counts.failed() + counts.rejected() + counts.abandoned());
		}

	}

}
