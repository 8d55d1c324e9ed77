package io.github.poolpilot.execution;

/**
 * The rule of how long a pool's idle thread lives, {@code ThreadPoolExecutor}'s, owned
 * here for every pool (platform, virtual, an application's own) so that each refuses the
 * same settings with the same message, naming the pool, what is wrong and what is
 * allowed: the keep-alive is never negative, and above 0 while core threads may time out.
 *
 * @author poolpilot authors
 */
final class KeepAlive {

	private static final long NANOS_PER_MILLI = 1_000_000L;

	private static final long NANOS_PER_SECOND = 1_000_000_000L;

	private KeepAlive() {
	}

	/**
	 * Check a keep-alive before it is set.
	 * @param pool the pool's name
	 * @param keepAliveNanos the keep-alive, in nanoseconds
	 * @param coreThreadsTimeOut whether the pool's core threads may time out
	 * @throws IllegalArgumentException if it is negative, or 0 while core threads may
	 * time out
	 */
	static void check(String pool, long keepAliveNanos, boolean coreThreadsTimeOut) {
		if (keepAliveNanos < 0) {
			throw new IllegalArgumentException(
					"keep-alive " + shown(keepAliveNanos) + " of pool '" + pool + "' is negative (allowed: 0 or more)");
		}
		if (keepAliveNanos == 0 && coreThreadsTimeOut) {
			throw new IllegalArgumentException("keep-alive 0 of pool '" + pool
					+ "' would end its core threads, which may time out, as soon as they are idle (allowed: more than 0,"
					+ " or core threads that do not time out)");
		}
	}

	/**
	 * Check that core threads may be allowed to time out with the given keep-alive.
	 * @param pool the pool's name
	 * @param coreThreadsTimeOut whether core threads are to time out
	 * @param keepAliveNanos the pool's keep-alive, in nanoseconds
	 * @throws IllegalArgumentException if they are to time out with a keep-alive of 0
	 */
	static void checkCoreThreadTimeOut(String pool, boolean coreThreadsTimeOut, long keepAliveNanos) {
		if (coreThreadsTimeOut && keepAliveNanos <= 0) {
			throw new IllegalArgumentException("core threads of pool '" + pool
					+ "' cannot time out with a keep-alive of 0 (allowed: once its keep-alive is more than 0)");
		}
	}

	/**
	 * Return a keep-alive as a person reads it: in whole seconds, milliseconds or
	 * nanoseconds.
	 */
	static String shown(long nanos) {
		if (nanos % NANOS_PER_SECOND == 0) {
			return (nanos / NANOS_PER_SECOND) + " s";
		}
		if (nanos % NANOS_PER_MILLI == 0) {
			return (nanos / NANOS_PER_MILLI) + " ms";
		}
		return nanos + " ns";
	}

}
