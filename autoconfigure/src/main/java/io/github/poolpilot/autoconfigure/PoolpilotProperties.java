package io.github.poolpilot.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties for poolpilot's managed pools.
 *
 * @author poolpilot authors
 */
@ConfigurationProperties("poolpilot")
public class PoolpilotProperties {

	/**
	 * Whether poolpilot manages any pool; false turns it off entirely: no pools, no
	 * managed executors, no endpoint, metrics, health or rejection handling.
	 */
	private boolean enabled = true;

	private final Budget budget = new Budget();

	private final Tuning tuning = new Tuning();

	private final Measurement measurement = new Measurement();

	private final Web web = new Web();

	private final WebServer webServer = new WebServer();

	private final ExistingExecutors existingExecutors = new ExistingExecutors();

	private final Listeners listeners = new Listeners();

	private final Scheduler scheduler = new Scheduler();

	/**
	 * Bean names of existing ThreadPoolTaskExecutors and ThreadPoolTaskSchedulers to
	 * leave unmanaged.
	 */
	private List<String> exclude = new ArrayList<>();

	/**
	 * Pools to create, by bean name.
	 */
	private final Map<String, Pool> pools = new LinkedHashMap<>();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Budget getBudget() {
		return this.budget;
	}

	public Tuning getTuning() {
		return this.tuning;
	}

	public Measurement getMeasurement() {
		return this.measurement;
	}

	public Web getWeb() {
		return this.web;
	}

	public WebServer getWebServer() {
		return this.webServer;
	}

	public Map<String, Pool> getPools() {
		return this.pools;
	}

	public ExistingExecutors getExistingExecutors() {
		return this.existingExecutors;
	}

	public Listeners getListeners() {
		return this.listeners;
	}

	public Scheduler getScheduler() {
		return this.scheduler;
	}

	public List<String> getExclude() {
		return this.exclude;
	}

	public void setExclude(List<String> exclude) {
		this.exclude = exclude;
	}

	/**
	 * The thread budget that all managed pools share.
	 */
	public static class Budget {

		/**
		 * Maximum number of live threads across all managed pools. Defaults to the sum of
		 * the pools' max-threads.
		 */
		private @Nullable Integer maxThreads;

		public @Nullable Integer getMaxThreads() {
			return this.maxThreads;
		}

		public void setMaxThreads(@Nullable Integer maxThreads) {
			this.maxThreads = maxThreads;
		}

	}

	/**
	 * Self-tuning settings.
	 */
	public static class Tuning {

		/**
		 * Whether the pools tune their own sizes.
		 */
		private boolean enabled = true;

		/**
		 * How often the tuner's fast path reads every pool between measurement windows,
		 * to meet a load step and hand a pool its share of the budget at once; 0 turns it
		 * off. Shorter than the measurement window.
		 */
		private Duration fastPathInterval = Duration.ofMillis(100);

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public Duration getFastPathInterval() {
			return this.fastPathInterval;
		}

		public void setFastPathInterval(Duration fastPathInterval) {
			this.fastPathInterval = fastPathInterval;
		}

	}

	/**
	 * How the pools' tasks are measured.
	 */
	public static class Measurement {

		/**
		 * Length of a measurement window: how often every pool's snapshot is taken.
		 */
		private Duration window = Duration.ofSeconds(1);

		/**
		 * Time at most one task in this many; 1 lets the load decide (every task below
		 * about a thousand a window, a sample of about a thousand above). Counts are
		 * exact either way.
		 */
		private int timingSampleEvery = 1;

		/**
		 * Read the thread CPU time of at most one timed task in this many; 0 turns CPU
		 * sampling off.
		 */
		private int cpuSampleEvery = 16;

		public Duration getWindow() {
			return this.window;
		}

		public void setWindow(Duration window) {
			this.window = window;
		}

		public int getTimingSampleEvery() {
			return this.timingSampleEvery;
		}

		public void setTimingSampleEvery(int timingSampleEvery) {
			this.timingSampleEvery = timingSampleEvery;
		}

		public int getCpuSampleEvery() {
			return this.cpuSampleEvery;
		}

		public void setCpuSampleEvery(int cpuSampleEvery) {
			this.cpuSampleEvery = cpuSampleEvery;
		}

	}

	/**
	 * The application's own ThreadPoolTaskExecutor beans.
	 */
	public static class ExistingExecutors {

		/**
		 * Whether existing ThreadPoolTaskExecutor beans, Boot's applicationTaskExecutor
		 * included, become managed.
		 */
		private boolean enabled = true;

		/**
		 * Queue capacity given to an existing executor whose queue is unbounded, and to
		 * Spring Boot's virtual-thread applicationTaskExecutor.
		 */
		private int queueCapacity = 1000;

