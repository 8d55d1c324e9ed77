package io.github.poolpilot.benchmarks.scenarios;

/**
 * One tuner tick for one pool: the window the tuner read and what it decided.
 *
 * @param second when the tick ran, in seconds from the start of the run
 * @param pool the pool's name
 * @param from its size before the tick
 * @param to its size after
 * @param decision the tuner's reason, as {@code getLastDecision()} gives it
 * @param arrivalRate the window's offered tasks per second
 * @param throughput the window's finished tasks per second
 * @param serviceMs the window's mean service time
 * @param serviceP99Ms the 99th percentile of the service time in the window
 * @param busyThreads the window's busy threads, X·S
 * @param queued tasks queued when the window closed
 * @param cpuLoad the process CPU load the tuner read, 0 to 1
 * @param waitComputeRatio the window's measured W/C, or NaN before it is known
 * @param goetzThreads Goetz's size from the measured W/C, or -1 before it is known
 * @author poolpilot authors
 */
record TuningRecord(double second, String pool, int from, int to, String decision, double arrivalRate,
		double throughput, double serviceMs, double serviceP99Ms, double busyThreads, int queued, double cpuLoad,
		double waitComputeRatio, int goetzThreads) {

}
