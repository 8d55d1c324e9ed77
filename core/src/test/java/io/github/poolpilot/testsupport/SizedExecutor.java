package io.github.poolpilot.testsupport;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolExecutor;
import io.github.poolpilot.pool.Settling;

/**
 * An executor for a {@link ManagedPool} that only holds what a test sets: its sizes, its
 * live, active and queued counts, whether it is shut down; and records each size it is
 * given, in order.
 *
 * @author poolpilot authors
 */
public final class SizedExecutor implements PoolExecutor, ManagedPool.SizeControl {

	/**
	 * Each size set, in order: {@code "core N"} or {@code "max N"}.
	 */
	public final List<String> calls = new ArrayList<>();

	public int core;

	public int max;

	public int live;

	public int active;

	public int queued;

	public boolean shutdown;

	public @Nullable Settling settling;

	private final int queueCapacity;

	/**
	 * Create an executor.
	 * @param size its core and maximum size
	 * @param queueCapacity its queue's capacity
	 */
	public SizedExecutor(int size, int queueCapacity) {
		this.core = size;
		this.max = size;
		this.queueCapacity = queueCapacity;
	}

	/**
	 * Set both sizes, unrecorded.
	 * @param core the core size
	 * @param max the maximum size
	 */
	public void set(int core, int max) {
		this.core = core;
		this.max = max;
	}

	@Override
	public void setCorePoolSize(int corePoolSize) {
		this.calls.add("core " + corePoolSize);
		this.core = corePoolSize;
	}

	@Override
	public void setMaximumPoolSize(int maxPoolSize) {
		this.calls.add("max " + maxPoolSize);
		this.max = maxPoolSize;
	}

	@Override
	public int getCorePoolSize() {
		return this.core;
	}

	@Override
	public int getMaximumPoolSize() {
		return this.max;
	}

	@Override
	public int getPoolSize() {
		return this.live;
	}

	@Override
	public int getActiveCount() {
		return this.active;
	}

	@Override
	public int getQueueSize() {
		return this.queued;
	}

	@Override
	public int getQueueCapacity() {
		return this.queueCapacity;
	}

	@Override
	public boolean isShutdown() {
		return this.shutdown;
	}

	@Override
	public @Nullable Settling settling() {
		return this.settling;
	}

}
