package io.github.poolpilot.tuning;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.budget.BudgetAllocator;
import io.github.poolpilot.budget.BudgetAllocator.Demand;
import io.github.poolpilot.core.ManagedPool;
import io.github.poolpilot.core.NanoClock;
import io.github.poolpilot.core.PoolBounds;
import io.github.poolpilot.core.PoolRegistry;
import io.github.poolpilot.core.PoolSnapshot;
import io.github.poolpilot.core.TuningMode;
import io.github.poolpilot.tuning.PoolController.Decision;

/**
 * Sizes every pool in {@code auto} mode after each measurement window: each pool's
 * {@link PoolController} decides what it needs, the {@link BudgetAllocator} shares the
 * budget among those needs, and each pool is resized to its share (core and maximum
 * alike). Pools in {@code manual} or {@code off} mode keep their sizes and hold their
 * threads against the budget. A pool's live threads count against the budget until they
 * are gone, so that a pool grows into threads another pool gave back only once they
 * ended. A failure in a tick is logged and counted and never reaches the pools, which
 * keep their sizes.
 *
 * @author poolpilot authors
 */
public class Tuner {

	private static final Logger logger = Logger.getLogger(Tuner.class.getName());

	private final PoolRegistry registry;

	private final NanoClock clock;

	private final DoubleSupplier cpuLoad;

	private final ResizeListener listener;

	private final boolean guarded;

	private final Map<String, PoolController> controllers = new HashMap<>();

	private final LongAdder failedTicks = new LongAdder();

	/**
	 * Create a tuner.
	 * @param registry the pools and their budget
	 * @param clock the clock the controllers time growth blocks with
	 * @param cpuLoad the process's CPU load from 0 to 1, negative when unknown
	 * @param listener told of every resize, after it happened
	 */
	public Tuner(PoolRegistry registry, NanoClock clock, DoubleSupplier cpuLoad, ResizeListener listener) {
		this(registry, clock, cpuLoad, listener, true);
	}

	/**
	 * Create a tuner whose controllers may run without their feedback guard, so that the
	 * bare model can be compared with the guarded tuner in the benchmarks.
	 * @param registry the pools and their budget
	 * @param clock the clock the controllers time growth blocks with
	 * @param cpuLoad the process's CPU load from 0 to 1, negative when unknown
	 * @param listener told of every resize, after it happened
	 * @param guarded whether each pool's feedback guard runs (see {@link PoolController})
	 */
	public Tuner(PoolRegistry registry, NanoClock clock, DoubleSupplier cpuLoad, ResizeListener listener,
			boolean guarded) {
		this.registry = registry;
		this.clock = clock;
		this.cpuLoad = cpuLoad;
		this.listener = listener;
		this.guarded = guarded;
	}

