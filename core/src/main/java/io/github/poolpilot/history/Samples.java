package io.github.poolpilot.history;

/**
 * A copy of one pool's samples, oldest first, one array per figure (the shape a chart
 * draws from). Its arrays belong to whoever read them.
 *
 * @author poolpilot authors
 */
public final class Samples {

	/** When each window closed, in epoch milliseconds. */
	public final long[] time;

	/** The core pool size. */
	public final int[] corePoolSize;

	/** The maximum pool size (the tuner's target in auto mode). */
	public final int[] maxPoolSize;

	/** The live threads. */
	public final int[] poolSize;

	/** The threads running a task. */
	public final int[] activeCount;

	/** The queued tasks. */
	public final int[] queueSize;

	/** The queue's capacity. */
	public final int[] queueCapacity;

	/** Tasks offered per second (λ), rejected ones included. */
	public final float[] arrivalRate;

	/** Tasks finished per second (X). */
	public final float[] throughput;

	/** The mean queue wait. */
	public final float[] meanQueueWaitMs;

	/** The 99th percentile of the queue wait. */
	public final float[] p99QueueWaitMs;

	/** The mean service time. */
	public final float[] meanServiceTimeMs;

	/** The 99th percentile of the service time. */
	public final float[] p99ServiceTimeMs;

	/** The mean response time (queue wait and service time). */
	public final float[] meanResponseTimeMs;

	/** Tasks refused for a full queue since the previous sample. */
	public final int[] rejectedQueueFull;

	/** Tasks refused for their queue wait since the previous sample. */
	public final int[] rejectedQueueWait;

	/** Tasks refused by an open circuit since the previous sample. */
	public final int[] rejectedCircuitOpen;

	/** Tasks refused while shutting down since the previous sample. */
	public final int[] rejectedShutdown;

	/** Whether the tuner found the pool short of threads it could not have. */
	public final boolean[] limited;

	Samples(int n) {
		this.time = new long[n];
		this.corePoolSize = new int[n];
		this.maxPoolSize = new int[n];
		this.poolSize = new int[n];
		this.activeCount = new int[n];
		this.queueSize = new int[n];
		this.queueCapacity = new int[n];
		this.arrivalRate = new float[n];
		this.throughput = new float[n];
		this.meanQueueWaitMs = new float[n];
		this.p99QueueWaitMs = new float[n];
		this.meanServiceTimeMs = new float[n];
		this.p99ServiceTimeMs = new float[n];
		this.meanResponseTimeMs = new float[n];
		this.rejectedQueueFull = new int[n];
		this.rejectedQueueWait = new int[n];
		this.rejectedCircuitOpen = new int[n];
		this.rejectedShutdown = new int[n];
		this.limited = new boolean[n];
	}

	/**
	 * Return how many samples there are.
	 * @return the length of every array
	 */
	public int size() {
		return this.time.length;
	}

}
