package io.github.poolpilot.benchmarks.virtual;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.execution.ManagedExecutor;
import io.github.poolpilot.execution.ManagedExecutorBuilder;
import io.github.poolpilot.execution.ManagedExecutorService;
import io.github.poolpilot.measure.NanoClock;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.pool.PoolSampler;
import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.execution.VirtualManagedExecutor;
import io.github.poolpilot.tuning.Tuner;

/**
 * Scenarios S2 and S3 of docs/tuning.md on real threads, each with the pool on platform
 * threads and on virtual threads (Java 21+) under the same tuner, and a virtual thread
 * per task with no limit at all as the baseline virtual threads invite:
 * <ul>
 * <li>S2: 2 ms of CPU then 18 ms blocked per task, offered 300 tasks a second;</li>
 * <li>S3: a 20 ms call through a downstream that admits 8 calls at a time (400 a second
 * at most), offered 600 a second.</li>
 * </ul>
 * Arrivals are open-loop Poisson with a fixed seed (the same for every mode), and each
 * task's latency is measured from its intended start, so a pool that falls behind is
 * charged for the wait (no coordinated omission). Refused tasks are counted apart: their
 * caller got an answer at once (429). Each run is a JVM of its own, so that its peak RSS
 * is its own; the parent first waits for a quiet machine, calibrates the CPU work once
 * and writes one CSV line per run, plus the pool's size second by second.
 * <p>
 * Run on a JDK 21+ from the shaded jar:
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.github.poolpilot.benchmarks.virtual.VirtualScenarios \
 *     --out benchmarks/results/virtual-scenarios.csv
 * </pre>
 *
 * Options: {@code --scenarios S2,S3}, {@code --modes platform,virtual,virtual-unlimited},
 * {@code --settle 20s} (load that is not measured, while the tuner settles),
 * {@code --duration 30s} (the measured window that follows), {@code --seed 42},
 * {@code --wait-quiet 20m} (0 to skip), {@code --out FILE}.
 *
 * @author poolpilot authors
 */
public final class VirtualScenarios {

	static final String HEADER = "scenario,mode,offered_per_s,window_s,throughput_per_s,p50_ms,p99_ms,max_ms,"
			+ "rejected_per_s,unfinished,final_limit,limit_min,limit_max,peak_in_flight,peak_rss_mb,peak_heap_mb,"
			+ "cpu_s,others_cpu_avg,others_cpu_max,java";

	/**
	 * The pool's bounds and queue, as in the tuning simulator's scenarios.
	 */
	private static final int MAX_THREADS = 64;

	private static final int QUEUE_CAPACITY = 600;

	private VirtualScenarios() {
	}

	public static void main(String[] args) throws Exception {
		Options options = Options.parse(args);
		if (options.child != null) {
			Run run = new Run(options.child[0], options.child[1], options);
			System.out.println("RESULT," + run.execute());
			System.out.flush();
			return;
		}
		if (Runtime.version().feature() < 21 && options.modes.stream().anyMatch((mode) -> mode.startsWith("virtual"))) {
			System.err.println("The virtual modes need Java 21 or later; this is Java " + Runtime.version());
			System.exit(2);
		}
		String quiet = waitForQuietMachine(options.waitQuiet);
		long iterationsPerMilli = Cpu.calibrate();
		System.err.println("CPU work: " + iterationsPerMilli + " iterations per millisecond");
		List<String> results = new ArrayList<>();
		List<String> trace = new ArrayList<>();
		for (String scenario : options.scenarios) {
			for (String mode : options.modes) {
				System.err.println("== " + scenario + " " + mode);
				runChild(scenario, mode, iterationsPerMilli, options, results, trace);
			}
		}
		String comment = "# " + Instant.now() + ", " + Runtime.getRuntime().availableProcessors() + " CPUs, Java "
				+ Runtime.version() + ", seed " + options.seed + ", run " + options.duration.toSeconds()
				+ " s measured after " + options.settle.toSeconds() + " s, " + quiet;
		List<String> lines = new ArrayList<>();
		lines.add(comment);
		lines.add(HEADER);
		lines.addAll(results);
		Files.write(options.out, lines, StandardCharsets.UTF_8);
		Path tracePath = Path.of(options.out.toString().replaceFirst("\\.csv$", "") + "-trace.csv");
		List<String> traceLines = new ArrayList<>();
		traceLines.add(comment);
		traceLines.add("scenario,mode,second,limit,in_use,queued,completed,rejected,others_cpu,"
				+ "window_queue_wait_p99_ms,window_service_p99_ms");
		traceLines.addAll(trace);
		Files.write(tracePath, traceLines, StandardCharsets.UTF_8);
		System.out.println(comment);
		System.out.println(HEADER);
		results.forEach(System.out::println);
		System.err.println("Wrote " + options.out + " and " + tracePath);
	}

