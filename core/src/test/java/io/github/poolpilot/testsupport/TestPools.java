package io.github.poolpilot.testsupport;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.github.poolpilot.execution.ManagedExecutor;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;

/**
 * Real managed pools for a test, each shut down after it: register with
 * {@code @RegisterExtension final TestPools pools = new TestPools();}.
 *
 * @author poolpilot authors
 */
public final class TestPools implements AfterEachCallback {

	private final List<ManagedExecutor> executors = new ArrayList<>();

	/**
	 * Start a pool with its core and maximum sizes at {@code size}.
	 * @param name its name
	 * @param bounds its min- and max-threads
	 * @param queueCapacity its queue's capacity
	 * @param size its core and maximum size
	 * @return its executor
	 */
	public ManagedExecutor executor(String name, PoolBounds bounds, int queueCapacity, int size) {
		ManagedExecutor executor = ManagedExecutor.builder(name, bounds, queueCapacity).sizes(size, size).build();
		this.executors.add(executor);
		return executor;
	}

	/**
	 * Start a pool with its core and maximum sizes at {@code size}.
	 * @param name its name
	 * @param bounds its min- and max-threads
	 * @param queueCapacity its queue's capacity
	 * @param size its core and maximum size
	 * @return the pool
	 */
	public ManagedPool pool(String name, PoolBounds bounds, int queueCapacity, int size) {
		return executor(name, bounds, queueCapacity, size).getPool();
	}

	/**
	 * Return the executors started, in order.
	 * @return the executors
	 */
	public List<ManagedExecutor> executors() {
		return this.executors;
	}

	@Override
	public void afterEach(ExtensionContext context) throws InterruptedException {
		for (ManagedExecutor executor : this.executors) {
			executor.shutdownNow();
			executor.awaitTermination(10, TimeUnit.SECONDS);
		}
		this.executors.clear();
	}

}