		/**
		 * Largest number of tasks Spring Boot's virtual-thread applicationTaskExecutor
		 * (spring.threads.virtual.enabled=true) may run at once, its max-threads, when
		 * spring.task.execution.simple.concurrency-limit is not set.
		 */
		private int maxConcurrency = 200;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getQueueCapacity() {
			return this.queueCapacity;
		}

		public void setQueueCapacity(int queueCapacity) {
			this.queueCapacity = queueCapacity;
		}

		public int getMaxConcurrency() {
			return this.maxConcurrency;
		}

		public void setMaxConcurrency(int maxConcurrency) {
			this.maxConcurrency = maxConcurrency;
		}

	}

	/**
	 * The consumers of the application's message listener containers, each a managed pool
	 * named by its container's id (or bean name).
	 */
	public static class Listeners {

		/**
		 * Whether the consumers of the application's message listener containers (Spring
		 * AMQP's SimpleMessageListenerContainer, Spring Kafka's
		 * ConcurrentMessageListenerContainer) are managed pools.
		 */
		private boolean enabled = true;

		/**
		 * How many times its last restart's cost a Kafka listener container settles after
		 * a restart that changed its concurrency, the tuner leaving its concurrency alone
		 * meanwhile (at least two measurement windows): at most about 1/(1 +
		 * settle-factor) of the time goes to restarts.
		 */
		private int settleFactor = 10;

		/**
		 * Whether a container keeps its own rule that starts consumers when busy and
		 * stops them when idle, between its concurrency and max-concurrency; its pool
		 * then starts in manual mode. When false the tuner sets the consumers, and the
		 * container's rule is idle.
		 */
		private boolean containerScaling;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getSettleFactor() {
			return this.settleFactor;
		}

		public void setSettleFactor(int settleFactor) {
			this.settleFactor = settleFactor;
		}

		public boolean isContainerScaling() {
			return this.containerScaling;
		}

		public void setContainerScaling(boolean containerScaling) {
			this.containerScaling = containerScaling;
		}

	}

	/**
	 * The keys of one listener container's pool, {@code poolpilot.listeners.<name>.*}.
	 */
	public static class ListenerPool {

		/**
		 * Fewest consumers. Unless set, the container's own concurrency.
		 */
		private @Nullable Integer minThreads;

		/**
		 * Most consumers. Unless set, the container's own max-concurrency (its
		 * concurrency when it has none).
		 */
		private @Nullable Integer maxThreads;

		/**
		 * Consumers the container starts with, between min-threads and max-threads.
		 * Unless set, min-threads.
		 */
		private @Nullable Integer initialThreads;

		/**
		 * Share of the budget when pools compete, relative to the other pools' weights.
		 */
		private int weight = 1;

		public @Nullable Integer getMinThreads() {
			return this.minThreads;
		}

		public void setMinThreads(@Nullable Integer minThreads) {
			this.minThreads = minThreads;
		}

		public @Nullable Integer getMaxThreads() {
			return this.maxThreads;
		}

		public void setMaxThreads(@Nullable Integer maxThreads) {
			this.maxThreads = maxThreads;
		}

		public @Nullable Integer getInitialThreads() {
			return this.initialThreads;
		}

		public void setInitialThreads(@Nullable Integer initialThreads) {
			this.initialThreads = initialThreads;
		}

		public int getWeight() {
			return this.weight;
		}

		public void setWeight(int weight) {
			this.weight = weight;
		}

	}

	/**
	 * The ThreadPoolTaskScheduler beans that run scheduled work, Boot's taskScheduler
	 * among them, each a managed pool named after its bean.
	 */
	public static class Scheduler {

		/**
		 * Whether ThreadPoolTaskScheduler beans become managed: each run measured against
		 * when it was due, the pool resized within its bounds.
		 */
		private boolean enabled = true;

		/**
		 * Smallest size the tuner or a manual change may give a scheduler's pool. Unless
		 * set, the size the scheduler was configured with (or max-threads where that is
		 * lower).
		 */
		private @Nullable Integer minThreads;

		/**
		 * Largest size the tuner or a manual change may give a scheduler's pool.
		 */
		private int maxThreads = 8;

		/**
		 * Share of the budget relative to the other pools' weights.
		 */
		private int weight = 1;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable Integer getMinThreads() {
			return this.minThreads;
		}

		public void setMinThreads(@Nullable Integer minThreads) {
			this.minThreads = minThreads;
		}

		public int getMaxThreads() {
			return this.maxThreads;
		}

		public void setMaxThreads(int maxThreads) {
			this.maxThreads = maxThreads;
		}

		public int getWeight() {
			return this.weight;
		}

