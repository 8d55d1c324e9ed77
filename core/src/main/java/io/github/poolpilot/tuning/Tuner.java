package io.github.poolpilot.tuning;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleSupplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.poolpilot.budget.ThreadBudget;
import io.github.poolpilot.budget.BudgetMember;
import io.github.poolpilot.budget.Lenders;
import io.github.poolpilot.budget.ThreadBudget.Loan;
import io.github.poolpilot.measure.NanoClock;
import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.BudgetExceeded;

/**
 * Sizes every pool in {@code auto} mode after each measurement window: each pool's
 * {@link PoolController} decides what it needs, the budget shares itself among those
 * needs ({@link ThreadBudget#threadsNow}), and each pool is resized to its share (core
 * and maximum alike) through its one door, all under the budget's lock. Pools in
 * {@code off} mode keep their sizes and hold their threads against the budget; a pool in
 * {@code manual} mode keeps its size up to its guaranteed share, and gives back what it
 * borrowed beyond it when a pool below its share has work. The pools in {@code auto} mode
 * lend their idle threads to any pool that grows ({@link Lenders}): their size comes back
 * through the tuner when their load does. A pool's live threads count against the budget
 * until they are gone, so that a pool grows into threads another pool gave back only once
 * they ended. A failure in a tick is logged and counted and never reaches the pools,
 * which keep their sizes.
 * <p>
 * Between windows, {@link #pulse()} is the fast path: it reads each pool's queue and
 * counts (nothing the tasks pay for), lets each controller meet a load step at once,
 * shares the budget again among what the pools ask for now, and grows pools into threads
 * others have given back as soon as those threads ended, so that a pool below its
 * guaranteed share gets it within a pulse or two of asking.
 * <p>
 * The tuner owns each pool's {@link TuningState}: its mode, its last decision and whether
 * it is limited.
 *
 * @author poolpilot authors
 */
public class Tuner {

	private static final Log logger = LogFactory.getLog(Tuner.class);

	private final PoolRegistry registry;

	private final NanoClock clock;

	private final DoubleSupplier cpuLoad;

	private final DecisionApplier applier;

	private final TuningPlanner planner;

	private final Map<String, TuningState> states = new ConcurrentHashMap<>();

	private final LongAdder failedTicks = new LongAdder();

	private volatile boolean enabled = true;

	/**
	 * Create a tuner.
	 * @param registry the pools and their budget
	 * @param clock the clock the controllers time growth blocks with
	 * @param cpuLoad the process's CPU load from 0 to 1, negative when unknown
	 * @param listener told of every resize, after it happened
	 */
	public Tuner(PoolRegistry registry, NanoClock clock, DoubleSupplier cpuLoad, ResizeListener listener) {
		this(registry, clock, cpuLoad, Runtime.getRuntime().availableProcessors(), listener);
	}

