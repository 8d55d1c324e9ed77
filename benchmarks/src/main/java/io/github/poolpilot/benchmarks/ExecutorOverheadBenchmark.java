package io.github.poolpilot.benchmarks;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import io.micrometer.core.instrument.binder.jvm.ExecutorServiceMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import io.github.poolpilot.core.ManagedExecutor;
import io.github.poolpilot.core.PoolBounds;
import io.github.poolpilot.core.PoolRecorder;
import io.github.poolpilot.core.PoolRegistry;
import io.github.poolpilot.core.PoolSampler;

/**
 * Submit-and-run throughput of a 2-thread pool fed by 2 producers, for a raw
 * {@link ThreadPoolExecutor} and the instrumented executors compared with it. Each
 * operation submits a batch of distinct tasks and waits until all of them ran, so both
 * the submit and the run path are measured; scores are tasks per second.
 *
 * @author poolpilot authors
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = { "-Xms1g", "-Xmx1g" })
@Threads(2)
public class ExecutorOverheadBenchmark {

	static final int BATCH = 64;

	static final int POOL_SIZE = 2;

	static final int QUEUE_CAPACITY = 1024;

	/**
	 * The executor under test.
	 */
	@Param({ "raw", "managed-full", "managed-sampled", "micrometer", "map-tracking" })
	public String executor;

	/**
	 * The task: {@code trivial} does nothing, {@code 1us} spins for a microsecond.
	 */
	@Param({ "trivial", "1us" })
	public String task;

	ExecutorService pool;

	@Nullable PoolSampler sampler;

	long spinNanos;

	@Setup(Level.Trial)
	public void createPool() {
		this.spinNanos = "1us".equals(this.task) ? 1_000 : 0;
		this.pool = switch (this.executor) {
			case "raw" -> raw();
			case "managed-full" -> sampled(managed(1));
			case "managed-sampled" -> sampled(managed(16));
			case "micrometer" -> ExecutorServiceMetrics.monitor(new SimpleMeterRegistry(), raw(), "bench");
			case "map-tracking" -> new MapTrackingExecutor();
			default -> throw new IllegalArgumentException("Unknown executor " + this.executor);
		};
	}

	/**
	 * Close the pool's measurement window every second, as poolpilot does in an
	 * application.
	 */
	private ManagedExecutor sampled(ManagedExecutor executor) {
		PoolRegistry registry = new PoolRegistry(null);
		registry.register(executor.getPool());
		this.sampler = new PoolSampler(registry, Duration.ofSeconds(1));
		this.sampler.start();
		return executor;
	}

	@TearDown(Level.Trial)
	public void shutDownPool() throws InterruptedException {
		if (this.sampler != null) {
			this.sampler.close();
		}
		this.pool.shutdown();
		this.pool.awaitTermination(10, TimeUnit.SECONDS);
	}

	@Benchmark
	@OperationsPerInvocation(BATCH)
	public void submitAndRun(Producer producer) {
		producer.thread = Thread.currentThread();
		producer.remaining.set(BATCH);
		for (Runnable task : producer.tasks) {
			this.pool.execute(task);
		}
		while (producer.remaining.get() != 0) {
			LockSupport.park(this);
		}
	}

	private static ThreadPoolExecutor raw() {
		return new ThreadPoolExecutor(POOL_SIZE, POOL_SIZE, 60, TimeUnit.SECONDS,
				new ArrayBlockingQueue<>(QUEUE_CAPACITY));
	}

	private static ManagedExecutor managed(int timingSampleEvery) {
		return ManagedExecutor.builder("bench", new PoolBounds(POOL_SIZE, POOL_SIZE), QUEUE_CAPACITY)
			.recorder(PoolRecorder.builder().timingSampleEvery(timingSampleEvery).build())
			.build();
	}

	/**
	 * One producer's batch: distinct tasks, made once, that wake the producer when the
	 * last of them ran.
	 */
	@State(Scope.Thread)
	public static class Producer {

		final AtomicInteger remaining = new AtomicInteger();

		volatile @Nullable Thread thread;

		Runnable[] tasks;

		@Setup(Level.Trial)
		public void createTasks(ExecutorOverheadBenchmark benchmark) {
			this.tasks = new Runnable[BATCH];
			for (int i = 0; i < BATCH; i++) {
				this.tasks[i] = new BatchTask(this, benchmark.spinNanos);
			}
		}

	}

	static final class BatchTask implements Runnable {

		private final Producer producer;

		private final long spinNanos;

		BatchTask(Producer producer, long spinNanos) {
			this.producer = producer;
			this.spinNanos = spinNanos;
		}

		@Override
		public void run() {
			if (this.spinNanos > 0) {
				long until = System.nanoTime() + this.spinNanos;
				while (System.nanoTime() < until) {
					Thread.onSpinWait();
				}
			}
			if (this.producer.remaining.decrementAndGet() == 0) {
				LockSupport.unpark(this.producer.thread);
			}
		}

	}

	/**
	 * Tracks tasks the way classic instrumented-executor examples do: a map of submit
	 * times keyed by task, and a synchronized update of the arrival figures.
	 */
	static final class MapTrackingExecutor extends ThreadPoolExecutor {

		private final ConcurrentHashMap<Runnable, Long> submitTimes = new ConcurrentHashMap<>();

		private final ThreadLocal<Long> startTimes = new ThreadLocal<>();

		private final LongAdder queueWaitNanos = new LongAdder();

		private final LongAdder serviceNanos = new LongAdder();

		private long arrivals;

		private long lastArrivalNanos;

		private double meanInterArrivalNanos;

		MapTrackingExecutor() {
			super(POOL_SIZE, POOL_SIZE, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE_CAPACITY));
		}

		@Override
		public void execute(Runnable command) {
			long now = System.nanoTime();
			synchronized (this) {
				if (this.arrivals > 0) {
					this.meanInterArrivalNanos += ((now - this.lastArrivalNanos) - this.meanInterArrivalNanos)
							/ (this.arrivals + 1);
				}
				this.arrivals++;
				this.lastArrivalNanos = now;
			}
			this.submitTimes.put(command, now);
			super.execute(command);
		}

		@Override
		protected void beforeExecute(Thread thread, Runnable task) {
			long now = System.nanoTime();
			Long submitted = this.submitTimes.remove(task);
			if (submitted != null) {
				this.queueWaitNanos.add(now - submitted);
			}
			this.startTimes.set(now);
		}

		@Override
		protected void afterExecute(Runnable task, @Nullable Throwable thrown) {
			Long started = this.startTimes.get();
			if (started != null) {
				this.serviceNanos.add(System.nanoTime() - started);
			}
		}

	}

}
