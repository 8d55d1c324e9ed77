package io.github.poolpilot.testsupport;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * Blocking workloads for tests' tasks: they stand for a task that waits on a database or
 * a remote call, and keep the interrupt flag when interrupted.
 *
 * @author poolpilot authors
 */
public final class Blocking {

	private Blocking() {
	}

	/**
	 * Block for a while, as a task calling a slow downstream does.
	 * @param duration how long
	 */
	public static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Block until a latch opens, so that a test decides when a task ends.
	 * @param latch the latch
	 */
	public static void await(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
