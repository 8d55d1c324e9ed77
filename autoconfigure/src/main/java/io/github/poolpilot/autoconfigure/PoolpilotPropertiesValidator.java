package io.github.poolpilot.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.autoconfigure.PoolProperties.Resilience;
import io.github.poolpilot.autoconfigure.PoolpilotProperties.WebServer;
import io.github.poolpilot.budget.BudgetSizing;
import io.github.poolpilot.budget.BudgetSizing.FloorsOverBudget;
import io.github.poolpilot.execution.VirtualManagedExecutor;
import io.github.poolpilot.grpc.GrpcPool;
import io.github.poolpilot.task.ExistingExecutorSettings;
import io.github.poolpilot.webserver.HttpPool;

import org.springframework.util.ClassUtils;

/**
 * Checks {@link PoolpilotProperties} before any pool is created, so that a bad value
 * fails start-up with a message naming it rather than surfacing later.
 *
 * @author poolpilot authors
 */
final class PoolpilotPropertiesValidator {

	private PoolpilotPropertiesValidator() {
	}

	/**
	 * Check the properties.
	 * @param properties the properties
	 * @param servlet whether the application is a servlet web application, the only one
	 * whose web server's threads become the pool {@code http}: elsewhere that pool's
	 * min-threads take nothing of the budget
	 * @param grpcServer whether the gRPC server's executor is the pool {@code grpc}
	 * ({@code poolpilot.grpc-server.enabled})
	 */
	static void validate(PoolpilotProperties properties, boolean servlet, boolean grpcServer) {
		Map<String, Integer> floors = new LinkedHashMap<>();
		for (Map.Entry<String, PoolProperties> entry : properties.getPools().entrySet()) {
			validate("poolpilot.pools." + entry.getKey() + ".", entry.getValue());
			floors.put(entry.getKey(), entry.getValue().getMinThreads());
		}
		WebServer webServer = properties.getWebServer();
		if (webServer.isEnabled()) {
			validateWebServer(webServer);
			if (servlet) {
				checkNotDeclared(properties, HttpPool.NAME, "the web server's", "poolpilot.web-server.enabled");
				floors.put(HttpPool.NAME, webServer.getMinThreads());
			}
		}
		if (grpcServer) {
			checkNotDeclared(properties, GrpcPool.NAME, "the gRPC server's", "poolpilot.grpc-server.enabled");
		}
		FloorsOverBudget overBudget = BudgetSizing.checkFloors(properties.getBudget().getMaxThreads(), floors);
		if (overBudget != null) {
			throw new InvalidPoolpilotPropertyException("poolpilot.budget.max-threads", overBudget.maxThreads(),
					"must be at least 1 and at least the sum of the pools' min-threads (" + overBudget.minThreads()
							+ (floors.isEmpty() ? "" : ": " + overBudget.terms()) + ")");
		}
		if (properties.getExistingExecutors().getQueueCapacity() < 1) {
			throw new InvalidPoolpilotPropertyException("poolpilot.existing-executors.queue-capacity",
					properties.getExistingExecutors().getQueueCapacity(),
					"must be at least 1 (the queue is always bounded)");
		}
		if (properties.getExistingExecutors().getMaxConcurrency() < 1) {
			throw new InvalidPoolpilotPropertyException("poolpilot.existing-executors.max-concurrency",
					properties.getExistingExecutors().getMaxConcurrency(), "must be at least 1");
		}
		validateScheduler(properties.getScheduler());
		if (properties.getListeners().getSettleFactor() < 0) {
			throw new InvalidPoolpilotPropertyException("poolpilot.listeners.settle-factor",
					properties.getListeners().getSettleFactor(),
					"must be at least 0 (0: a listener settles for two measurement windows after a restart)");
		}
		if (properties.getMeasurement().getWindow().isNegative() || properties.getMeasurement().getWindow().isZero()) {
			throw new InvalidPoolpilotPropertyException("poolpilot.measurement.window",
					properties.getMeasurement().getWindow(), "must be a positive duration");
		}
		Duration fastPath = properties.getTuning().getFastPathInterval();
		if (fastPath.isNegative() || fastPath.compareTo(properties.getMeasurement().getWindow()) >= 0) {
			throw new InvalidPoolpilotPropertyException("poolpilot.tuning.fast-path-interval", fastPath,
					"must be 0 (off) or a positive duration shorter than poolpilot.measurement.window ("
							+ properties.getMeasurement().getWindow() + ")");
		}
		if (properties.getMeasurement().getTimingSampleEvery() < 1) {
			throw new InvalidPoolpilotPropertyException("poolpilot.measurement.timing-sample-every",
					properties.getMeasurement().getTimingSampleEvery(), "must be at least 1 (1 times every task)");
		}
		if (properties.getMeasurement().getCpuSampleEvery() < 0) {
			throw new InvalidPoolpilotPropertyException("poolpilot.measurement.cpu-sample-every",
					properties.getMeasurement().getCpuSampleEvery(), "must be 0 (off) or more");
		}
	}

