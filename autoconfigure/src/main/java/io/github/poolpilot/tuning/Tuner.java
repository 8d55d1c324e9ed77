package io.github.poolpilot.tuning;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.github.poolpilot.budget.BudgetAllocator;
import io.github.poolpilot.budget.BudgetAllocator.Demand;
import io.github.poolpilot.core.ManagedPool;
import io.github.poolpilot.core.NanoClock;
import io.github.poolpilot.core.PoolRegistry;
import io.github.poolpilot.core.PoolSnapshot;
import io.github.poolpilot.core.TuningMode;
import io.github.poolpilot.tuning.PoolController.Decision;

/**
 * Sizes every pool in {@code auto} mode after each measurement window: each pool's
 * {@link PoolController} decides what it needs, the {@link BudgetAllocator} shares the
 * budget among those needs, and each pool is resized to its share (core and maximum
 * alike). Pools in {@code manual} or {@code off} mode keep their sizes and hold their
 * threads against the budget. A failure in a tick is logged and counted and never reaches
 * the pools, which keep their sizes.
 *
 * @author poolpilot authors
 */
public class Tuner {

	private static final Logger logger = Logger.getLogger(Tuner.class.getName());

	private final PoolRegistry registry;

	private final NanoClock clock;

	private final DoubleSupplier cpuLoad;

	private final ResizeListener listener;

	private final Map<ManagedPool, PoolController> controllers = new ConcurrentHashMap<>();

	private final LongAdder failedTicks = new LongAdder();

	/**
	 * Create a tuner.
	 * @param registry the pools and their budget
	 * @param clock the clock the controllers time growth blocks with
	 * @param cpuLoad the process's CPU load from 0 to 1, negative when unknown
	 * @param listener told of every resize, after it happened
	 */
	public Tuner(PoolRegistry registry, NanoClock clock, DoubleSupplier cpuLoad, ResizeListener listener) {
		this.registry = registry;
		this.clock = clock;
		this.cpuLoad = cpuLoad;
		this.listener = listener;
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
	 * Return how many ticks failed.
	 * @return the failed tick count
	 */
	public long failedTicks() {
		return this.failedTicks.sum();
	}

	private void resizePools() {
		List<ManagedPool> pools = new ArrayList<>(this.registry.pools());
		this.controllers.keySet().retainAll(pools);
		double cpu = this.cpuLoad.getAsDouble();
		List<Demand> demands = new ArrayList<>();
		Map<ManagedPool, Decision> decisions = new ConcurrentHashMap<>();
		for (ManagedPool pool : pools) {
			int size = pool.getExecutor().getMaximumPoolSize();
			PoolSnapshot snapshot = pool.lastSnapshot();
			if (pool.getTuningMode() != TuningMode.AUTO || snapshot == null) {
				this.controllers.remove(pool);
				demands.add(new Demand(pool.getName(), size, size, pool.getWeight(), size, false));
				continue;
			}
			PoolController controller = this.controllers.computeIfAbsent(pool, (key) -> new PoolController(this.clock));
			Decision decision = controller.decide(snapshot, size, pool.getBounds(), cpu);
			decisions.put(pool, decision);
			demands.add(new Demand(pool.getName(), pool.getBounds().minThreads(), pool.getBounds().maxThreads(),
					pool.getWeight(), decision.threads(), decision.mayBorrow()));
		}
		Map<String, Integer> allocation = BudgetAllocator.allocate(demands, this.registry.budgetMaxThreads());
		decisions.forEach((pool, decision) -> apply(pool, decision, allocation.get(pool.getName())));
	}

	private void apply(ManagedPool pool, Decision decision, int threads) {
		int size = pool.getExecutor().getMaximumPoolSize();
		String reason = (threads < decision.threads()) ? decision.reason() + " (the budget allows " + threads + ")"
				: decision.reason();
		if (threads != size) {
			pool.resize(threads, threads);
			this.controllers.get(pool).applied(threads);
			pool.recordDecision(reason);
			this.listener.resized(pool, size, threads, reason);
		}
		else if (!reason.equals(pool.getLastDecision())) {
			pool.recordDecision(reason);
		}
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
