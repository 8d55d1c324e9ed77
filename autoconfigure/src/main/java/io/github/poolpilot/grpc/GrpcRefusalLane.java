package io.github.poolpilot.grpc;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * The few threads, outside the {@code grpc} pool and its budget, that run the call events
 * the pool refuses: a new call is answered at once with the pool's status, a health check
 * is served, so that the server's health is answered while the application's calls are
 * refused. When even their queue is full gRPC resets the call, its own last resort.
 *
 * @author poolpilot authors
 */
final class GrpcRefusalLane {

	static final int THREADS = 2;

	static final int QUEUE_CAPACITY = 1000;

	private final ThreadPoolExecutor executor;

	GrpcRefusalLane(String namePrefix) {
		this.executor = new ThreadPoolExecutor(THREADS, THREADS, 60, TimeUnit.SECONDS,
				new ArrayBlockingQueue<>(QUEUE_CAPACITY), laneThreads(namePrefix));
		this.executor.allowCoreThreadTimeOut(true);
	}

	/**
	 * Run refused events on the lane.
	 * @param refusal the events and the refusal
	 * @throws RejectedExecutionException when the lane is full or stopped
	 */
	void refuse(GrpcRefusal refusal) {
		this.executor.execute(refusal::run);
	}

	/**
	 * Run the later events of a refused call on the lane.
	 * @param events the call's events
	 * @throws RejectedExecutionException when the lane is full or stopped
	 */
	void run(Runnable events) {
		this.executor.execute(events);
	}

	void close() {
		this.executor.shutdown();
	}

	private static ThreadFactory laneThreads(String namePrefix) {
		CustomizableThreadFactory threads = new CustomizableThreadFactory(namePrefix);
		threads.setDaemon(true);
		return threads;
	}

}