	/**
	 * Return the process CPU load as the JVM reports it, or a negative value when it does
	 * not.
	 * @return a CPU load supplier
	 */
	public static DoubleSupplier processCpuLoad() {
		OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
		if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
			return sun::getProcessCpuLoad;
		}
		return () -> -1;
	}

	/**
	 * Decide and apply every pool's size for the next window. Never throws.
	 */
	public void tick() {
		try {
			synchronized (this.registry) {
				resizePools();
			}
		}
		catch (RuntimeException ex) {
			this.failedTicks.increment();
			logger.log(Level.WARNING, "A tuning tick failed; every pool keeps its size", ex);
		}
	}

	/**
	 * Return how many ticks failed, and how many resizes within a tick.
	 * @return the count of failed ticks and resizes
	 */
	public long failedTicks() {
		return this.failedTicks.sum();
	}

	private void resizePools() {
		List<ManagedPool> pools = new ArrayList<>(this.registry.pools());
		List<PoolState> states = new ArrayList<>();
		for (ManagedPool pool : pools) {
			states.add(new PoolState(pool.getName(), pool.getBounds(), pool.getWeight(), pool.getTuningMode(),
					pool.getExecutor().getMaximumPoolSize(), pool.getExecutor().getPoolSize(), pool.lastSnapshot()));
		}
		Map<String, Decision> plan = plan(states, this.registry.budgetMaxThreads(), this.cpuLoad.getAsDouble());
		// Shrinks first: a pool that grows counts on the threads the others give back.
		List<ManagedPool> others = new ArrayList<>();
		for (ManagedPool pool : pools) {
			Decision decision = plan.get(pool.getName());
			if (decision == null) {
				pool.setTuningLimited(false);
			}
			else if (decision.threads() < pool.getExecutor().getMaximumPoolSize()) {
				apply(pool, decision);
			}
			else {
				others.add(pool);
			}
		}
		others.forEach((pool) -> apply(pool, plan.get(pool.getName())));
	}

	/**
	 * Decide the sizes of the pools in {@code auto} mode for the next window, within the
	 * budget, as if the pools were then resized accordingly. Plain logic with no threads,
	 * so that a simulation can drive it on virtual time.
	 * @param pools every pool, in any mode, as it is now
	 * @param budget the threads all pools may have together
	 * @param cpuLoad the process's CPU load from 0 to 1, negative when unknown
	 * @return the decision for each pool in {@code auto} mode that has a snapshot, by
	 * name, its threads being what the budget allows
	 */
	public Map<String, Decision> plan(List<PoolState> pools, int budget, double cpuLoad) {
		Map<String, Decision> decisions = new LinkedHashMap<>();
		List<Demand> demands = new ArrayList<>();
		for (PoolState pool : pools) {
			PoolSnapshot snapshot = pool.snapshot();
			if (pool.mode() != TuningMode.AUTO || snapshot == null) {
				this.controllers.remove(pool.name());
				demands.add(new Demand(pool.name(), pool.size(), pool.size(), pool.weight(), pool.size(), false));
				continue;
			}
			PoolController controller = this.controllers.computeIfAbsent(pool.name(),
					(name) -> new PoolController(this.clock, this.guarded));
			Decision decision = controller.decide(snapshot, pool.size(), pool.bounds(), cpuLoad);
			decisions.put(pool.name(), decision);
			demands.add(new Demand(pool.name(), pool.bounds().minThreads(), pool.bounds().maxThreads(), pool.weight(),
					decision.threads(), decision.needed(), decision.mayBorrow()));
		}
		this.controllers.keySet().retainAll(pools.stream().map(PoolState::name).toList());
		Map<String, Integer> allocation = BudgetAllocator.allocate(demands, budget);
		Map<String, Decision> plan = new LinkedHashMap<>();
		int held = 0;
		// Threads a pool gives back count until they ended: first what every pool keeps.
		for (PoolState pool : pools) {
			held += Math.max(pool.liveThreads(), Math.min(pool.size(), allocation.get(pool.name())));
		}
		for (PoolState pool : pools) {
			Decision decision = decisions.get(pool.name());
			if (decision == null) {
				continue;
			}
			int allocated = allocation.get(pool.name());
			int threads = allocated;
			if (allocated > pool.size()) {
				int kept = Math.max(pool.liveThreads(), pool.size());
				threads = Math.max(pool.size(), Math.min(allocated, budget - (held - kept)));
				held += Math.max(0, threads - kept);
			}
			String reason = decision.reason();
			if (threads < Math.min(pool.size(), decision.threads())) {
				reason = "shrink " + pool.size() + "→" + threads + ": other pools need the budget's threads (" + reason
						+ ")";
			}
			else if (threads < decision.threads()) {
				reason += " (the budget allows " + threads + ")";
			}
			this.controllers.get(pool.name()).applied(threads);
			plan.put(pool.name(), new Decision(threads, decision.needed(), reason, threads != pool.size(),
					decision.mayBorrow(), decision.limited() || threads < decision.threads()));
		}
		return plan;
	}

	/**
	 * Resize one pool as decided. A failure is logged and counted and leaves the other
	 * pools to be resized; the pool's controller is told the size the pool really has.
	 */
	private void apply(ManagedPool pool, Decision decision) {
		pool.setTuningLimited(decision.limited());
		int size = pool.getExecutor().getMaximumPoolSize();
		if (decision.threads() == size) {
			if (!decision.reason().equals(pool.getLastDecision())) {
				pool.recordDecision(decision.reason());
			}
			return;
		}
		try {
			pool.resize(decision.threads(), decision.threads());
			pool.recordDecision(decision.reason());
		}
		catch (RuntimeException ex) {
			this.failedTicks.increment();
			logger.log(Level.WARNING, "Could not resize pool '" + pool.getName() + "' to " + decision.threads()
					+ " threads; it keeps " + pool.getExecutor().getMaximumPoolSize(), ex);
			PoolController controller = this.controllers.get(pool.getName());
			if (controller != null) {
				controller.applied(pool.getExecutor().getMaximumPoolSize());
			}
			return;
		}
		try {
			this.listener.resized(pool, size, decision.threads(), decision.reason());
		}
		catch (RuntimeException ex) {
			this.failedTicks.increment();
			logger.log(Level.WARNING, "A resize listener failed for pool '" + pool.getName() + "'", ex);
		}
	}

	/**
	 * A pool as the tuner sees it at the end of a window.
	 *
	 * @param name the pool's name
	 * @param bounds the range its size must stay in
	 * @param weight its share of the budget relative to the others
	 * @param mode who decides its size
	 * @param size its size (maximum pool size)
	 * @param liveThreads its live threads, which may exceed its size for a while after it
	 * shrank
	 * @param snapshot its last closed window, or {@code null} before the first
	 */
	public record PoolState(String name, PoolBounds bounds, int weight, TuningMode mode, int size, int liveThreads,
			@Nullable PoolSnapshot snapshot) {

	}

	/**
	 * Told of every resize the tuner makes.
	 */
	@FunctionalInterface
	public interface ResizeListener {

		/**
		 * A pool was resized.
		 * @param pool the pool
		 * @param from its size before
		 * @param to its size now
		 * @param reason why
		 */
		void resized(ManagedPool pool, int from, int to, String reason);

	}

}