	private static void validateScheduler(SchedulerProperties scheduler) {
		String prefix = "poolpilot.scheduler.";
		if (scheduler.getMaxThreads() < 1) {
			throw new InvalidPoolpilotPropertyException(prefix + "max-threads", scheduler.getMaxThreads(),
					"must be at least 1");
		}
		Integer minThreads = scheduler.getMinThreads();
		if (minThreads != null && (minThreads < 1 || minThreads > scheduler.getMaxThreads())) {
			throw new InvalidPoolpilotPropertyException(prefix + "min-threads", minThreads,
					"must be between 1 and max-threads (" + scheduler.getMaxThreads()
							+ "): a scheduler always has a thread");
		}
		if (scheduler.getWeight() < 1) {
			throw new InvalidPoolpilotPropertyException(prefix + "weight", scheduler.getWeight(), "must be at least 1");
		}
	}

	/**
	 * Check the web server's pool: a declared pool's keys, without those that only a pool
	 * poolpilot creates can have.
	 */
	private static void validateWebServer(WebServer webServer) {
		String prefix = "poolpilot.web-server.";
		if (webServer.isVirtualThreads()) {
			throw new InvalidPoolpilotPropertyException(prefix + "virtual-threads", true,
					"is not for the web server's pool: the server's request threads are virtual when "
							+ "spring.threads.virtual.enabled=true; leave the property out");
		}
		ClusterPropertiesValidator.refuse(prefix, webServer.getCluster(),
				"is not for the web server's pool: a cluster-wide limit is for the pools under poolpilot.pools");
		if (webServer.getInitialThreads() != null) {
			throw new InvalidPoolpilotPropertyException(prefix + "initial-threads", webServer.getInitialThreads(),
					"is not for the web server's pool: its threads start at min-threads and the server adds "
							+ "them as requests come, up to its maximum size (max-threads at start, what it does not "
							+ "use lent to the other pools); leave the property out");
		}
		Resilience resilience = webServer.getResilience();
		if (resilience.getTimeout() != null || resilience.getTimeLimiter() != null
				|| resilience.getCircuitBreaker() != null) {
			throw new InvalidPoolpilotPropertyException(prefix + "resilience", "set",
					"is not for the web server's pool: a request thread cannot be timed out or cut off like a task; "
							+ "put the calls that need it on a pool under poolpilot.pools");
		}
		validate(prefix, webServer);
	}

	/**
	 * Refuse a declared pool under the name of a pool poolpilot makes of a server's
	 * threads.
	 */
	private static void checkNotDeclared(PoolpilotProperties properties, String name, String whose, String key) {
		if (properties.getPools().containsKey(name)) {
			throw new InvalidPoolpilotPropertyException("poolpilot.pools." + name, "a pool named '" + name + "'",
					whose + " pool is named '" + name + "' (" + key + "=true): give the declared pool another name");
		}
	}

