package io.github.poolpilot;

import java.lang.reflect.Field;
import java.util.Map;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.poolpilot.pool.ManagedPool;

/**
 * A {@code ThreadPoolExecutor}'s worker count, the count it keeps within its maximum size
 * and that no public method answers: {@code getPoolSize()} answers the size of its worker
 * set instead, which for a few microseconds after a worker is counted out (its task
 * threw, or its keep-alive ran out) still holds it beside the worker started in its
 * place. Needs {@code --add-opens java.base/java.util.concurrent=ALL-UNNAMED}.
 *
 * @author poolpilot authors
 */
final class Workers {

	/** The low bits of {@code ThreadPoolExecutor.ctl} hold the worker count. */
	private static final int COUNT_MASK = (1 << (Integer.SIZE - 3)) - 1;

	private static final Field CTL = ctl();

	private Workers() {
	}

	static int count(ThreadPoolExecutor executor) {
		try {
			return ((AtomicInteger) CTL.get(executor)).get() & COUNT_MASK;
		}
		catch (IllegalAccessException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Count the pools' workers and maximum sizes together, and the pools that count more
	 * workers than their maximum size. Read it under the budget's lock, so that no resize
	 * falls between the reads of two pools.
	 * @param pools each pool with the executor that runs its tasks
	 * @return the count
	 */
	static Census census(Map<ManagedPool, ThreadPoolExecutor> pools) {
		int workers = 0;
		int maxSizes = 0;
		int overMax = 0;
		for (Map.Entry<ManagedPool, ThreadPoolExecutor> pool : pools.entrySet()) {
			int count = count(pool.getValue());
			int maxSize = pool.getKey().maxPoolSize();
			workers += count;
			maxSizes += maxSize;
			overMax += (count > maxSize) ? 1 : 0;
		}
		return new Census(workers, maxSizes, overMax);
	}

	private static Field ctl() {
		try {
			Field ctl = ThreadPoolExecutor.class.getDeclaredField("ctl");
			ctl.setAccessible(true);
			return ctl;
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			throw new IllegalStateException(
					"Reading a ThreadPoolExecutor's worker count needs --add-opens java.base/java.util.concurrent=ALL-UNNAMED",
					ex);
		}
	}

	/**
	 * The pools' workers and maximum sizes together at one instant.
	 *
	 * @param workers the workers the pools count together
	 * @param maxSizes their maximum sizes together
	 * @param overMax how many pools count more workers than their maximum size: pools
	 * that shrank and whose workers are still finishing their tasks
	 */
	record Census(int workers, int maxSizes, int overMax) {

		/**
		 * Return whether the pools keep to a budget as docs/guarantees.md promises: their
		 * maximum sizes together within it, and their workers too but for one worker per
		 * pool above its maximum size. That one is {@code ThreadPoolExecutor}'s own: a
		 * worker it counted in against the maximum it read just before the pool shrank,
		 * which the budget's check of that instant could not see and which ends after its
		 * one task. Workers a shrunk pool keeps beyond that must be counted by the
		 * budget.
		 * @param budget the budget's maximum
		 * @return whether they keep to it
		 */
		boolean within(int budget) {
			return this.maxSizes <= budget && this.workers <= budget + this.overMax;
		}

		@Override
		public String toString() {
			return this.workers + " live threads (" + this.overMax
					+ " pools above their maximum size) and maximum sizes of " + this.maxSizes + " together";
		}

	}

}
