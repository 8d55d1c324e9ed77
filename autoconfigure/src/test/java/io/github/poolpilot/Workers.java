package io.github.poolpilot;

import java.lang.reflect.Field;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;

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

}
