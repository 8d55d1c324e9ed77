package io.github.poolpilot.benchmarks;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ExecutorServiceMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.dromara.dynamictp.common.em.QueueTypeEnum;
import org.dromara.dynamictp.core.aware.AwareManager;
import org.dromara.dynamictp.core.executor.DtpExecutor;
import org.dromara.dynamictp.core.support.ExecutorWrapper;
import org.dromara.dynamictp.core.support.ThreadPoolBuilder;
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

import io.github.poolpilot.execution.ManagedExecutor;
import io.github.poolpilot.execution.ManagedExecutorBuilder;
import io.github.poolpilot.execution.ManagedExecutorService;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.pool.PoolSampler;

/**
 * Submit-and-run throughput of a 2-thread pool fed by 2 producers (by default), for a raw
 * {@link ThreadPoolExecutor} and the instrumented executors compared with it.
 * <p>
 * Each operation submits a batch of {@value #BATCH} distinct tasks and waits (parked)
 * until all of them ran, so both the submit path (producer side) and the run path (worker
 * side) are in the score; scores are tasks per second and, with {@code -prof gc},
 * {@code gc.alloc.rate.norm} is already bytes per task. Two producers never hold more
 * than {@code 2 x BATCH} tasks in a queue of {@value #QUEUE_CAPACITY}, so no task is ever
 * rejected (a rejection would throw and fail the run). The tasks are made once and
 * submitted again in every batch, so what is allocated per task is the executor's own.
 * <p>
 * The {@code 1us} task busy-spins on {@link System#nanoTime()} for one microsecond of
 * wall-clock time (rather than {@code Blackhole.consumeCPU}, whose tokens-to-time ratio
 * depends on the machine), so its duration is the same whatever the JIT does with it.
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

	static final int BATCH = 256;

	static final int QUEUE_CAPACITY = 1024;

	static final long ONE_MICROSECOND = 1_000;

	/**
	 * The executor under test: a raw {@link ThreadPoolExecutor}; two controls that do
	 * what a managed pool does for a task it does not time, the counts alone
	 * ({@code counting-floor}) and the counts and the draw that picks timed tasks
	 * ({@code drawing-floor}), see {@link CountingFloorExecutor}; a raw one that only
	 * carries each task's submit time in a wrapper and reads the clock around it, the
	 * floor for timing every task; poolpilot's {@link ManagedExecutor} in its default
	 * configuration ({@code managed}), the same without its sampler thread
	 * ({@code managed-no-occupancy}, a control), asked for every task timed
	 * ({@code managed-full}, which is the default configuration too since timing adapts
	 * to the load) or for one in 16 at most; Micrometer's timed executor around a raw
	 * pool; a pool tracking submit times in a map; DynamicTp's {@link DtpExecutor} with
	 * its per-task monitoring registered; poolpilot's virtual pool in its default
	 * configuration, 2 permits; a bare virtual thread per task
	 * ({@code Executors.newVirtualThreadPerTaskExecutor()}, unbounded). The last two need
	 * Java 21 or later.
	 */
	@Param({ "raw", "counting-floor", "drawing-floor", "timing-floor", "managed", "managed-no-occupancy",
			"managed-full", "managed-sampled", "micrometer", "map-tracking", "dynamictp", "virtual", "virtual-bare" })
	public String executor = "raw";

	/**
	 * The task: {@code trivial} only counts down its batch, {@code 1us} first spins for a
	 * microsecond.
	 */
	@Param({ "trivial", "1us" })
	public String task = "trivial";

	/**
	 * The pool's threads. With JMH's {@code -t}, the producers: the default, 2 producers
	 * and 2 threads, asks for four busy threads, which on a machine of fewer than four
	 * CPUs measures how the scheduler shares them more than the executors' own work
	 * ({@code -t 1 -p poolSize=1} is the shape for two CPUs).
	 */
	@Param({ "2" })
	public int poolSize = 2;

	ExecutorService pool;

	/**
	 * How many tasks the executor's own instrumentation saw finish: checked after the
	 * trial, so that a variant whose measuring was never switched on cannot pass for a
	 * cheap one.
	 */
	LongSupplier measuredTasks;

	@Nullable PoolSampler sampler;

	@Nullable PoolRecorder recorder;

	long spinNanos;

	@Setup(Level.Trial)
	public void createPool() {
		this.spinNanos = switch (this.task) {
			case "trivial" -> 0;
			case "1us" -> ONE_MICROSECOND;
			default -> throw new IllegalArgumentException("Unknown task " + this.task);
		};
		this.pool = switch (this.executor) {
			case "raw" -> raw();
			case "counting-floor" -> countingFloor(false);
			case "drawing-floor" -> countingFloor(true);
			case "timing-floor" -> timingFloor();
			case "managed", "managed-full" -> managed(PoolRecorder.builder().build(), false);
			case "managed-sampled" -> managed(PoolRecorder.builder().timingSampleEvery(16).build(), false);
			case "managed-no-occupancy" -> managedWithoutSampler();
			case "virtual" -> managed(PoolRecorder.builder().build(), true);
			case "virtual-bare" -> virtualBare();
			case "micrometer" -> micrometer();
			case "map-tracking" -> mapTracking();
			case "dynamictp" -> dynamicTp();
			default -> throw new IllegalArgumentException("Unknown executor " + this.executor);
		};
	}

	@TearDown(Level.Trial)
	public void shutDownPool() throws InterruptedException {
		if (this.sampler != null) {
			this.sampler.close();
		}
		this.pool.shutdown();
		if (!this.pool.awaitTermination(10, TimeUnit.SECONDS)) {
			throw new IllegalStateException("Pool " + this.executor + " did not terminate");
		}
		if (this.measuredTasks.getAsLong() == 0) {
			throw new IllegalStateException("The instrumentation of " + this.executor + " measured no task");
		}
		if (this.recorder != null && this.recorder.taskCounts().rejected() != 0) {
			throw new IllegalStateException("Tasks were rejected: the op must measure submit and run only");
		}
	}

	@Benchmark
	@OperationsPerInvocation(BATCH)
	public void submitAndRun(Producer producer) {
		ExecutorService pool = this.pool;
		producer.thread = Thread.currentThread();
		producer.remaining.set(BATCH);
		for (Runnable task : producer.tasks) {
			pool.execute(task);
		}
		while (producer.remaining.get() != 0) {
			LockSupport.park(this);
		}
	}

	private ThreadPoolExecutor raw() {
		ThreadPoolExecutor executor = new ThreadPoolExecutor(this.poolSize, this.poolSize, 60, TimeUnit.SECONDS,
				new ArrayBlockingQueue<>(QUEUE_CAPACITY));
		this.measuredTasks = executor::getCompletedTaskCount;
		return executor;
	}

	private ExecutorService countingFloor(boolean drawn) {
		CountingFloorExecutor executor = new CountingFloorExecutor(this.poolSize, QUEUE_CAPACITY, drawn);
		this.measuredTasks = executor::submitted;
		return executor;
	}

	private ExecutorService timingFloor() {
		TimingFloorExecutor executor = new TimingFloorExecutor(this.poolSize);
		this.measuredTasks = executor::getCompletedTaskCount;
		return executor;
	}

	/**
	 * Build a managed pool whose measurement window a sampler closes every second, as
	 * poolpilot does in an application: the recorder chooses from each window how many
	 * tasks to time.
	 */
	private ExecutorService managed(PoolRecorder recorder, boolean virtual) {
		ManagedExecutorBuilder builder = ManagedExecutor
			.builder("bench", new PoolBounds(this.poolSize, this.poolSize), QUEUE_CAPACITY)
			.sizes(this.poolSize, this.poolSize)
			.recorder(recorder);
		ExecutorService executor = virtual ? builder.buildVirtual() : builder.build();
		ManagedExecutorService managed = (ManagedExecutorService) executor;
		PoolRegistry registry = new PoolRegistry(null);
		registry.register(managed.getPool());
		this.sampler = new PoolSampler(registry, Duration.ofSeconds(1));
		this.sampler.start();
		this.recorder = recorder;
		this.measuredTasks = () -> recorder.taskCounts().completed();
		return executor;
	}

	/**
	 * Build a managed pool that times one task in 8000 from the start, as the default
	 * configuration does at about eight million tasks a second, with no sampler: no
	 * thread wakes every millisecond to read its occupancy and no window closes. A
	 * control that tells the sampler's cost from the task path's.
	 */
	private ExecutorService managedWithoutSampler() {
		PoolRecorder recorder = PoolRecorder.builder().timingSampleEvery(8000).build();
		ExecutorService executor = ManagedExecutor
			.builder("bench", new PoolBounds(this.poolSize, this.poolSize), QUEUE_CAPACITY)
			.sizes(this.poolSize, this.poolSize)
			.recorder(recorder)
			.build();
		this.recorder = recorder;
		this.measuredTasks = () -> recorder.taskCounts().completed();
		return executor;
	}

	/**
	 * A new virtual thread per task, the floor of what a virtual pool allocates; it
	 * measures nothing, so there is nothing to check.
	 */
	private ExecutorService virtualBare() {
		try {
			ExecutorService executor = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor")
				.invoke(null);
			this.measuredTasks = () -> 1;
			return executor;
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException("Virtual threads need Java 21 or later", ex);
		}
	}

	private ExecutorService micrometer() {
		MeterRegistry registry = new SimpleMeterRegistry();
		ExecutorService executor = ExecutorServiceMetrics.monitor(registry, raw(), "bench");
		this.measuredTasks = () -> registry.get("executor").tag("name", "bench").timer().count();
		return executor;
	}

	private ExecutorService mapTracking() {
		MapTrackingExecutor executor = new MapTrackingExecutor(this.poolSize);
		this.measuredTasks = executor::timedTasks;
		return executor;
	}

	/**
	 * Build a DtpExecutor and register its per-task monitoring (run-time stopwatch, queue
	 * and run timeouts, rejection counts) with DynamicTp's AwareManager, as its registry
	 * does for a pool in a Spring application. The registry's own path,
	 * {@code ExecutorWrapper.initialize()}, also sets up alarm notifications, which read
	 * their settings through a ContextManager that only DynamicTp's Spring module
	 * provides; they do not run per task.
	 */
	private ExecutorService dynamicTp() {
		DtpExecutor executor = ThreadPoolBuilder.newBuilder()
			.threadPoolName("bench")
			.corePoolSize(this.poolSize)
			.maximumPoolSize(this.poolSize)
			.workQueue(QueueTypeEnum.ARRAY_BLOCKING_QUEUE.getName(), QUEUE_CAPACITY)
			.buildDynamic();
		ExecutorWrapper wrapper = ExecutorWrapper.of(executor);
		AwareManager.register(wrapper);
		this.measuredTasks = () -> (long) wrapper.getThreadPoolStatProvider()
			.getPerformanceProvider()
			.getSnapshotAndReset()
			.getTps();
		return executor;
	}

	/**
	 * One producer's batch: distinct tasks, made once, that wake the producer when the
	 * last of them ran.
	 */
	@State(Scope.Thread)
	public static class Producer {

		final AtomicInteger remaining = new AtomicInteger();

		volatile @Nullable Thread thread;

		Runnable[] tasks = new Runnable[0];

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
	 * Does the least that timing every task takes: a wrapper carrying the submit time,
	 * and clock reads at start and end, kept in the wrapper and never aggregated.
	 */
	static final class TimingFloorExecutor extends ThreadPoolExecutor {

		TimingFloorExecutor(int poolSize) {
			super(poolSize, poolSize, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE_CAPACITY));
		}

		@Override
		public void execute(Runnable command) {
			super.execute(new Timed(command, System.nanoTime()));
		}

		static final class Timed implements Runnable {

			private final Runnable task;

			private final long submittedAt;

			long responseNanos;

			Timed(Runnable task, long submittedAt) {
				this.task = task;
				this.submittedAt = submittedAt;
			}

			@Override
			public void run() {
				long startedAt = System.nanoTime();
				this.task.run();
				long endedAt = System.nanoTime();
				this.responseNanos = (startedAt - this.submittedAt) + (endedAt - startedAt);
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

		private final LongAdder timedTasks = new LongAdder();

		private long arrivals;

		private long lastArrivalNanos;

		private double meanInterArrivalNanos;

		MapTrackingExecutor(int poolSize) {
			super(poolSize, poolSize, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE_CAPACITY));
		}

		@Override
		public void execute(Runnable command) {
			long now = System.nanoTime();
			synchronized (this) {
				if (this.arrivals > 0) {
					this.meanInterArrivalNanos += ((now - this.lastArrivalNanos) - this.meanInterArrivalNanos)
							/ this.arrivals;
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
				this.timedTasks.increment();
			}
		}

		long timedTasks() {
			return this.timedTasks.sum();
		}

	}

}