	/**
	 * Create a tuner for a given number of processors.
	 * @param registry the pools and their budget
	 * @param clock the clock the controllers time growth blocks with
	 * @param cpuLoad the process's CPU load from 0 to 1, negative when unknown
	 * @param cores the processors the CPU load is a share of
	 * @param listener told of every resize, after it happened
	 */
	public Tuner(PoolRegistry registry, NanoClock clock, DoubleSupplier cpuLoad, int cores, ResizeListener listener) {
		this.registry = registry;
		this.clock = clock;
		this.planner = new TuningPlanner(clock, cores);
		this.cpuLoad = cpuLoad;
		this.applier = new DecisionApplier(this.planner, this::state, listener, this.failedTicks);
		registry.budget().setLenders(new Lenders() {

			@Override
			public boolean mayLend(BudgetMember member) {
				return state(member.getName()).getMode() == TuningMode.AUTO;
			}

			@Override
			public void lent(Loan loan) {
				Tuner.this.applier.lent(loan, Tuner.this.registry.get(loan.lender()));
			}

		});
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
	 * Return a pool's tuning state: at first {@code auto}, or {@code off} while tuning is
	 * switched off.
	 * @param pool the pool's name
	 * @return its state
	 */
	public TuningState state(String pool) {
		return this.states.computeIfAbsent(pool,
				(name) -> new TuningState(this.enabled ? TuningMode.AUTO : TuningMode.OFF));
	}

	/**
	 * Return whether self-tuning is switched on ({@code poolpilot.tuning.enabled}).
	 * @return whether pools may be in auto mode
	 */
	public boolean isEnabled() {
		return this.enabled;
	}

	/**
	 * Switch self-tuning on or off for every pool: pools in auto mode go off, and back.
	 * @param enabled whether pools may be in auto mode
	 */
	public synchronized void setEnabled(boolean enabled) {
		this.enabled = enabled;
		for (TuningState state : this.states.values()) {
			if (!enabled && state.getMode() == TuningMode.AUTO) {
				state.setMode(TuningMode.OFF);
			}
			else if (enabled && state.getMode() == TuningMode.OFF) {
				state.setMode(TuningMode.AUTO);
			}
		}
	}

	/**
	 * Set who decides a pool's size.
	 * @param pool the pool's name
	 * @param mode the mode
	 * @throws IllegalStateException for {@code auto} while tuning is switched off
	 */
	public synchronized void setMode(String pool, TuningMode mode) {
		if (mode == TuningMode.AUTO && !this.enabled) {
			throw new IllegalStateException("Self-tuning is off (poolpilot.tuning.enabled=false)");
		}
		state(pool).setMode(mode);
	}

	/**
	 * Record a decision about a pool made elsewhere, such as a change by hand.
	 * @param pool the pool's name
	 * @param decision the decision
	 */
	public void record(String pool, Decision decision) {
		state(pool).setLastDecision(decision);
	}

	/**
	 * Record the cuts that brought the pools within the budget at start-up as their
	 * decisions.
	 * @param fit what {@link ThreadBudget#fit()} did
	 */
	public void record(ThreadBudget.Fit fit) {
		fit.cuts()
			.forEach((cut) -> record(cut.pool(), new Decision(Action.SHRINK, cut.from(), cut.to(),
					new BudgetExceeded(cut.maxThreads()), null, null, cut.to(), true, false)));
	}

	/**
	 * Decide and apply every pool's size for the next window. Never throws.
	 */
	public void tick() {
		try {
			this.registry.budget().change(this::resizePools);
		}
		catch (RuntimeException ex) {
			this.failedTicks.increment();
			logger.warn("A tuning tick failed; every pool keeps its size", ex);
		}
	}

	/**
	 * Return how many ticks failed, and how many resizes within a tick.
	 * @return the count of failed ticks and resizes
	 */
	public long failedTicks() {
		return this.failedTicks.sum();
	}

	/**
	 * Read every pool between two windows and resize those that meet a load step or can
	 * now have threads the budget kept from them (the fast path). Never throws.
	 */
	public void pulse() {
		try {
			this.registry.budget().change(this::pulsePools);
		}
		catch (RuntimeException ex) {
			this.failedTicks.increment();
			logger.warn("A tuning pulse failed; every pool keeps its size", ex);
		}
	}

	private void resizePools() {
		List<ManagedPool> pools = new ArrayList<>(this.registry.pools());
		this.states.keySet().retainAll(pools.stream().map(ManagedPool::getName).toList());
		List<PoolState> states = new ArrayList<>();
		for (ManagedPool pool : pools) {
			states
				.add(new PoolState(pool.getName(), pool.getBounds(), pool.getWeight(), state(pool.getName()).getMode(),
						pool.maxPoolSize(), pool.liveThreads(), pool.lastSnapshot(), pool.ceiling(), pool.settling()));
		}
		Map<String, Decision> plan = plan(states, this.registry.budget(), this.cpuLoad.getAsDouble());
		for (ManagedPool pool : pools) {
			if (!plan.containsKey(pool.getName())) {
				state(pool.getName()).setLimited(false);
			}
		}
		this.applier.applyAll(pools, plan);
	}

	private void pulsePools() {
		List<ManagedPool> pools = new ArrayList<>(this.registry.pools());
		List<PoolPulse> pulses = new ArrayList<>();
		for (ManagedPool pool : pools) {
			PoolSnapshot.Sizes sizes = pool.sizes();
			PoolSnapshot.TaskCounts counts = pool.getRecorder().taskCounts();
			pulses.add(new PoolPulse(pool.getName(), pool.getBounds(), pool.getWeight(),
					state(pool.getName()).getMode(), sizes.maxPoolSize(), sizes.poolSize(), sizes.activeCount(),
					sizes.queueSize(), counts.submitted(), counts.completed() + counts.failed(), this.clock.nanoTime(),
					pool.ceiling(), pool.settling()));
		}
		this.applier.applyAll(pools, planPulse(pulses, this.registry.budget()));
	}

	/**
	 * Decide the sizes of the pools in {@code auto} mode for the next window, within the
	 * budget, as if the pools were then resized accordingly. Plain logic with no threads,
	 * so that a simulation can drive it on virtual time.
	 * @param pools every pool, in any mode, as it is now
	 * @param budget the budget the pools share
	 * @param cpuLoad the process's CPU load from 0 to 1, negative when unknown
	 * @return the decision for each pool in {@code auto} mode that has a snapshot, by
	 * name, its threads being what the budget allows
	 */
	public Map<String, Decision> plan(List<PoolState> pools, ThreadBudget budget, double cpuLoad) {
		return this.planner.plan(pools, budget, cpuLoad);
	}

	/**
	 * Decide between two windows (the fast path): each controller may meet a load step,
	 * and the budget is shared again among what every pool asks for now, so that a pool
	 * grows into threads another gave back once they ended. Plain logic with no threads,
	 * as {@link #plan} is.
	 * @param pools every pool, in any mode, as it is now
	 * @param budget the budget the pools share
	 * @return the decisions that change a pool's size, by name
	 */
	public Map<String, Decision> planPulse(List<PoolPulse> pools, ThreadBudget budget) {
		return this.planner.planPulse(pools, budget);
	}

	/**
	 * Told of every resize the tuner makes.
	 */
	@FunctionalInterface
	public interface ResizeListener {

		/**
		 * A pool was resized.
		 * @param pool the pool
		 * @param decision what was decided, from which size to which and why
		 */
		void resized(ManagedPool pool, Decision decision);

	}

}
