package io.github.poolpilot.benchmarks.scenarios;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Every task a run offers, made in advance from a seed: which pool it goes to, when it is
 * meant to arrive, and how much CPU and blocking time it takes. Each pool's arrivals are
 * an open-loop Poisson process at its arrival rate, so a strategy that falls behind gets
 * no fewer tasks, and every strategy of a scenario is offered exactly the same tasks.
 *
 * @author poolpilot authors
 */
final class Schedule {

	private static final long MILLISECOND = 1_000_000L;

	private final int[] pool;

	private final long[] intendedNanos;

	private final long[] cpuNanos;

	private final long[] blockNanos;

	Schedule(int[] pool, long[] intendedNanos, long[] cpuNanos, long[] blockNanos) {
		this.pool = pool;
		this.intendedNanos = intendedNanos;
		this.cpuNanos = cpuNanos;
		this.blockNanos = blockNanos;
	}

	/**
	 * Make the tasks of the given pools over a number of seconds. Each pool draws from
	 * its own generator seeded from the seed and its index, its gaps first and then each
	 * task's times, so the same seed always gives the same tasks. While a pool's rate is
	 * 0 the next arrival is looked for a millisecond later, as in the simulator.
	 * @param pools the pools and their loads
	 * @param seconds how long arrivals go on
	 * @param seed the seed
	 * @return the tasks, in order of intended arrival
	 */
	static Schedule generate(List<PoolSpec> pools, int seconds, long seed) {
		record Arrival(int pool, long at, long cpu, long block) {
		}
		List<Arrival> arrivals = new ArrayList<>();
		long end = seconds * Runs.SECOND;
		for (int index = 0; index < pools.size(); index++) {
			PoolSpec spec = pools.get(index);
			SplittableRandom random = new SplittableRandom(seed * 1_000_003L + index);
			long at = 0;
			while (true) {
				double rate = spec.arrivalRate().applyAsDouble((double) at / Runs.SECOND);
				if (rate <= 0) {
					at += MILLISECOND;
				}
				else {
					at += Math.max(1, (long) (-Math.log(1 - random.nextDouble()) / rate * Runs.SECOND));
				}
				if (at >= end) {
					break;
				}
				if (rate > 0) {
					Workload workload = spec.workload();
					long cpu = workload.draw(workload.cpuMs(), random);
					long block = workload.draw(workload.blockMs(), random);
					double factor = workload.drawFactor(random);
					arrivals.add(new Arrival(index, at, (long) (cpu * factor), (long) (block * factor)));
				}
			}
		}
		arrivals.sort(Comparator.comparingLong(Arrival::at).thenComparingInt(Arrival::pool));
		int size = arrivals.size();
		int[] pool = new int[size];
		long[] intended = new long[size];
		long[] cpu = new long[size];
		long[] block = new long[size];
		for (int i = 0; i < size; i++) {
			Arrival arrival = arrivals.get(i);
			pool[i] = arrival.pool();
			intended[i] = arrival.at();
			cpu[i] = arrival.cpu();
			block[i] = arrival.block();
		}
		return new Schedule(pool, intended, cpu, block);
	}

	int size() {
		return this.pool.length;
	}

	int pool(int task) {
		return this.pool[task];
	}

	long intendedNanos(int task) {
		return this.intendedNanos[task];
	}

	long cpuNanos(int task) {
		return this.cpuNanos[task];
	}

	long blockNanos(int task) {
		return this.blockNanos[task];
	}

}
