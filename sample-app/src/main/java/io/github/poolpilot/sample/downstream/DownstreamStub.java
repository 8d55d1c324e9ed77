package io.github.poolpilot.sample.downstream;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A downstream that takes a fixed latency per call and serves a limited number of calls
 * at once, the others waiting in line, as a saturated service does. It holds no thread
 * while a call waits or is served: one timer thread completes each call's future when its
 * time is up.
 *
 * @author poolpilot authors
 */
public class DownstreamStub implements AutoCloseable {

	private final Duration latency;

	private final int capacity;

	private final ScheduledExecutorService timer;

	private final Queue<CompletableFuture<Duration>> waiting = new ArrayDeque<>();

	private int serving;

	/**
	 * Create the talk API's stub.
	 * @param latency how long one call takes once served
	 * @param capacity how many calls are served at once, at least 1
	 */
	public DownstreamStub(Duration latency, int capacity) {
		this(latency, capacity, "sample.talk.downstream-latency", "sample.talk.downstream-capacity");
	}

	/**
	 * Create a stub.
	 * @param latency how long one call takes once served
	 * @param capacity how many calls are served at once, at least 1
	 * @param latencyKey the key that sets the latency, named when it is invalid
	 * @param capacityKey the key that sets the capacity, named when it is invalid
	 */
	public DownstreamStub(Duration latency, int capacity, String latencyKey, String capacityKey) {
		if (latency.isNegative()) {
			throw new IllegalArgumentException(latencyKey + " must not be negative but was " + latency);
		}
		if (capacity < 1) {
			throw new IllegalArgumentException(capacityKey + " must be at least 1 but was " + capacity);
		}
		this.latency = latency;
		this.capacity = capacity;
		ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, (task) -> {
			Thread thread = new Thread(task, "downstream-stub");
			thread.setDaemon(true);
			return thread;
		});
		timer.setRemoveOnCancelPolicy(true);
		this.timer = timer;
	}

	/**
	 * Take one call.
	 * @return a future completed once the call was served, with the time it took from its
	 * arrival: its latency and its time in line
	 */
	public CompletableFuture<Duration> call() {
		CompletableFuture<Duration> call = new CompletableFuture<>();
		long arrivedAt = System.nanoTime();
		CompletableFuture<Duration> timed = call
			.thenApply((ignored) -> Duration.ofNanos(System.nanoTime() - arrivedAt));
		synchronized (this) {
			if (this.serving < this.capacity) {
				this.serving++;
				serve(call);
			}
			else {
				this.waiting.add(call);
			}
		}
		return timed;
	}

	/**
	 * Take one call with a message and answer it as the downstream does.
	 * @param message the message
	 * @return a future completed with the reply once the call was served
	 */
	public CompletableFuture<DownstreamReply> reply(String message) {
		return call().thenApply((took) -> new DownstreamReply("heard: " + message, took.toMillis()));
	}

	/**
	 * Return how many calls wait for a place.
	 * @return the calls in line
	 */
	public synchronized int waitingCalls() {
		return this.waiting.size();
	}

	private void serve(CompletableFuture<Duration> call) {
		this.timer.schedule(() -> served(call), this.latency.toNanos(), TimeUnit.NANOSECONDS);
	}

	private void served(CompletableFuture<Duration> call) {
		synchronized (this) {
			CompletableFuture<Duration> next = this.waiting.poll();
			if (next != null) {
				serve(next);
			}
			else {
				this.serving--;
			}
		}
		call.complete(Duration.ZERO);
	}

	@Override
	public void close() {
		this.timer.shutdownNow();
	}

}
