package io.github.poolpilot.benchmarks.scenarios;

import java.util.function.DoubleUnaryOperator;

import io.github.poolpilot.pool.PoolBounds;

/**
 * One pool of a scenario: its load and the settings every strategy starts it with.
 *
 * @param name the pool's name
 * @param workload what each of its tasks does
 * @param arrivalRate tasks offered per second, as a function of the second of the run
 * @param bounds the range a tuned pool's size stays in
 * @param startSize the size a tuned pool starts at
 * @param weight its share of the budget relative to the other pools'
 * @param queueCapacity the bounded queue of the managed pools (static and tuned)
 * @author poolpilot authors
 */
record PoolSpec(String name, Workload workload, DoubleUnaryOperator arrivalRate, PoolBounds bounds, int startSize,
		int weight, int queueCapacity) {

	/**
	 * The same pool under another load.
	 * @param rate tasks offered per second, as a function of the second of the run
	 * @return the pool with that load
	 */
	PoolSpec withArrivalRate(DoubleUnaryOperator rate) {
		return new PoolSpec(this.name, this.workload, rate, this.bounds, this.startSize, this.weight,
				this.queueCapacity);
	}

}
