package io.github.poolpilot.history;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.measure.PoolSnapshot.Rejections;

/**
 * One pool's last measurement windows in fixed arrays, one column per figure, so that its
 * memory is allocated once and never grows: the oldest sample is overwritten when the
 * ring is full. Rates and times are kept as {@code float}s, which is precise enough to
 * draw and halves their cost. Written by the sampler's thread, read by any.
 *
 * @author poolpilot authors
 */
final class SampleRing {

	private final long[] time;

	private final int[] corePoolSize;

	private final int[] maxPoolSize;

	private final int[] poolSize;

	private final int[] activeCount;

	private final int[] queueSize;

	private final int[] queueCapacity;

	private final float[] arrivalRate;

	private final float[] throughput;

	private final float[] meanQueueWaitMs;

	private final float[] p99QueueWaitMs;

	private final float[] meanServiceTimeMs;

	private final float[] p99ServiceTimeMs;

	private final float[] meanResponseTimeMs;

	private final int[] rejectedQueueFull;

	private final int[] rejectedQueueWait;

	private final int[] rejectedCircuitOpen;

	private final int[] rejectedShutdown;

	private final boolean[] limited;

	private int next;

	private int size;

	private @Nullable Rejections lastRejections;

	SampleRing(int capacity) {
		this.time = new long[capacity];
		this.corePoolSize = new int[capacity];
		this.maxPoolSize = new int[capacity];
		this.poolSize = new int[capacity];
		this.activeCount = new int[capacity];
		this.queueSize = new int[capacity];
		this.queueCapacity = new int[capacity];
		this.arrivalRate = new float[capacity];
		this.throughput = new float[capacity];
		this.meanQueueWaitMs = new float[capacity];
		this.p99QueueWaitMs = new float[capacity];
		this.meanServiceTimeMs = new float[capacity];
		this.p99ServiceTimeMs = new float[capacity];
		this.meanResponseTimeMs = new float[capacity];
		this.rejectedQueueFull = new int[capacity];
		this.rejectedQueueWait = new int[capacity];
		this.rejectedCircuitOpen = new int[capacity];
		this.rejectedShutdown = new int[capacity];
		this.limited = new boolean[capacity];
	}

	/**
	 * Add a window. Refusals are kept per sample, as the difference of the cumulative
	 * counts since the previous sample (none for the first, whose window's refusals
	 * cannot be told from the earlier ones).
	 */
	synchronized void add(long epochMillis, PoolSnapshot snapshot, boolean limited) {
		int i = this.next;
		PoolSnapshot.Sizes sizes = snapshot.sizes();
		this.time[i] = epochMillis;
		this.corePoolSize[i] = sizes.corePoolSize();
		this.maxPoolSize[i] = sizes.maxPoolSize();
		this.poolSize[i] = sizes.poolSize();
		this.activeCount[i] = sizes.activeCount();
		this.queueSize[i] = sizes.queueSize();
		this.queueCapacity[i] = sizes.queueCapacity();
		this.arrivalRate[i] = (float) snapshot.littlesLaw().arrivalRate();
		this.throughput[i] = (float) snapshot.littlesLaw().throughput();
		this.meanQueueWaitMs[i] = (float) snapshot.queueWait().meanMs();
		this.p99QueueWaitMs[i] = (float) snapshot.queueWait().p99Ms();
		this.meanServiceTimeMs[i] = (float) snapshot.serviceTime().meanMs();
		this.p99ServiceTimeMs[i] = (float) snapshot.serviceTime().p99Ms();
		this.meanResponseTimeMs[i] = (float) snapshot.responseTime().meanMs();
		Rejections now = snapshot.tasks().rejections();
		Rejections before = (this.lastRejections != null) ? this.lastRejections : now;
		this.rejectedQueueFull[i] = delta(now.queueFull(), before.queueFull());
		this.rejectedQueueWait[i] = delta(now.queueWait(), before.queueWait());
		this.rejectedCircuitOpen[i] = delta(now.circuitOpen(), before.circuitOpen());
		this.rejectedShutdown[i] = delta(now.shutdown(), before.shutdown());
		this.lastRejections = now;
		this.limited[i] = limited;
		this.next = (i + 1) % this.time.length;
		this.size = Math.min(this.size + 1, this.time.length);
	}

	private static int delta(long now, long before) {
		return (int) Math.min(Integer.MAX_VALUE, Math.max(0, now - before));
	}

	/**
	 * Copy the samples taken after a time, no older than another and up to a third,
	 * oldest first.
	 */
	synchronized Samples read(long afterEpochMillis, long notBeforeEpochMillis, long upToEpochMillis) {
		int capacity = this.time.length;
		int first = Math.floorMod(this.next - this.size, capacity);
		int skip = 0;
		while (skip < this.size) {
			long t = this.time[(first + skip) % capacity];
			if (t > afterEpochMillis && t >= notBeforeEpochMillis) {
				break;
			}
			skip++;
		}
		int n = 0;
		while (skip + n < this.size && this.time[(first + skip + n) % capacity] <= upToEpochMillis) {
			n++;
		}
		Samples samples = new Samples(n);
		for (int k = 0; k < n; k++) {
			int i = (first + skip + k) % capacity;
			samples.time[k] = this.time[i];
			samples.corePoolSize[k] = this.corePoolSize[i];
			samples.maxPoolSize[k] = this.maxPoolSize[i];
			samples.poolSize[k] = this.poolSize[i];
			samples.activeCount[k] = this.activeCount[i];
			samples.queueSize[k] = this.queueSize[i];
			samples.queueCapacity[k] = this.queueCapacity[i];
			samples.arrivalRate[k] = this.arrivalRate[i];
			samples.throughput[k] = this.throughput[i];
			samples.meanQueueWaitMs[k] = this.meanQueueWaitMs[i];
			samples.p99QueueWaitMs[k] = this.p99QueueWaitMs[i];
			samples.meanServiceTimeMs[k] = this.meanServiceTimeMs[i];
			samples.p99ServiceTimeMs[k] = this.p99ServiceTimeMs[i];
			samples.meanResponseTimeMs[k] = this.meanResponseTimeMs[i];
			samples.rejectedQueueFull[k] = this.rejectedQueueFull[i];
			samples.rejectedQueueWait[k] = this.rejectedQueueWait[i];
			samples.rejectedCircuitOpen[k] = this.rejectedCircuitOpen[i];
			samples.rejectedShutdown[k] = this.rejectedShutdown[i];
			samples.limited[k] = this.limited[i];
		}
		return samples;
	}

	/**
	 * Return the bytes a ring's arrays take, computed from their lengths and element
	 * sizes plus a 16-byte array header each (a 64-bit JVM with compressed pointers).
	 * @param capacity the ring's capacity
	 * @return the bytes
	 */
	static long arrayBytes(int capacity) {
		return 19L * 16 + capacity * (8L + 6 * 4 + 7 * 4 + 4 * 4 + 1);
	}

}
