package io.github.poolpilot.actuate;

import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.core.InvalidPoolSizeException;
import io.github.poolpilot.core.ManagedPool;
import io.github.poolpilot.core.PoolRegistry;
import io.github.poolpilot.core.PoolSnapshot;
import io.github.poolpilot.core.PoolSnapshot.LittlesLaw;
import io.github.poolpilot.core.PoolSnapshot.Rejections;
import io.github.poolpilot.core.PoolSnapshot.TaskCounts;
import io.github.poolpilot.core.TuningMode;

import org.springframework.boot.actuate.audit.listener.AuditApplicationEvent;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.context.ApplicationEventPublisher;

/**
 * {@link Endpoint @Endpoint} that shows every managed pool and changes a pool's size or
 * tuning mode. Read-only unless the application opts in with
 * {@code management.endpoint.threadpools.access=unrestricted}.
 *
 * @author poolpilot authors
 */
@Endpoint(id = "threadpools", defaultAccess = Access.READ_ONLY)
public class ThreadPoolsEndpoint {

	/**
	 * The audit event type of a size or mode change made through this endpoint.
	 */
	public static final String AUDIT_EVENT_TYPE = "THREAD_POOL_CHANGED";

	private static final Log logger = LogFactory.getLog(ThreadPoolsEndpoint.class);

	private final PoolRegistry registry;

	private final ApplicationEventPublisher events;

	/**
	 * Create an endpoint.
	 * @param registry the managed pools
	 * @param events where audit events are published
	 */
	public ThreadPoolsEndpoint(PoolRegistry registry, ApplicationEventPublisher events) {
		this.registry = registry;
		this.events = events;
	}

	@ReadOperation
	public ThreadPoolsDescriptor threadPools() {
		Map<String, PoolDescriptor> pools = new LinkedHashMap<>();
		this.registry.pools().forEach((pool) -> pools.put(pool.getName(), describe(pool)));
		return new ThreadPoolsDescriptor(new BudgetDescriptor(this.registry.budgetMaxThreads(),
				this.registry.allocatedThreads(), this.registry.liveThreads()), pools);
	}

	@ReadOperation
	public @Nullable PoolDescriptor threadPool(@Selector String name) {
		ManagedPool pool = this.registry.get(name);
		return (pool != null) ? describe(pool) : null;
	}

	/**
	 * Change a pool's sizes or tuning mode. Setting a size switches the pool to manual
	 * tuning until {@code "auto"} is posted. Every value is checked before anything
	 * changes.
	 * @param securityContext who asks
	 * @param name the pool's name
	 * @param corePoolSize the new core size, if it changes
	 * @param maxPoolSize the new maximum size, if it changes
	 * @param tuning {@code "auto"} or {@code "manual"}, if the mode changes
	 * @return the pool's new state, or {@code null} for an unknown pool
	 * @throws InvalidPoolSizeException naming the offending field when a value is invalid
	 */
	@WriteOperation
	public @Nullable PoolDescriptor updateThreadPool(SecurityContext securityContext, @Selector String name,
			@Nullable Integer corePoolSize, @Nullable Integer maxPoolSize, @Nullable String tuning) {
		ManagedPool pool = this.registry.get(name);
		if (pool == null) {
			return null;
		}
		if (corePoolSize == null && maxPoolSize == null && tuning == null) {
			throw new InvalidPoolSizeException("corePoolSize",
					"Nothing to change: give corePoolSize, maxPoolSize or tuning (\"auto\" or \"manual\")");
		}
		TuningMode mode = (tuning != null) ? parseMode(tuning) : null;
		synchronized (this.registry) {
			int fromCore = pool.getExecutor().getCorePoolSize();
			int fromMax = pool.getExecutor().getMaximumPoolSize();
			int core = (corePoolSize != null) ? corePoolSize
					: Math.min(fromCore, (maxPoolSize != null) ? maxPoolSize : fromCore);
			int max = (maxPoolSize != null) ? maxPoolSize : Math.max(fromMax, core);
			boolean resizing = corePoolSize != null || maxPoolSize != null;
			if (resizing) {
				this.registry.resize(pool, core, max);
			}
			TuningMode newMode = (mode != null) ? mode : (resizing ? TuningMode.MANUAL : pool.getTuningMode());
			pool.setTuningMode(newMode);
			String who = principal(securityContext);
			String decision = (resizing ? "resize " + fromCore + "/" + fromMax + "→" + core + "/" + max : "keep size")
					+ ": by " + who + ", tuning " + newMode.value();
			pool.recordDecision(decision);
			logger.info("Pool '" + name + "': " + decision);
			Map<String, Object> data = new LinkedHashMap<>();
			data.put("pool", name);
			data.put("from", Map.of("corePoolSize", fromCore, "maxPoolSize", fromMax));
			data.put("to", Map.of("corePoolSize", core, "maxPoolSize", max));
			data.put("tuning", newMode.value());
			data.put("reason", "manual change through the threadpools endpoint");
			this.events.publishEvent(new AuditApplicationEvent(who, AUDIT_EVENT_TYPE, data));
		}
		return describe(pool);
	}

