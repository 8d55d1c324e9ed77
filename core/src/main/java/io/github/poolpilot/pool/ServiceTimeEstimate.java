package io.github.poolpilot.pool;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.measure.PoolSnapshot;

/**
 * What a pool knows of how long its tasks run, from the windows it closed, and what
 * follows from it: the time a queue takes to drain. The one sampler of the pool writes it
 * once per window ({@link #windowClosed}); any thread reads it, a refused task's
 * Retry-After and the max-queue-wait guard among them.
 *
 * @author poolpilot authors
 */
final class ServiceTimeEstimate {

	private static final long NOT_WAITING = Long.MIN_VALUE;

	private final PoolExecutor executor;

	private final PoolRecorder recorder;

	private volatile @Nullable PoolSnapshot lastSnapshot;

	/**
	 * The least mean service time of any window with completions, or 0 before the first.
	 */
	private volatile double bestServiceMs;

	/**
	 * When the last window closed, on the recorder's clock: the start of the current one.
	 */
	private volatile long snapshotAt;

	/**
	 * When the pool last started to have work in flight with no task ending since: the
	 * start of the first such window, or {@link #NOT_WAITING}.
	 */
	private volatile long busySince = NOT_WAITING;

	ServiceTimeEstimate(PoolExecutor executor, PoolRecorder recorder) {
		this.executor = executor;
		this.recorder = recorder;
		this.snapshotAt = recorder.now();
	}

	/**
	 * A window closed: learn from its snapshot, which becomes the last one.
	 * @param snapshot the closed window's snapshot
	 */
	void windowClosed(PoolSnapshot snapshot) {
		long windowStart = this.snapshotAt;
		this.snapshotAt = this.recorder.now();
		double serviceMs = snapshot.littlesLaw().meanServiceTimeMs();
		if (snapshot.windowCompletions() > 0) {
			this.busySince = NOT_WAITING;
			if (serviceMs > 0 && (this.bestServiceMs == 0 || serviceMs < this.bestServiceMs)) {
				this.bestServiceMs = serviceMs;
			}
		}
		else if (this.busySince == NOT_WAITING
				&& (snapshot.windowArrivals() > 0 || snapshot.sizes().activeCount() > 0)) {
			this.busySince = windowStart;
		}
		this.lastSnapshot = snapshot;
	}

	@Nullable PoolSnapshot lastSnapshot() {
		return this.lastSnapshot;
	}

	/**
	 * See {@link ManagedPool#retryAfter(int)}.
	 */
	Duration retryAfter(int queued) {
		double drainRate = drainRate();
		return PoolRejectedException.retryAfter((drainRate > 0) ? queued / drainRate : 0);
	}

	/**
	 * See {@link ManagedPool#drainRate()}.
	 */
	double drainRate() {
		double serviceMs = expectedServiceMs();
		if (serviceMs > 0) {
			return this.executor.getMaximumPoolSize() * 1000 / serviceMs;
		}
		PoolSnapshot snapshot = this.lastSnapshot;
		return (snapshot != null) ? snapshot.littlesLaw().throughput() : 0;
	}

	/**
	 * See {@link ManagedPool#expectedServiceMs()}.
	 */
	double expectedServiceMs() {
		PoolSnapshot snapshot = this.lastSnapshot;
		if (snapshot == null) {
			return 0;
		}
		double lastServiceMs = snapshot.littlesLaw().meanServiceTimeMs();
		double known = (snapshot.windowCompletions() > 0 && lastServiceMs > 0) ? lastServiceMs : this.bestServiceMs;
		long since = this.busySince;
		if (since == NOT_WAITING && snapshot.windowCompletions() == 0 && this.executor.getActiveCount() > 0) {
			// Work started in the current window, and nothing ended in the last one.
			since = this.snapshotAt;
		}
		double waitedMs = (since != NOT_WAITING) ? (this.recorder.now() - since) / 1_000_000.0 : 0;
		return Math.max(known, waitedMs);
	}

}