	private static void runChild(String scenario, String mode, long iterationsPerMilli, Options options,
			List<String> results, List<String> trace) throws IOException, InterruptedException {
		String java = ProcessHandle.current().info().command().orElse("java");
		List<String> command = new ArrayList<>(
				List.of(java, "-Xmx512m", "-XX:+UseG1GC", "-cp", System.getProperty("java.class.path"),
						VirtualScenarios.class.getName(), "--child", scenario, mode, "--cpu-iterations-per-ms",
						Long.toString(iterationsPerMilli), "--duration", options.duration.toSeconds() + "s", "--settle",
						options.settle.toSeconds() + "s", "--seed", Long.toString(options.seed)));
		Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
		try (BufferedReader reader = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
			String line;
			while ((line = reader.readLine()) != null) {
				if (line.startsWith("RESULT,")) {
					results.add(line.substring("RESULT,".length()));
					System.err.println(line);
				}
				else if (line.startsWith("TRACE,")) {
					trace.add(line.substring("TRACE,".length()));
				}
			}
		}
		if (process.waitFor() != 0) {
			throw new IllegalStateException(scenario + " " + mode + " failed with exit code " + process.exitValue());
		}
	}

	/**
	 * Wait until the 1-minute load average is below 0.7 and no other Java process runs,
	 * looking every 30 s, for at most the given time; return what was seen.
	 */
	static String waitForQuietMachine(Duration atMost) throws InterruptedException {
		long deadline = System.nanoTime() + atMost.toNanos();
		for (;;) {
			double load = loadAverage();
			List<String> others = otherJavaProcesses();
			boolean quiet = load < 0.7 && others.isEmpty();
			String seen = String.format(Locale.ROOT, "load %.2f and %d other java processes at %s", load, others.size(),
					Instant.now());
			if (quiet || atMost.isZero() || System.nanoTime() > deadline) {
				String verdict = quiet ? "quiet machine: " : "machine NOT quiet (gave up waiting): ";
				System.err.println(verdict + seen);
				return verdict + seen;
			}
			System.err.println("waiting for a quiet machine: " + seen + (others.isEmpty() ? "" : " " + others));
			Thread.sleep(30_000);
		}
	}

	static double loadAverage() {
		return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
	}

	private static List<String> otherJavaProcesses() {
		long self = ProcessHandle.current().pid();
		List<String> others = new ArrayList<>();
		ProcessHandle.allProcesses()
			.filter((process) -> process.pid() != self)
			.forEach((process) -> process.info().command().ifPresent((command) -> {
				if (command.endsWith("/java") || command.endsWith("java.exe")) {
					others.add(Long.toString(process.pid()));
				}
			}));
		return others;
	}

	/**
	 * One scenario in one mode, in this JVM.
	 */
	static final class Run {

		private final String scenario;

		private final String mode;

		private final Options options;

		private final double offered;

		private final Runnable work;

		private final int initialSize;

		private final Recorder latencies = new Recorder(3);

		private final LongAdder completedInWindow = new LongAdder();

		private final LongAdder rejectedInWindow = new LongAdder();

		private final AtomicInteger inFlight = new AtomicInteger();

		private final AtomicInteger peakInFlight = new AtomicInteger();

		private final AtomicInteger measuredOutstanding = new AtomicInteger();

		private final LongAdder rejectedTotal = new LongAdder();

		/**
		 * CPUs used by other processes, second by second in the window.
		 */
		private final List<Double> othersCpu = new ArrayList<>();

		private volatile long windowStart;

		private volatile long windowEnd;

		Run(String scenario, String mode, Options options) {
			this.scenario = scenario;
			this.mode = mode;
			this.options = options;
			long cpuIterations = options.cpuIterationsPerMilli * 2;
			if ("S2".equals(scenario)) {
				// 2 ms of CPU, then 18 ms blocked.
				this.offered = 300;
				this.initialSize = 2;
				this.work = () -> {
					Cpu.burn(cpuIterations);
					sleep(18);
				};
			}
			else if ("S3".equals(scenario)) {
				// A 20 ms call through a downstream that admits 8 at a time.
				Semaphore downstream = new Semaphore(8, true);
				this.offered = 600;
				this.initialSize = 4;
				this.work = () -> {
					downstream.acquireUninterruptibly();
					try {
						sleep(20);
					}
					finally {
						downstream.release();
					}
				};
			}
			else {
				throw new IllegalArgumentException("Unknown scenario " + scenario);
			}
		}

