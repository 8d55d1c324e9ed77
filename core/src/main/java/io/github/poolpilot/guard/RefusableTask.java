package io.github.poolpilot.guard;

import io.github.poolpilot.pool.PoolRejectedException;

/**
 * A task whose caller can be told that the pool refused it after it was queued: refusing
 * it fails the future the caller holds with the pool's rejection, instead of running it.
 * A task that is not refusable, such as a plain {@code Runnable} nobody waits for, is
 * never refused once queued.
 *
 * @author poolpilot authors
 */
public interface RefusableTask extends Runnable {

	/**
	 * Complete the task's future with the pool's rejection, without running it.
	 * @param rejection why the pool refused the task
	 */
	void refuse(PoolRejectedException rejection);

}
