package io.github.poolpilot.benchmarks.scenarios;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * Samples a strategy's pools every {@value #PERIOD_MILLIS} ms during a run: each pool's
 * size, live threads and queue, the live threads of all pools together, and once a second
 * the CPU used by this process and by the whole machine, so that a run disturbed by
 * another process shows it.
 * <p>
 * It reads CPU time as cumulative counters ({@code getProcessCpuTime()} and
 * {@code /proc/stat}) rather than through {@code getProcessCpuLoad()}, whose reading
 * covers the time since its previous call by anyone: calling it here would shorten the
 * interval the tuner's own reading covers.
 *
 * @author poolpilot authors
 */
final class Monitor {

	static final int PERIOD_MILLIS = 10;

	private static final Path PROC_STAT = Path.of("/proc/stat");

	private final List<Target> targets;

	private final int seconds;

	private final int[][] size;

	private final int[][] liveMax;

	private final int[][] queued;

	private final int[] totalLiveMax;

	private final double[] processCpu;

	private final double[] machineCpu;

	private final int cores = Runtime.getRuntime().availableProcessors();

	private @Nullable ScheduledExecutorService scheduler;

	private long startNanos;

	private int lastSecond = -1;

	private long secondStartNanos;

	private long secondStartProcessCpu;

	private long @Nullable [] secondStartMachine;

	Monitor(List<Target> targets, int seconds) {
		this.targets = targets;
		this.seconds = seconds;
		this.size = new int[targets.size()][seconds];
		this.liveMax = new int[targets.size()][seconds];
		this.queued = new int[targets.size()][seconds];
		this.totalLiveMax = new int[seconds];
		this.processCpu = new double[seconds];
		this.machineCpu = new double[seconds];
		Arrays.fill(this.processCpu, Double.NaN);
		Arrays.fill(this.machineCpu, Double.NaN);
	}

	/**
	 * Start sampling.
	 * @param startNanos when the run started, by {@link System#nanoTime()}
	 */
	void start(long startNanos) {
		this.startNanos = startNanos;
		this.scheduler = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "scenario-monitor");
			thread.setDaemon(true);
			return thread;
		});
		this.scheduler.scheduleAtFixedRate(this::sample, 0, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
	}

	/**
	 * Stop sampling; the figures may be read after this returned.
	 */
	void stop() {
		ScheduledExecutorService scheduler = this.scheduler;
		if (scheduler == null) {
			return;
		}
		scheduler.shutdown();
		try {
			scheduler.awaitTermination(5, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void sample() {
		long now = System.nanoTime();
		int second = (int) Math.floorDiv(now - this.startNanos, Runs.SECOND);
		if (second < 0 || second >= this.seconds) {
			return;
		}
		if (second != this.lastSecond) {
			closeSecond(now);
			this.lastSecond = second;
		}
		int total = 0;
		for (int pool = 0; pool < this.targets.size(); pool++) {
			Target target = this.targets.get(pool);
			int live = target.liveThreads();
			total += live;
			this.liveMax[pool][second] = Math.max(this.liveMax[pool][second], live);
			this.size[pool][second] = target.size();
			this.queued[pool][second] = target.queued();
		}
		this.totalLiveMax[second] = Math.max(this.totalLiveMax[second], total);
	}

	/**
	 * The CPU used since the last second started, charged to that second.
	 */
	private void closeSecond(long now) {
		long processCpu = processCpuNanos();
		long[] machine = machineTicks();
		if (this.lastSecond >= 0) {
			double elapsed = now - this.secondStartNanos;
			if (processCpu >= 0) {
				this.processCpu[this.lastSecond] = (processCpu - this.secondStartProcessCpu) / elapsed / this.cores;
			}
			if (machine != null && this.secondStartMachine != null) {
				long total = machine[0] - this.secondStartMachine[0];
				long idle = machine[1] - this.secondStartMachine[1];
				this.machineCpu[this.lastSecond] = (total > 0) ? (double) (total - idle) / total : Double.NaN;
			}
		}
		this.secondStartNanos = now;
		this.secondStartProcessCpu = processCpu;
		this.secondStartMachine = machine;
	}

	private static long processCpuNanos() {
		OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
		return (os instanceof com.sun.management.OperatingSystemMXBean sun) ? sun.getProcessCpuTime() : -1;
	}

	/**
	 * Return the machine's total and idle (idle + iowait) CPU ticks, or {@code null}
	 * where {@code /proc/stat} cannot be read.
	 */
	static long @Nullable [] machineTicks() {
		try {
			String line = Files.readAllLines(PROC_STAT).get(0);
			String[] fields = line.trim().split("\\s+");
			long total = 0;
			for (int i = 1; i < Math.min(fields.length, 9); i++) {
				total += Long.parseLong(fields[i]);
			}
			return new long[] { total, Long.parseLong(fields[4]) + Long.parseLong(fields[5]) };
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	int[] size(int pool) {
		return this.size[pool];
	}

	int[] liveMax(int pool) {
		return this.liveMax[pool];
	}

	int[] queued(int pool) {
		return this.queued[pool];
	}

	int[] totalLiveMax() {
		return this.totalLiveMax;
	}

	double[] processCpu() {
		return this.processCpu;
	}

	double[] machineCpu() {
		return this.machineCpu;
	}

}