		String execute() throws Exception {
			long cpuStart = processCpuNanos();
			PoolRegistry registry = new PoolRegistry(null);
			ExecutorService unlimited = null;
			ManagedExecutorService pool = null;
			PoolSampler sampler = null;
			switch (this.mode) {
				case "platform", "virtual" -> {
					ManagedExecutorBuilder builder = ManagedExecutor
						.builder(this.scenario, new PoolBounds(1, MAX_THREADS), QUEUE_CAPACITY)
						.sizes(this.initialSize, this.initialSize);
					pool = "virtual".equals(this.mode) ? builder.buildVirtual() : builder.build();
					registry.register(pool.getPool());
					Tuner tuner = new Tuner(registry, NanoClock.SYSTEM, Tuner.processCpuLoad(),
							(managed, decision) -> System.err
								.println(this.scenario + " " + this.mode + ": " + decision.reason()));
					sampler = new PoolSampler(registry, Duration.ofSeconds(1), tuner::tick);
					sampler.start();
				}
				case "virtual-unlimited" -> unlimited = newVirtualThreadPerTaskExecutor();
				default -> throw new IllegalArgumentException("Unknown mode " + this.mode);
			}
			List<Integer> limits = new ArrayList<>();
			Thread tracer = startTracer(pool, limits);
			long start = System.nanoTime();
			this.windowStart = start + this.options.settle.toNanos();
			this.windowEnd = this.windowStart + this.options.duration.toNanos();
			HeapPeak heap = new HeapPeak();
			heap.start();
			produce(start, (pool != null) ? pool : unlimited);
			// Let what was accepted in the window finish, for at most 60 s; what does not
			// is charged with the time it has waited so far.
			long drainDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
			while (this.measuredOutstanding.get() > 0 && System.nanoTime() < drainDeadline) {
				Thread.sleep(50);
			}
			int unfinished = this.measuredOutstanding.get();
			tracer.interrupt();
			tracer.join();
			heap.interrupt();
			heap.join();
			int finalLimit = (pool != null) ? pool.getPool().maxPoolSize() : -1;
			if (sampler != null) {
				sampler.close();
			}
			if (pool != null) {
				pool.shutdownNow();
				pool.awaitTermination(10, TimeUnit.SECONDS);
			}
			if (unlimited != null) {
				unlimited.shutdownNow();
			}
			Histogram histogram = this.latencies.getIntervalHistogram();
			double window = this.options.duration.toNanos() / 1e9;
			int limitMin = limits.stream().mapToInt(Integer::intValue).min().orElse(-1);
			int limitMax = limits.stream().mapToInt(Integer::intValue).max().orElse(-1);
			double cpuSeconds = (processCpuNanos() - cpuStart) / 1e9;
			double othersAverage;
			double othersMost;
			synchronized (limits) {
				othersAverage = this.othersCpu.stream().mapToDouble(Double::doubleValue).average().orElse(-1);
				othersMost = this.othersCpu.stream().mapToDouble(Double::doubleValue).max().orElse(-1);
			}
			return String.format(Locale.ROOT,
					"%s,%s,%.0f,%.0f,%.1f,%.1f,%.1f,%.1f,%.1f,%d,%d,%d,%d,%d,%d,%d,%.1f,%.2f,%.2f,%s", this.scenario,
					this.mode, this.offered, window, this.completedInWindow.sum() / window,
					histogram.getValueAtPercentile(50) / 1000.0, histogram.getValueAtPercentile(99) / 1000.0,
					histogram.getMaxValue() / 1000.0, this.rejectedInWindow.sum() / window, unfinished, finalLimit,
					limitMin, limitMax, this.peakInFlight.get(), peakRssMegabytes(), heap.peakMegabytes(), cpuSeconds,
					othersAverage, othersMost, Runtime.version().feature());
		}

		/**
		 * Submit tasks at their Poisson arrival times until the end of the window; a task
		 * is measured when its intended start falls in the window.
		 */
		private void produce(long start, Executor executor) {
			SplittableRandom random = new SplittableRandom(this.options.seed);
			double meanGapNanos = 1e9 / this.offered;
			long intended = start;
			while (true) {
				intended += (long) (-Math.log(1 - random.nextDouble()) * meanGapNanos);
				if (intended >= this.windowEnd) {
					return;
				}
				long wait;
				while ((wait = intended - System.nanoTime()) > 0) {
					LockSupport.parkNanos(wait);
				}
				boolean measured = intended >= this.windowStart;
				if (measured) {
					this.measuredOutstanding.incrementAndGet();
				}
				try {
					executor.execute(new Call(intended, measured));
				}
				catch (RejectedExecutionException ex) {
					this.rejectedTotal.increment();
					if (measured) {
						this.rejectedInWindow.increment();
						this.measuredOutstanding.decrementAndGet();
					}
				}
			}
		}

