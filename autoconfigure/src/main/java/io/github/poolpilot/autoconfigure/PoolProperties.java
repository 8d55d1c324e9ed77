package io.github.poolpilot.autoconfigure;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * One managed pool: the keys of every pool, and a declared pool's own.
 *
 * @author poolpilot authors
 */
public class PoolProperties extends PoolSizing {

	/**
	 * Size the pool starts at, between min-threads and max-threads. When not set, the
	 * pool starts at min-threads and grows with its load.
	 */
	private @Nullable Integer initialThreads;

	/**
	 * HTTP status answered when the pool rejects work: 429 or 503.
	 */
	private int rejectionStatus = 429;

	/**
	 * Longest time an accepted task should wait for a thread: a task whose expected wait
	 * is longer is refused at submit, and one that waited longer is refused when a thread
	 * takes it. Off when not set.
	 */
	private @Nullable Duration maxQueueWait;

	/**
	 * Whether each task runs on a virtual thread of its own, the pool's size (between
	 * min-threads and max-threads) then being how many tasks may run at once. Needs Java
	 * 21 or later.
	 */
	private boolean virtualThreads;

	/**
	 * Timeout and circuit breaking for the pool's tasks.
	 */
	private final Resilience resilience = new Resilience();

	/**
	 * The pool's limit shared with the other instances of its cluster group.
	 */
	private final Cluster cluster = new Cluster();

	public Cluster getCluster() {
		return this.cluster;
	}

	public PoolProperties() {
		this(1);
	}

	protected PoolProperties(int defaultMinThreads) {
		super(defaultMinThreads);
	}

	public @Nullable Integer getInitialThreads() {
		return this.initialThreads;
	}

	public void setInitialThreads(@Nullable Integer initialThreads) {
		this.initialThreads = initialThreads;
	}

	public int getRejectionStatus() {
		return this.rejectionStatus;
	}

	public void setRejectionStatus(int rejectionStatus) {
		this.rejectionStatus = rejectionStatus;
	}

	public @Nullable Duration getMaxQueueWait() {
		return this.maxQueueWait;
	}

	public void setMaxQueueWait(@Nullable Duration maxQueueWait) {
		this.maxQueueWait = maxQueueWait;
	}

	public boolean isVirtualThreads() {
		return this.virtualThreads;
	}

	public void setVirtualThreads(boolean virtualThreads) {
		this.virtualThreads = virtualThreads;
	}

	public Resilience getResilience() {
		return this.resilience;
	}

	/**
	 * Timeout and circuit breaking for one pool's tasks.
	 */
	public static class Resilience {

		/**
		 * Longest time a task may run before it is interrupted and counted as timed out.
		 * Off when not set.
		 */
		private @Nullable Duration timeout;

		/**
		 * Name of a Resilience4j time limiter (resilience4j.timelimiter.instances.*)
		 * whose timeout-duration is the tasks' timeout, instead of timeout.
		 */
		private @Nullable String timeLimiter;

		/**
		 * Name of a Resilience4j circuit breaker
		 * (resilience4j.circuitbreaker.instances.*, or its defaults) that sees every
		 * task's outcome; while it is open the pool refuses tasks at once with 503.
		 */
		private @Nullable String circuitBreaker;

		public @Nullable Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(@Nullable Duration timeout) {
			this.timeout = timeout;
		}

		public @Nullable String getTimeLimiter() {
			return this.timeLimiter;
		}

		public void setTimeLimiter(@Nullable String timeLimiter) {
			this.timeLimiter = timeLimiter;
		}

		public @Nullable String getCircuitBreaker() {
			return this.circuitBreaker;
		}

		public void setCircuitBreaker(@Nullable String circuitBreaker) {
			this.circuitBreaker = circuitBreaker;
		}

	}

	/**
	 * A pool's limit shared with the other instances of its cluster group
	 * ({@code poolpilot.cluster.enabled}).
	 */
	public static class Cluster {

		/**
		 * Most threads the pool may have across all instances of the group together, such
		 * as the calls a downstream admits at once. No cluster-wide limit when not set.
		 */
		private @Nullable Integer maxThreads;

		/**
		 * Threads this instance falls back to when it cannot reach the others and its
		 * lease expired. Defaults to max-threads divided by the instances last known.
		 */
		private @Nullable Integer localShare;

		public @Nullable Integer getMaxThreads() {
			return this.maxThreads;
		}

		public void setMaxThreads(@Nullable Integer maxThreads) {
			this.maxThreads = maxThreads;
		}

		public @Nullable Integer getLocalShare() {
			return this.localShare;
		}

		public void setLocalShare(@Nullable Integer localShare) {
			this.localShare = localShare;
		}

	}

}
