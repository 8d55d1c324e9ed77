package io.github.poolpilot.guard;

import java.time.Duration;

import io.github.poolpilot.measure.RejectionReason;

import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRejectedException;

/**
 * A pool's max-queue-wait: a bound on how long an accepted task waits for a thread,
 * whatever the queue's length.
 * <p>
 * The rule follows CoDel's finding that the time tasks spend queued, not how many are
 * queued, is what tells a useful queue (it absorbs a burst) from a harmful one (a
 * standing queue that only adds delay). It is enforced twice:
 * <ul>
 * <li>at submit, a task is refused when its expected wait is over the target: the tasks
 * ahead of it, plus itself, divided by the rate at which the pool's threads take tasks
 * off the queue while all are busy ({@link ManagedPool#drainRate()}: size / mean service
 * time, the throughput a saturated pool delivers);</li>
 * <li>when a thread takes a task, a task that has already waited longer than the target
 * is not run but refused: its future fails with the rejection. This is the deadline form
 * of CoDel used by Facebook's servers, with one target; with the check at submit a
 * standing queue cannot build up, so it catches only the tasks the estimate got wrong, as
 * when the service time grew. A task whose caller cannot be told (a plain
 * {@code Runnable}) is run anyway.</li>
 * </ul>
 * Both refusals are counted as {@link RejectionReason#QUEUE_WAIT}, apart from a full
 * queue.
 *
 * @author poolpilot authors
 */
public final class QueueWaitLimit implements TaskGuard {

	private static final double NANOS_PER_SECOND = 1_000_000_000.0;

	private final ManagedPool pool;

	private final long targetNanos;

	/**
	 * Create a limit.
	 * @param pool the pool it guards
	 * @param target the longest an accepted task should wait in the queue
	 */
	public QueueWaitLimit(ManagedPool pool, Duration target) {
		if (target.isNegative() || target.isZero()) {
			throw new IllegalArgumentException(
					"max-queue-wait of pool '" + pool.getName() + "' must be a positive duration but was " + target);
		}
		this.pool = pool;
		this.targetNanos = target.toNanos();
	}

	/**
	 * Return the target.
	 * @return the longest an accepted task should wait in the queue
	 */
	public Duration getTarget() {
		return Duration.ofNanos(this.targetNanos);
	}

	@Override
	public void beforeSubmit() {
		int queued = this.pool.getExecutor().getQueueSize();
		if (queued == 0) {
			return;
		}
		double drainRate = this.pool.drainRate();
		if (drainRate > 0 && (queued + 1) / drainRate * NANOS_PER_SECOND > this.targetNanos) {
			throw rejection(queued);
		}
	}

	@Override
	public void beforeRun(long queueWaitNanos, boolean refusable) {
		if (refusable && queueWaitNanos > this.targetNanos) {
			throw rejection(this.pool.getExecutor().getQueueSize());
		}
	}

	/**
	 * A refusal whose Retry-After is the time the tasks queued now take to drain, as the
	 * pool estimates it for any refusal ({@link ManagedPool#retryAfter}).
	 */
	private PoolRejectedException rejection(int queued) {
		return new PoolRejectedException(this.pool.getName(), RejectionReason.QUEUE_WAIT, this.pool.retryAfter(queued));
	}

}