		private Thread startTracer(@Nullable ManagedExecutorService managed, List<Integer> limits) {
			ThreadPoolExecutor pool = (managed != null) ? managed.asThreadPoolExecutor() : null;
			Thread tracer = new Thread(() -> {
				long start = System.nanoTime();
				MachineCpu machine = MachineCpu.read();
				int second = 0;
				while (!Thread.currentThread().isInterrupted()) {
					second++;
					long next = start + TimeUnit.SECONDS.toNanos(second);
					long wait;
					while ((wait = next - System.nanoTime()) > 0) {
						LockSupport.parkNanos(wait);
						if (Thread.currentThread().isInterrupted()) {
							return;
						}
					}
					int limit = (pool != null) ? pool.getMaximumPoolSize() : -1;
					int inUse = (pool != null) ? pool.getPoolSize() : this.inFlight.get();
					int queued = (pool != null) ? pool.getQueue().size() : 0;
					long completed = (pool != null) ? pool.getCompletedTaskCount() : -1;
					long now = System.nanoTime();
					MachineCpu previous = machine;
					machine = MachineCpu.read();
					double others = machine.othersSince(previous);
					if (now >= this.windowStart && now <= this.windowEnd) {
						synchronized (limits) {
							limits.add(limit);
							this.othersCpu.add(others);
						}
					}
					PoolSnapshot snapshot = (managed != null) ? managed.getPool().lastSnapshot() : null;
					String percentiles = (snapshot != null) ? String.format(Locale.ROOT, "%.1f,%.1f",
							snapshot.queueWait().p99Ms(), snapshot.serviceTime().p99Ms()) : ",";
					System.out.println("TRACE," + this.scenario + "," + this.mode + "," + second + "," + limit + ","
							+ inUse + "," + queued + "," + completed + "," + this.rejectedTotal.sum() + ","
							+ String.format(Locale.ROOT, "%.2f", others) + "," + percentiles);
				}
			}, "tracer");
			tracer.setDaemon(true);
			tracer.start();
			return tracer;
		}

		/**
		 * One task, timed from its intended start.
		 */
		private final class Call implements Runnable {

			private final long intended;

			private final boolean measured;

			Call(long intended, boolean measured) {
				this.intended = intended;
				this.measured = measured;
			}

			@Override
			public void run() {
				Run run = Run.this;
				run.peakInFlight.accumulateAndGet(run.inFlight.incrementAndGet(), Math::max);
				try {
					run.work.run();
				}
				finally {
					long end = System.nanoTime();
					run.inFlight.decrementAndGet();
					if (end >= run.windowStart && end < run.windowEnd) {
						run.completedInWindow.increment();
					}
					if (this.measured) {
						run.latencies.recordValue(Math.max(0, (end - this.intended) / 1000));
						run.measuredOutstanding.decrementAndGet();
					}
				}
			}

		}

	}

	/**
	 * The machine's CPU time from {@code /proc/stat} and this JVM's own, to tell how many
	 * CPUs other processes used meanwhile: a run they disturbed shows it.
	 *
	 * @param busy jiffies spent busy by all CPUs
	 * @param total all jiffies of all CPUs
	 * @param wallNanos when it was read
	 * @param ownCpuNanos this JVM's CPU time then
	 */
	record MachineCpu(long busy, long total, long wallNanos, long ownCpuNanos) {

		static MachineCpu read() {
			long busy = -1;
			long total = -1;
			try {
				String[] fields = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
				// cpu user nice system idle iowait irq softirq steal ...
				long idle = Long.parseLong(fields[4]) + Long.parseLong(fields[5]);
				busy = Long.parseLong(fields[1]) + Long.parseLong(fields[2]) + Long.parseLong(fields[3])
						+ Long.parseLong(fields[6]) + Long.parseLong(fields[7]) + Long.parseLong(fields[8]);
				total = busy + idle;
			}
			catch (IOException | RuntimeException ex) {
				// not Linux
			}
			return new MachineCpu(busy, total, System.nanoTime(), processCpuNanos());
		}