	private TuningMode parseMode(String tuning) {
		if ("auto".equals(tuning)) {
			if (!this.registry.isTuningEnabled()) {
				throw new InvalidPoolSizeException("tuning",
						"tuning \"auto\" is not available: self-tuning is off (poolpilot.tuning.enabled=false)");
			}
			return TuningMode.AUTO;
		}
		if ("manual".equals(tuning)) {
			return TuningMode.MANUAL;
		}
		throw new InvalidPoolSizeException("tuning",
				"tuning \"" + tuning + "\" is not a tuning mode (allowed: \"auto\", \"manual\")");
	}

	private static String principal(SecurityContext securityContext) {
		return (securityContext.getPrincipal() != null) ? securityContext.getPrincipal().getName() : "anonymous";
	}

	private PoolDescriptor describe(ManagedPool pool) {
		PoolSnapshot.Sizes sizes = pool.sizes();
		TaskCounts counts = pool.getRecorder().taskCounts();
		PoolSnapshot snapshot = pool.lastSnapshot();
		TuningDescriptor tuning = new TuningDescriptor(pool.getTuningMode().value(), sizes.maxPoolSize(),
				pool.getLastDecision(), pool.isTuningLimited());
		return new PoolDescriptor(sizes.corePoolSize(), sizes.maxPoolSize(), sizes.poolSize(), sizes.activeCount(),
				sizes.queueSize(), sizes.queueCapacity(), counts.submitted(), counts.completed(), counts.failed(),
				counts.rejected(), counts.rejections(), counts.abandoned(), counts.timedOut(), sizes.minThreads(),
				sizes.maxThreads(), pool.getWeight(), tuning, (snapshot != null) ? snapshot.littlesLaw() : null);
	}

	/**
	 * All managed pools and the budget they share.
	 *
	 * @param budget the budget
	 * @param pools each pool by name
	 */
	public record ThreadPoolsDescriptor(BudgetDescriptor budget, Map<String, PoolDescriptor> pools) {

	}

	/**
	 * The thread budget.
	 *
	 * @param maxThreads live threads all pools may have together
	 * @param allocatedThreads the sum of the pools' maximum sizes
	 * @param liveThreads the pools' live threads now
	 */
	public record BudgetDescriptor(int maxThreads, int allocatedThreads, int liveThreads) {

	}

	/**
	 * One pool.
	 *
	 * @param corePoolSize the core size
	 * @param maxPoolSize the maximum size
	 * @param poolSize live threads
	 * @param activeCount threads running a task
	 * @param queueSize queued tasks
	 * @param queueCapacity the queue's capacity
	 * @param submittedTasks tasks offered so far
	 * @param completedTasks tasks that ran to normal completion
	 * @param failedTasks tasks that failed
	 * @param rejectedTasks tasks refused
	 * @param rejections the refused tasks by reason
	 * @param abandonedTasks queued tasks dropped at a forced shutdown
	 * @param timedOutTasks tasks interrupted for running longer than the pool's timeout
	 * @param minThreads lower bound of the sizes
	 * @param maxThreads upper bound of the sizes
	 * @param weight share of the budget
	 * @param tuning who decides the size, and the last decision
	 * @param littlesLaw the last window's figures, or {@code null} before the first
	 */
	public record PoolDescriptor(int corePoolSize, int maxPoolSize, int poolSize, int activeCount, int queueSize,
			int queueCapacity, long submittedTasks, long completedTasks, long failedTasks, long rejectedTasks,
			Rejections rejections, long abandonedTasks, long timedOutTasks, int minThreads, int maxThreads, int weight,
			TuningDescriptor tuning, @Nullable LittlesLaw littlesLaw) {

	}

	/**
	 * Who decides a pool's size.
	 *
	 * @param mode {@code auto}, {@code manual} or {@code off}
	 * @param targetThreads the size the pool is heading for
	 * @param lastDecision the last decision with its reason
	 * @param limited whether the tuner found the pool short of threads it could not have
	 */
	public record TuningDescriptor(String mode, int targetThreads, @Nullable String lastDecision, boolean limited) {

	}

}
