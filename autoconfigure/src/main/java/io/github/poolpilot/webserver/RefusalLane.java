package io.github.poolpilot.webserver;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.github.poolpilot.pool.PoolRejectedException;

import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * The few threads, outside the {@code http} pool and its budget, that answer the requests
 * the pool refuses: each reads its request and answers it at once (503 with Retry-After
 * from the {@link HttpRefusalFilter}), or serves it when it is a management request, so
 * that health checks are answered while the application's requests are refused. They
 * never run application code, so a few are enough; when even their queue is full the
 * server closes the connection, its own last resort.
 *
 * @author poolpilot authors
 */
public final class RefusalLane {

	/**
	 * The lane's threads.
	 */
	public static final int THREADS = 2;

	/**
	 * The refused requests that may wait for the lane.
	 */
	public static final int QUEUE_CAPACITY = 1000;

	private final ThreadPoolExecutor executor;

	/**
	 * Create a lane whose threads are named after the given prefix.
	 * @param namePrefix the threads' name prefix
	 */
	public RefusalLane(String namePrefix) {
		this.executor = new ThreadPoolExecutor(THREADS, THREADS, 60, TimeUnit.SECONDS,
				new ArrayBlockingQueue<>(QUEUE_CAPACITY), laneThreads(namePrefix));
		this.executor.allowCoreThreadTimeOut(true);
	}

	/**
	 * Answer a refused request on the lane.
	 * @param request the server's unit of work
	 * @param rejection the refusal
	 * @throws RejectedExecutionException when the lane is full or stopped
	 */
	public void refuse(Runnable request, PoolRejectedException rejection) {
		this.executor.execute(() -> HttpRefusal.runRefused(request, rejection));
	}

	/**
	 * Stop the lane once the server stopped, letting the refusals under way end.
	 */
	public void close() {
		this.executor.shutdown();
	}

	private static ThreadFactory laneThreads(String namePrefix) {
		CustomizableThreadFactory threads = new CustomizableThreadFactory(namePrefix);
		threads.setDaemon(true);
		return threads;
	}

}