		/**
		 * Return the CPUs (0 to the CPU count) that other processes used since the given
		 * reading, or -1 when unknown.
		 */
		double othersSince(MachineCpu previous) {
			if (this.busy < 0 || previous.busy < 0 || this.total <= previous.total) {
				return -1;
			}
			int cpus = Runtime.getRuntime().availableProcessors();
			double machineCpus = (double) (this.busy - previous.busy) / (this.total - previous.total) * cpus;
			double ownCpus = (double) (this.ownCpuNanos - previous.ownCpuNanos) / (this.wallNanos - previous.wallNanos);
			return Math.max(0, machineCpus - ownCpus);
		}

	}

	/**
	 * Samples the used heap every 50 ms and keeps the largest value.
	 */
	static final class HeapPeak extends Thread {

		private volatile long peak;

		HeapPeak() {
			super("heap-peak");
			setDaemon(true);
		}

		@Override
		public void run() {
			while (!isInterrupted()) {
				long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
				this.peak = Math.max(this.peak, used);
				try {
					Thread.sleep(50);
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		}

		long peakMegabytes() {
			return this.peak / (1024 * 1024);
		}

	}

	/**
	 * CPU work of a known length on an idle core, the same in every mode.
	 */
	static final class Cpu {

		static volatile long sink;

		private Cpu() {
		}

		static void burn(long iterations) {
			long x = 0x9E3779B97F4A7C15L;
			for (long i = 0; i < iterations; i++) {
				x ^= x << 13;
				x ^= x >>> 7;
				x ^= x << 17;
			}
			sink = x;
		}

		/**
		 * Return the iterations of {@link #burn} that take a millisecond here: the
		 * fastest of several trials, after a warm-up, so that a busy moment does not
		 * inflate it.
		 */
		static long calibrate() {
			long iterations = 100_000;
			for (int i = 0; i < 50; i++) {
				burn(iterations);
			}
			long best = Long.MAX_VALUE;
			for (int i = 0; i < 30; i++) {
				long start = System.nanoTime();
				burn(iterations);
				best = Math.min(best, System.nanoTime() - start);
			}
			return Math.max(1, iterations * 1_000_000 / best);
		}

	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static long processCpuNanos() {
		if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
			return os.getProcessCpuTime();
		}
		return 0;
	}

	/**
	 * Return the peak resident set size of this JVM (VmHWM), or -1 where
	 * {@code /proc/self/status} does not exist.
	 */
	static long peakRssMegabytes() {
		try {
			for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
				if (line.startsWith("VmHWM:")) {
					return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// not Linux
		}
		return -1;
	}

	/**
	 * {@code Executors.newVirtualThreadPerTaskExecutor()}, reached by reflection since
	 * this module is compiled for Java 17.
	 */
	static ExecutorService newVirtualThreadPerTaskExecutor() throws ReflectiveOperationException {
		if (!VirtualManagedExecutor.isSupported()) {
			throw new IllegalStateException(VirtualManagedExecutor.unsupportedMessage());
		}
		return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
	}

	/**
	 * Command-line options.
	 */
	static final class Options {

		List<String> scenarios = List.of("S2", "S3");

		List<String> modes = List.of("platform", "virtual", "virtual-unlimited");

		Duration duration = Duration.ofSeconds(30);

		Duration settle = Duration.ofSeconds(20);

		Duration waitQuiet = Duration.ofMinutes(20);

		long seed = 42;

		long cpuIterationsPerMilli;

		Path out = Path.of("virtual-scenarios.csv");

		String[] child;

		static Options parse(String[] args) {
			Options options = new Options();
			for (int i = 0; i < args.length; i++) {
				switch (args[i]) {
					case "--scenarios" -> options.scenarios = List.of(args[++i].split(","));
					case "--modes" -> options.modes = List.of(args[++i].split(","));
					case "--duration" -> options.duration = duration(args[++i]);
					case "--settle" -> options.settle = duration(args[++i]);
					case "--wait-quiet" -> options.waitQuiet = duration(args[++i]);
					case "--seed" -> options.seed = Long.parseLong(args[++i]);
					case "--out" -> options.out = Path.of(args[++i]);
					case "--cpu-iterations-per-ms" -> options.cpuIterationsPerMilli = Long.parseLong(args[++i]);
					case "--child" -> options.child = new String[] { args[++i], args[++i] };
					default -> throw new IllegalArgumentException("Unknown option " + args[i]);
				}
			}
			return options;
		}

		private static Duration duration(String text) {
			String value = text.toLowerCase(Locale.ROOT);
			if (value.endsWith("ms")) {
				return Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2)));
			}
			if (value.endsWith("m")) {
				return Duration.ofMinutes(Long.parseLong(value.substring(0, value.length() - 1)));
			}
			return Duration.ofSeconds(Long.parseLong(value.replace("s", "")));
		}

	}

}
