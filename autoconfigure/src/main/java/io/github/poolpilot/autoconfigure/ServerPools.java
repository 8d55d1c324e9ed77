package io.github.poolpilot.autoconfigure;

import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolNameTakenException;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.task.ExistingExecutorsPostProcessor;

/**
 * The pools poolpilot makes of a server's threads ({@code http}, {@code grpc}) join the
 * registry here: when an application's executor bean of the same name joined first, the
 * failure says what to do.
 *
 * @author poolpilot authors
 */
final class ServerPools {

	private ServerPools() {
	}

	/**
	 * Register a server's pool.
	 * @param registry the registry
	 * @param pool the pool
	 * @throws IllegalStateException if a pool of its name is registered already, saying
	 * how to leave the application's executor of that name out
	 */
	static void register(PoolRegistry registry, ManagedPool pool) {
		try {
			registry.register(pool);
		}
		catch (PoolNameTakenException ex) {
			throw new IllegalStateException(
					ex.getMessage() + ": " + ExistingExecutorsPostProcessor.nameTaken(pool.getName()), ex);
		}
	}

}
