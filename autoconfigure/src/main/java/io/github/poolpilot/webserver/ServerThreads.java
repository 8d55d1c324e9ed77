package io.github.poolpilot.webserver;

/**
 * A web server's request threads as the {@code http} pool reads and sizes them: the
 * server's own setters, so that what the server reports of itself (Spring Boot's
 * {@code tomcat.threads.*} meters) stays true. Only the pool's checked door
 * ({@link io.github.poolpilot.pool.ManagedPool#resize}) calls the setters.
 *
 * @author poolpilot authors
 */
public interface ServerThreads {

	/**
	 * Return the threads kept even when idle.
	 * @return the core size
	 */
	int getCorePoolSize();

	/**
	 * Return the most request threads.
	 * @return the maximum size
	 */
	int getMaximumPoolSize();

	/**
	 * Return the live request threads; 0 before the server started.
	 * @return the live threads
	 */
	int getPoolSize();

	/**
	 * Return the threads serving a request.
	 * @return the active threads
	 */
	int getActiveCount();

	/**
	 * Return the requests waiting for a thread.
	 * @return the queue's length
	 */
	int getQueueSize();

	/**
	 * Return whether the server's threads no longer take requests.
	 * @return whether they are shut down
	 */
	boolean isShutdown();

	/**
	 * Set the core size, unchecked.
	 * @param corePoolSize the core size
	 */
	void setCorePoolSize(int corePoolSize);

	/**
	 * Set the maximum size, unchecked.
	 * @param maxPoolSize the maximum size
	 */
	void setMaximumPoolSize(int maxPoolSize);

}
