package io.github.poolpilot.actuate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.actuate.ThreadPoolsDescriptor.PoolDescriptor;
import io.github.poolpilot.budget.ThreadBudget.Loan;
import io.github.poolpilot.cluster.ClusterStatus;
import io.github.poolpilot.pool.InvalidPoolSizeException;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.tuning.Decision;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.Manual;
import io.github.poolpilot.tuning.Tuner;
import io.github.poolpilot.tuning.TuningMode;

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
 * {@code management.endpoint.threadpools.access=unrestricted}. What it answers are its
 * own descriptor types ({@link ThreadPoolsDescriptor}), so that the HTTP API does not
 * change with the core's records.
 *
 * @author poolpilot authors
 */
@Endpoint(id = "threadpools", defaultAccess = Access.READ_ONLY)
public class ThreadPoolsEndpoint {

	/**
	 * The audit event type of a size or mode change made through this endpoint.
	 */
	public static final String AUDIT_EVENT_TYPE = PoolChangeAudit.EVENT_TYPE;

	private static final Log logger = LogFactory.getLog(ThreadPoolsEndpoint.class);

	private final PoolRegistry registry;

	private final Tuner tuner;

	private final ApplicationEventPublisher events;

	private Function<String, @Nullable ClusterStatus> clusters = (pool) -> null;

	/**
	 * Create an endpoint.
	 * @param registry the managed pools
	 * @param tuner the tuner, which owns each pool's tuning mode and decisions
	 * @param events where audit events are published
	 */
	public ThreadPoolsEndpoint(PoolRegistry registry, Tuner tuner, ApplicationEventPublisher events) {
		this.registry = registry;
		this.tuner = tuner;
		this.events = events;
	}

	/**
	 * Show each pool's view of its cluster, for the pools that share a cluster-wide
	 * limit.
	 * @param clusters a pool's cluster view by its name, {@code null} for a pool without
	 * one
	 */
	public void setClusters(Function<String, @Nullable ClusterStatus> clusters) {
		this.clusters = clusters;
	}

	@ReadOperation
	public ThreadPoolsDescriptor threadPools() {
		Map<String, PoolDescriptor> pools = new LinkedHashMap<>();
		this.registry.pools().forEach((pool) -> pools.put(pool.getName(), describe(pool)));
		return new ThreadPoolsDescriptor(PoolDescriptions.budget(this.registry.budget()), pools);
	}

	@ReadOperation
	public @Nullable PoolDescriptor threadPool(@Selector String name) {
		ManagedPool pool = this.registry.get(name);
		return (pool != null) ? describe(pool) : null;
	}

	/**
	 * Return the names of the managed pools, sorted.
	 * @return the names
	 */
	public List<String> poolNames() {
		return this.registry.pools().stream().map(ManagedPool::getName).sorted().toList();
	}

	/**
	 * Change a pool's sizes or tuning mode. Setting a size switches the pool to manual
	 * tuning until {@code "auto"} is posted. Every value is checked before anything
	 * changes. Threads the budget lacks for a larger size are lent by idle pools, which
	 * the answer names ({@code lentBy}).
	 * @param securityContext who asks
	 * @param name the pool's name
	 * @param corePoolSize the new core size, if it changes
	 * @param maxPoolSize the new maximum size, if it changes
	 * @param tuning {@code "auto"} or {@code "manual"}, if the mode changes
	 * @return the pool's new state, or {@code null} for an unknown pool
	 * @throws InvalidPoolSizeException naming the offending size when a size is invalid
	 * @throws InvalidChangeException naming the offending field for any other invalid
	 * value
	 */
	@WriteOperation
	public @Nullable PoolDescriptor updateThreadPool(SecurityContext securityContext, @Selector String name,
			@Nullable Integer corePoolSize, @Nullable Integer maxPoolSize, @Nullable String tuning) {
		ManagedPool pool = this.registry.get(name);
		if (pool == null) {
			return null;
		}
		if (corePoolSize == null && maxPoolSize == null && tuning == null) {
			throw new InvalidChangeException("corePoolSize",
					"Nothing to change: give corePoolSize, maxPoolSize or tuning (\"auto\" or \"manual\")");
		}
		String principal = principal(securityContext);
		List<Loan> loans = new ArrayList<>();
		this.registry.budget().change(() -> {
			// Checked under the lock a configuration refresh turns tuning off under.
			TuningMode mode = (tuning != null) ? parseMode(tuning) : null;
			int fromCore = pool.corePoolSize();
			int fromMax = pool.maxPoolSize();
			int core = (corePoolSize != null) ? corePoolSize
					: Math.min(fromCore, (maxPoolSize != null) ? maxPoolSize : fromCore);
			int max = (maxPoolSize != null) ? maxPoolSize : Math.max(fromMax, core);
			boolean resizing = corePoolSize != null || maxPoolSize != null;
			if (resizing) {
				loans.addAll(pool.resize(core, max));
			}
			TuningMode newMode = (mode != null) ? mode
					: (resizing ? TuningMode.MANUAL : this.tuner.state(name).getMode());
			this.tuner.setMode(name, newMode);
			Decision decision = new Decision(Action.MANUAL, fromMax, max,
					new Manual(principal, fromCore, core, newMode, resizing), null, null, max, true, false);
			this.tuner.record(name, decision);
			logger.info("Pool '" + name + "': " + decision.reason());
			this.events.publishEvent(PoolChangeAudit.event(principal, name, fromCore, fromMax, core, max, newMode,
					"manual change through the threadpools endpoint"));
		});
		return PoolDescriptions.pool(pool, this.tuner.state(name), this.clusters.apply(name), loans);
	}

	private TuningMode parseMode(String tuning) {
		if ("auto".equals(tuning)) {
			if (!this.tuner.isEnabled()) {
				throw new InvalidChangeException("tuning",
						"tuning \"auto\" is not available: self-tuning is off (poolpilot.tuning.enabled=false)");
			}
			return TuningMode.AUTO;
		}
		if ("manual".equals(tuning)) {
			return TuningMode.MANUAL;
		}
		throw new InvalidChangeException("tuning",
				"tuning \"" + tuning + "\" is not a tuning mode (allowed: \"auto\", \"manual\")");
	}

	private static String principal(SecurityContext securityContext) {
		return (securityContext.getPrincipal() != null) ? securityContext.getPrincipal().getName() : "anonymous";
	}

	private PoolDescriptor describe(ManagedPool pool) {
		return PoolDescriptions.pool(pool, this.tuner.state(pool.getName()), this.clusters.apply(pool.getName()));
	}

}