	/**
	 * Check the keys every pool poolpilot creates has: its bounds, queue, weight,
	 * keep-alive and await-termination.
	 * @param prefix the keys' prefix, ending with a dot
	 * @param sizing the settings
	 */
	static void validateSizing(String prefix, PoolSizing sizing) {
		if (sizing.getMinThreads() < 1) {
			throw new InvalidPoolpilotPropertyException(prefix + "min-threads", sizing.getMinThreads(),
					"must be at least 1");
		}
		if (sizing.getMaxThreads() < sizing.getMinThreads()) {
			throw new InvalidPoolpilotPropertyException(prefix + "max-threads", sizing.getMaxThreads(),
					"must be at least min-threads (" + sizing.getMinThreads() + ")");
		}
		if (sizing.getQueueCapacity() < 1) {
			throw new InvalidPoolpilotPropertyException(prefix + "queue-capacity", sizing.getQueueCapacity(),
					"must be at least 1 (the queue is always bounded)");
		}
		validateWeightAndTimes(prefix, sizing);
	}

	private static void validate(String prefix, PoolProperties pool) {
		validateSizing(prefix, pool);
		Integer initial = pool.getInitialThreads();
		if (initial != null && (initial < pool.getMinThreads() || initial > pool.getMaxThreads())) {
			throw new InvalidPoolpilotPropertyException(prefix + "initial-threads", initial,
					"must be between min-threads (" + pool.getMinThreads() + ") and max-threads ("
							+ pool.getMaxThreads() + "); leave it out to start at min-threads");
		}
		if (pool.isVirtualThreads() && !VirtualManagedExecutor.isSupported()) {
			throw new InvalidPoolpilotPropertyException(prefix + "virtual-threads", true,
					"needs Java 21 or later, and this application runs on Java " + Runtime.version()
							+ ": run it on Java 21+, or leave the property out for a pool of platform threads");
		}
		ClusterPropertiesValidator.validate(prefix + "cluster.", pool.getCluster());
		validateOwn(prefix, pool);
	}

	/**
	 * Check an existing executor's settings: its own, overridden by
	 * {@code poolpilot.existing-executors.<bean>.*}. Its own core size may be 0 and its
	 * queue a hand-off ({@code SynchronousQueue}, capacity 0), as Spring allows.
	 * @param prefix the keys' prefix, ending with a dot
	 * @param pool the settings
	 * @param own what the executor was made with
	 */
	static void validateExisting(String prefix, PoolProperties pool, ExistingExecutorSettings.Own own) {
		if (pool.getMinThreads() < 0) {
			throw new InvalidPoolpilotPropertyException(prefix + "min-threads", pool.getMinThreads(),
					"must not be negative");
		}
		if (pool.getMaxThreads() < Math.max(1, pool.getMinThreads())) {
			throw new InvalidPoolpilotPropertyException(prefix + "max-threads", pool.getMaxThreads(),
					"must be at least 1 and at least min-threads (" + pool.getMinThreads()
							+ "; unless set, min-threads is the executor's core size, " + own.corePoolSize() + ")");
		}
		if (pool.getQueueCapacity() < 0) {
			throw new InvalidPoolpilotPropertyException(prefix + "queue-capacity", pool.getQueueCapacity(),
					"must not be negative (0 hands each task straight to a thread)");
		}
		if (pool.getInitialThreads() != null) {
			throw new InvalidPoolpilotPropertyException(prefix + "initial-threads", pool.getInitialThreads(),
					"is for the pools poolpilot creates: an existing executor starts at the sizes its author gave it");
		}
		if (pool.getKeepAlive().isZero() && own.keepAliveSeconds() != 0) {
			throw new InvalidPoolpilotPropertyException(prefix + "keep-alive", pool.getKeepAlive(),
					"must be more than 0 when set here: the executor's core threads may time out (its own setting, "
							+ "as Spring Boot's builder makes them), and a keep-alive of 0 would end them as soon as "
							+ "they are idle; leave the key out to keep the executor's own (" + own.keepAliveSeconds()
							+ " s)");
		}
		if (pool.isVirtualThreads()) {
			throw new InvalidPoolpilotPropertyException(prefix + "virtual-threads", true,
					"is for the pools poolpilot creates: an existing ThreadPoolTaskExecutor keeps its own threads; "
							+ "declare it under poolpilot.pools instead to run its tasks on virtual threads");
		}
		ClusterPropertiesValidator.refuse(prefix, pool.getCluster(), "is for the pools poolpilot creates: declare the "
				+ "executor under poolpilot.pools to share its limit with the other instances");
		validateWeightAndTimes(prefix, pool);
		validateOwn(prefix, pool);
	}

