package io.github.poolpilot.guard;

import java.util.List;

import io.github.poolpilot.pool.ManagedPool;

/**
 * Provides guards for pools by name, such as a circuit breaker configured for one pool.
 * In a Spring application, beans of this type are asked in order when each pool that
 * poolpilot creates starts; their guards check after the pool's max-queue-wait and before
 * its timeout.
 *
 * @author poolpilot authors
 */
@FunctionalInterface
public interface TaskGuardProvider {

	/**
	 * Return the guards for a pool.
	 * @param name the pool's name
	 * @param pool the pool
	 * @return its guards in the order they check, none for a pool this provider does not
	 * guard
	 */
	List<TaskGuard> guards(String name, ManagedPool pool);

}
