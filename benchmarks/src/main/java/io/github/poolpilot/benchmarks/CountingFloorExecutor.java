package io.github.poolpilot.benchmarks;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import org.jspecify.annotations.Nullable;

/**
 * A control, not a product: a raw {@link ThreadPoolExecutor} that does per task only what
 * a managed pool does for a task it does not time, step by step, so that the A/B harness
 * can tell which step costs what. {@code counted}: a {@link LongAdder} increment at
 * submit and, at the end, the worker's own count (a {@code ThreadLocal} lookup and a
 * release store), as poolpilot's recorder counts; {@code drawn}: the same and the random
 * draw that picks the tasks to time ({@code ThreadLocalRandom.nextInt(bound)}, with the
 * bound a pool of about eight million tasks a second has: one in 8000).
 *
 * @author poolpilot authors
 */
final class CountingFloorExecutor extends ThreadPoolExecutor {

	private static final VarHandle COUNT = MethodHandles.arrayElementVarHandle(long[].class);

	private static final int EVERY = 8000;

	private final LongAdder submitted = new LongAdder();

	private final ThreadLocal<long[]> ended = ThreadLocal.withInitial(() -> new long[17]);

	private final boolean drawn;

	private volatile int picked;

	CountingFloorExecutor(int poolSize, int queueCapacity, boolean drawn) {
		super(poolSize, poolSize, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(queueCapacity));
		this.drawn = drawn;
	}

	@Override
	public void execute(Runnable command) {
		this.submitted.increment();
		if (this.drawn && ThreadLocalRandom.current().nextInt(EVERY) == 0) {
			this.picked++;
		}
		super.execute(command);
	}

	@Override
	protected void afterExecute(Runnable task, @Nullable Throwable thrown) {
		long[] counts = this.ended.get();
		COUNT.setRelease(counts, 8, counts[8] + 1);
	}

	long submitted() {
		return this.submitted.sum();
	}

}