	private static void validateWeightAndTimes(String prefix, PoolSizing sizing) {
		if (sizing.getWeight() < 1) {
			throw new InvalidPoolpilotPropertyException(prefix + "weight", sizing.getWeight(), "must be at least 1");
		}
		if (sizing.getKeepAlive().isNegative()) {
			throw new InvalidPoolpilotPropertyException(prefix + "keep-alive", sizing.getKeepAlive(),
					"must not be negative");
		}
		if (sizing.getAwaitTermination().isNegative()) {
			throw new InvalidPoolpilotPropertyException(prefix + "await-termination", sizing.getAwaitTermination(),
					"must not be negative");
		}
	}

	/**
	 * Check the keys of a declared pool or an existing executor that the gRPC server's
	 * pool does not have.
	 */
	private static void validateOwn(String prefix, PoolProperties pool) {
		if (pool.getRejectionStatus() != 429 && pool.getRejectionStatus() != 503) {
			throw new InvalidPoolpilotPropertyException(prefix + "rejection-status", pool.getRejectionStatus(),
					"must be 429 or 503");
		}
		Duration maxQueueWait = pool.getMaxQueueWait();
		if (maxQueueWait != null && (maxQueueWait.isNegative() || maxQueueWait.isZero())) {
			throw new InvalidPoolpilotPropertyException(prefix + "max-queue-wait", maxQueueWait,
					"must be a positive duration (leave it out for no limit)");
		}
		validate(prefix + "resilience.", pool.getResilience());
	}

	private static void validate(String prefix, Resilience resilience) {
		Duration timeout = resilience.getTimeout();
		if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
			throw new InvalidPoolpilotPropertyException(prefix + "timeout", timeout,
					"must be a positive duration (leave it out for no timeout)");
		}
		if (timeout != null && resilience.getTimeLimiter() != null) {
			throw new InvalidPoolpilotPropertyException(prefix + "time-limiter", resilience.getTimeLimiter(),
					"must not be set together with " + prefix + "timeout: give one or the other");
		}
		requireResilience4j(prefix + "circuit-breaker", resilience.getCircuitBreaker(),
				"io.github.resilience4j.circuitbreaker.CircuitBreaker");
		requireResilience4j(prefix + "time-limiter", resilience.getTimeLimiter(),
				"io.github.resilience4j.timelimiter.TimeLimiter");
	}

	private static void requireResilience4j(String property, @Nullable String name, String className) {
		if (name == null) {
			return;
		}
		if (name.isBlank()) {
			throw new InvalidPoolpilotPropertyException(property, name,
					"must name a Resilience4j instance (leave it out for none)");
		}
		// The thread's class loader: the application's, as the context sees it.
		if (!ClassUtils.isPresent(className, null)) {
			throw new InvalidPoolpilotPropertyException(property, name,
					"needs Resilience4j on the classpath: add io.github.resilience4j:resilience4j-spring-boot4 "
							+ "(or leave the property out)");
		}
	}

}
