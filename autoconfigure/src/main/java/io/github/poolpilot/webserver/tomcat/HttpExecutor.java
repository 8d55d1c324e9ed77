package io.github.poolpilot.webserver.tomcat;

import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * The executor a managed Tomcat endpoint hands its requests to through the {@code http}
 * pool, as its graceful shutdown waits for it: until no request is queued or running.
 *
 * @author poolpilot authors
 */
interface HttpExecutor extends Executor {

	/**
	 * Return the requests waiting to be served.
	 * @return the queued requests
	 */
	int queued();

	/**
	 * Return the requests being served.
	 * @return the running requests
	 */
	int running();

	/**
	 * Wait until no request is queued or running, as when a graceful shutdown lets every
	 * request handed over before it be answered.
	 * @param timeoutMillis how long to wait at most
	 * @return whether the executor became idle in time
	 */
	default boolean awaitIdle(long timeoutMillis) {
		long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
		while (queued() > 0 || running() > 0) {
			if (System.nanoTime() - deadline > 0) {
				return false;
			}
			try {
				Thread.sleep(10);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		}
		return true;
	}

}