		public void setWeight(int weight) {
			this.weight = weight;
		}

	}

	/**
	 * How rejected work is answered over HTTP.
	 */
	public static class Web {

		/**
		 * Whether work rejected by a managed pool is answered with a problem response
		 * (429 or 503 with Retry-After).
		 */
		private boolean rejectionHandlerEnabled = true;

		public boolean isRejectionHandlerEnabled() {
			return this.rejectionHandlerEnabled;
		}

		public void setRejectionHandlerEnabled(boolean rejectionHandlerEnabled) {
			this.rejectionHandlerEnabled = rejectionHandlerEnabled;
		}

	}

	/**
	 * The embedded web server's request pool, managed as the pool named {@code http}: the
	 * keys of a declared pool, with the server's defaults.
	 */
	public static class WebServer extends Pool {

		/**
		 * Whether the embedded Tomcat's or Jetty's request threads are the managed pool
		 * named {@code http}: bounded, measured, tuned and refusing with 503 when full.
		 */
		private boolean enabled;

		public WebServer() {
			super(10);
			setMaxThreads(200);
			setQueueCapacity(100);
			setRejectionStatus(503);
		}

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	/**
	 * One managed pool: the keys of every pool, and a declared pool's own.
	 */
	public static class Pool extends PoolSizing {

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
		 * Longest time an accepted task should wait for a thread: a task whose expected
		 * wait is longer is refused at submit, and one that waited longer is refused when
		 * a thread takes it. Off when not set.
		 */
		private @Nullable Duration maxQueueWait;

		/**
		 * Whether each task runs on a virtual thread of its own, the pool's size (between
		 * min-threads and max-threads) then being how many tasks may run at once. Needs
		 * Java 21 or later.
		 */
		private boolean virtualThreads;

		/**
		 * Timeout and circuit breaking for the pool's tasks.
		 */
		private final Resilience resilience = new Resilience();

		/**
		 * The pool's limit shared with the other instances of its cluster group.
		 */
		private final PoolCluster cluster = new PoolCluster();

		public PoolCluster getCluster() {
			return this.cluster;
		}

		public Pool() {
			this(1);
		}

		protected Pool(int defaultMinThreads) {
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

	}

	/**
	 * The keys every kind of managed pool has: its bounds, its queue's capacity, its
	 * weight, its threads' keep-alive and how long shutdown waits. A declared pool, the
	 * web server's and the gRPC server's add their own.
	 */
	public static class PoolSizing {

		/**
		 * Smallest size the tuner or a manual change may give the pool. Unless set, its
		 * default, or max-threads where that is lower.
		 */
		private @Nullable Integer minThreads;

		/**
		 * What min-threads is unless set (or max-threads, where that is lower): a pool
		 * given only a small max-threads starts rather than fail on a default it did not
		 * choose.
		 */
		private final int defaultMinThreads;

		/**
		 * Largest size the tuner or a manual change may give the pool.
		 */
		private int maxThreads = 8;

		/**
		 * Capacity of the pool's queue, fixed at start.
		 */
		private int queueCapacity = 100;

		/**
		 * Share of the budget when pools compete, relative to the other pools' weights.
		 */
		private int weight = 1;

		/**
		 * How long an idle thread above the core size lives, in whole seconds (rounded
		 * up).
		 */
		private Duration keepAlive = Duration.ofSeconds(60);

		/**
		 * How long shutdown waits for queued and running tasks before cancelling them.
		 */
		private Duration awaitTermination = Duration.ofSeconds(30);

		protected PoolSizing(int defaultMinThreads) {
			this.defaultMinThreads = defaultMinThreads;
		}

		public int getMinThreads() {
			return (this.minThreads != null) ? this.minThreads : Math.min(this.defaultMinThreads, this.maxThreads);
		}

		public void setMinThreads(int minThreads) {
			this.minThreads = minThreads;
		}

		public int getMaxThreads() {
			return this.maxThreads;
		}

		public void setMaxThreads(int maxThreads) {
			this.maxThreads = maxThreads;
		}

		public int getQueueCapacity() {
			return this.queueCapacity;
		}

		public void setQueueCapacity(int queueCapacity) {
			this.queueCapacity = queueCapacity;
		}

		public int getWeight() {
			return this.weight;
		}

		public void setWeight(int weight) {
			this.weight = weight;
		}

		public Duration getKeepAlive() {
			return this.keepAlive;
		}

		public void setKeepAlive(Duration keepAlive) {
			this.keepAlive = keepAlive;
		}

		public Duration getAwaitTermination() {
			return this.awaitTermination;
		}

		public void setAwaitTermination(Duration awaitTermination) {
			this.awaitTermination = awaitTermination;
		}

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
	public static class PoolCluster {

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
