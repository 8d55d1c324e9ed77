package io.github.poolpilot.benchmarks.scenarios;

import java.util.SplittableRandom;

/**
 * What each task of a pool does, as in the simulator's {@code PoolSimulator.Workload}:
 * CPU time, then blocking time (both exact when {@code sigma} is 0, otherwise lognormal
 * with these means and that shape), the blocking part through a downstream that admits
 * {@code downstreamPermits} calls at a time (0 for no limit). A mixed workload, as a web
 * server's pool runs, makes a share of its tasks {@code heavyFactor} times as long in
 * both parts.
 *
 * @param cpuMs mean CPU time per task, spent as thread CPU time
 * @param blockMs mean blocking time per task, spent parked
 * @param sigma the lognormal shape, 0 for exact times
 * @param downstreamPermits calls the downstream admits at a time, 0 for no limit
 * @param heavyShare the share of the tasks that are heavy, 0 for one kind of task
 * @param heavyFactor how many times longer a heavy task's times are
 * @author poolpilot authors
 */
record Workload(double cpuMs, double blockMs, double sigma, int downstreamPermits, double heavyShare,
		double heavyFactor) {

	Workload(double cpuMs, double blockMs, double sigma, int downstreamPermits) {
		this(cpuMs, blockMs, sigma, downstreamPermits, 0, 1);
	}

	private static final double NANOS_PER_MILLI = 1_000_000.0;

	/**
	 * Draw one task's time around a mean.
	 * @param meanMs the mean, in milliseconds
	 * @param random the source of the draw
	 * @return the time in nanoseconds
	 */
	long draw(double meanMs, SplittableRandom random) {
		if (meanMs <= 0) {
			return 0;
		}
		if (this.sigma == 0) {
			return (long) (meanMs * NANOS_PER_MILLI);
		}
		double gaussian = gaussian(random);
		// exp(μ + σZ) has mean e^(μ + σ²/2): choose μ so that the mean is meanMs.
		return (long) (Math.exp(Math.log(meanMs) - this.sigma * this.sigma / 2 + this.sigma * gaussian)
				* NANOS_PER_MILLI);
	}

	/**
	 * Draw whether a task is heavy; draws nothing from a workload with one kind of task,
	 * so that its draws stay those of a workload without the choice.
	 * @param random the source of the draw
	 * @return the factor of the task's times: 1, or {@code heavyFactor}
	 */
	double drawFactor(SplittableRandom random) {
		return (this.heavyShare > 0 && random.nextDouble() < this.heavyShare) ? this.heavyFactor : 1;
	}

	/**
	 * Goetz's size, Ncpu · (1 + W/C), from the workload's known means: W the blocking
	 * time, C the CPU time. Without CPU time the formula has no bound, so it is capped.
	 * @param cores the processors
	 * @param cap the largest size to give
	 * @return the size
	 */
	int goetzSize(int cores, int cap) {
		if (this.cpuMs <= 0) {
			return cap;
		}
		return (int) Math.min(cap, Math.ceil(cores * (1 + this.blockMs / this.cpuMs)));
	}

	private static double gaussian(SplittableRandom random) {
		// Box-Muller, so that the draws depend on the seed alone.
		double u = 1 - random.nextDouble();
		double v = random.nextDouble();
		return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
	}

}
