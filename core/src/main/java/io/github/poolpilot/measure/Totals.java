package io.github.poolpilot.measure;

import io.github.poolpilot.measure.PoolSnapshot.Rejections;
import io.github.poolpilot.measure.PoolSnapshot.TaskCounts;

/**
 * The cumulative counts and sums at one moment; a window's are the difference of two, but
 * for its rejections by reason and its timeouts, which stay cumulative. Read by
 * {@link TotalsReader}.
 *
 * @param submitted tasks offered
 * @param completed tasks that ended normally
 * @param failed tasks that failed
 * @param rejected tasks refused
 * @param abandoned queued tasks handed back
 * @param timed tasks timed, of those that ended
 * @param queueWaitNanos the timed tasks' queue waits
 * @param serviceNanos the timed tasks' service times
 * @param sampledServiceNanos the service times of the tasks whose CPU time was read
 * @param sampledCpuNanos their CPU times
 * @param rejections the rejected tasks by reason
 * @param timedOut tasks interrupted for running too long
 * @author poolpilot authors
 */
record Totals(long submitted, long completed, long failed, long rejected, long abandoned, long timed,
		long queueWaitNanos, long serviceNanos, long sampledServiceNanos, long sampledCpuNanos, Rejections rejections,
		long timedOut) {

	static final Totals ZERO = new Totals(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, new Rejections(0, 0, 0, 0), 0);

	Totals minus(Totals start) {
		return new Totals(this.submitted - start.submitted, this.completed - start.completed,
				this.failed - start.failed, this.rejected - start.rejected, this.abandoned - start.abandoned,
				this.timed - start.timed, this.queueWaitNanos - start.queueWaitNanos,
				this.serviceNanos - start.serviceNanos, this.sampledServiceNanos - start.sampledServiceNanos,
				this.sampledCpuNanos - start.sampledCpuNanos, this.rejections, this.timedOut);
	}

	long ended() {
		return this.completed + this.failed;
	}

	TaskCounts counts() {
		return new TaskCounts(this.submitted, this.completed, this.failed, this.rejected, this.abandoned,
				this.rejections, this.timedOut);
	}

}
