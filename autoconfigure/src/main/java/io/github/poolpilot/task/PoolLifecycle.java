package io.github.poolpilot.task;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.execution.ManagedExecutorService;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;

/**
 * How a pool that poolpilot manages through one of Spring's executors starts and stops,
 * whichever executor it is: it joins the registry when it starts and leaves it when it
 * stops, and what a stop cannot finish in time is cancelled, counted as abandoned and
 * logged, never dropped silently. The pools poolpilot creates outside Spring's executors
 * (the gRPC server's) stop through {@link #stopNow} too.
 *
 * @author poolpilot authors
 */
public final class PoolLifecycle {

	private static final Log logger = LogFactory.getLog(PoolLifecycle.class);

	private PoolLifecycle() {
	}

	/**
	 * A pool started: it joins the registry, if any.
	 * @param registry the registry
	 * @param pool the pool
	 */
	static void started(@Nullable PoolRegistry registry, ManagedPool pool) {
		if (registry != null) {
			registry.register(pool);
		}
	}

	/**
	 * A pool stopped: it leaves the registry, if any.
	 * @param registry the registry
	 * @param pool the pool
	 */
	static void stopped(@Nullable PoolRegistry registry, ManagedPool pool) {
		if (registry != null) {
			registry.unregister(pool);
		}
	}

	/**
	 * Wait for a pool that was shut down to terminate.
	 * @param executor the pool's executor
	 * @param timeout how long to wait
	 * @return whether it terminated in time
	 */
	static boolean awaitTermination(ManagedExecutorService executor, Duration timeout) {
		try {
			return executor.awaitTermination(timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/**
	 * Stop a pool at once: interrupt its running tasks, cancel its queued ones (counted
	 * as abandoned by the pool) and say so in the log.
	 * @param executor the pool's executor
	 * @param why why it is stopped, after the pool's name in the log
	 */
	public static void stopNow(ManagedExecutorService executor, String why) {
		int running = executor.getPool().getExecutor().getActiveCount();
		List<Runnable> abandoned = executor.shutdownNow();
		abandoned.forEach((task) -> {
			if (task instanceof Future<?> future) {
				future.cancel(true);
			}
		});
		if (!abandoned.isEmpty() || running > 0) {
			logger.warn("Pool '" + executor.getPool().getName() + "' " + why + ": cancelled " + abandoned.size()
					+ " queued and interrupted " + running + " running tasks");
		}
	}

}
