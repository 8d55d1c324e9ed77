package io.github.poolpilot.tuning;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.poolpilot.budget.BudgetAllocator.Demand;
import io.github.poolpilot.budget.ThreadBudget;
import io.github.poolpilot.budget.ThreadBudget.Held;
import io.github.poolpilot.measure.NanoClock;
import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.Settling;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.BudgetFreed;
import io.github.poolpilot.tuning.Decision.Cause.Repaid;

/**
 * What the tuner decides for its pools, window by window and pulse by pulse: each pool in
 * {@code auto} mode has a {@link PoolController} that says what it needs, and the budget
 * is shared among those needs and the sizes the other pools hold. Plain logic with no
 * threads, called under the budget's lock, so that a simulation can drive it on virtual
 * time.
 *
 * @author poolpilot authors
 */
final class TuningPlanner {

	private final NanoClock clock;

	private final int cores;

	private final Map<String, PoolController> controllers = new HashMap<>();

	TuningPlanner(NanoClock clock, int cores) {
		this.clock = clock;
		this.cores = cores;
	}

	/**
	 * Tell a pool's controller the size its pool has now, when another hand resized it (a
	 * loan, a resize that failed).
	 * @param pool the pool's name
	 * @param size its size
	 */
	void applied(String pool, int size) {
		PoolController controller = this.controllers.get(pool);
		if (controller != null) {
			controller.applied(size);
		}
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
	Map<String, Decision> plan(List<PoolState> pools, ThreadBudget budget, double cpuLoad) {
		Map<String, Decision> decisions = new LinkedHashMap<>();
		Map<String, Decision> holds = new HashMap<>();
		List<Demand> demands = new ArrayList<>();
		for (PoolState pool : pools) {
			PoolSnapshot snapshot = pool.snapshot();
			if (pool.mode() != TuningMode.AUTO || snapshot == null) {
				this.controllers.remove(pool.name());
				demands.add(held(pool.name(), pool.bounds(), pool.weight(), pool.mode(), pool.size(), pool.ceiling()));
				continue;
			}
			if (pool.settling() != null) {
				// Its window shows its workers restarting, not what its size does: its
				// controller does not see it, and judges its last step on the windows
				// after it settled.
				holds.put(pool.name(), settling(pool.size(), pool.settling()));
				demands.add(held(pool.name(), pool.bounds(), pool.weight(), pool.mode(), pool.size(), pool.ceiling()));
				continue;
			}
			PoolController controller = this.controllers.computeIfAbsent(pool.name(),
					(name) -> new PoolController(this.clock, this.cores));
			Decision decision = controller.decide(snapshot, pool.size(), pool.bounds(), cpuLoad);
			decisions.put(pool.name(), decision);
			demands.add(tuned(pool.name(), pool.bounds(), pool.ceiling(), pool.weight(), decision, decision.needed()));
		}
		this.controllers.keySet().retainAll(pools.stream().map(PoolState::name).toList());
		Map<String, Integer> threads = budget.threadsNow(demands,
				pools.stream()
					.map((pool) -> holding(pool.name(), pool.size(), pool.liveThreads(), pool.mode()))
					.toList());
		Map<String, Integer> shares = budget.guaranteed(demands);
		Map<String, Decision> plan = new LinkedHashMap<>();
		for (PoolState pool : pools) {
			Decision decision = decisions.get(pool.name());
			repay(plan, pool.name(), pool.mode(), pool.size(), threads.get(pool.name()));
			if (holds.containsKey(pool.name())) {
				plan.put(pool.name(), holds.get(pool.name()));
			}
			if (decision != null) {
				this.controllers.get(pool.name()).applied(threads.get(pool.name()));
				plan.put(pool.name(), BudgetShares.withinBudget(decision, pool.size(), threads.get(pool.name()),
						shares.get(pool.name())));
			}
		}
		return plan;
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
	Map<String, Decision> planPulse(List<PoolPulse> pools, ThreadBudget budget) {
		Map<String, Decision> wants = new LinkedHashMap<>();
		Map<String, Decision> surges = new HashMap<>();
		List<Demand> demands = new ArrayList<>();
		for (PoolPulse pool : pools) {
			if (pool.mode() == TuningMode.AUTO && pool.settling() != null) {
				// Settling after a restart: no surge is met until it settled.
				demands.add(held(pool.name(), pool.bounds(), pool.weight(), pool.mode(), pool.size(), pool.ceiling()));
				continue;
			}
			PoolController controller = (pool.mode() == TuningMode.AUTO) ? this.controllers.get(pool.name()) : null;
			if (controller == null || controller.appliedSize() != pool.size()) {
				// Out of the tuner's hands, or resized by someone else since (by hand,
				// say, and back to auto within a window): what it asked for is stale,
				// and the next window starts afresh.
				this.controllers.remove(pool.name());
				controller = null;
			}
			Decision want = null;
			int needed = 0;
			if (controller != null) {
				Decision surge = controller.pulse(pool);
				if (surge != null) {
					surges.put(pool.name(), surge);
				}
				want = (surge != null) ? surge : controller.standing();
				// A pool that went idle since its window (nothing offered, nothing
				// queued) needs only the threads still running: the rest go first
				// when another pool needs them.
				boolean idle = surge == null && pool.queued() == 0 && controller.idleSinceLastPulse();
				needed = (want == null) ? 0 : idle ? Math.min(want.needed(), pool.activeThreads()) : want.needed();
			}
			if (want == null) {
				demands.add(held(pool.name(), pool.bounds(), pool.weight(), pool.mode(), pool.size(), pool.ceiling()));
				continue;
			}
			wants.put(pool.name(), want);
			demands.add(tuned(pool.name(), pool.bounds(), pool.ceiling(), pool.weight(), want, needed));
		}
		Map<String, Integer> threads = budget.threadsNow(demands,
				pools.stream()
					.map((pool) -> holding(pool.name(), pool.size(), pool.liveThreads(), pool.mode()))
					.toList());
		Map<String, Integer> shares = budget.guaranteed(demands);
		Map<String, Decision> plan = new LinkedHashMap<>();
		for (PoolPulse pool : pools) {
			Decision want = wants.get(pool.name());
			int size = pool.size();
			if (want == null) {
				repay(plan, pool.name(), pool.mode(), size, threads.get(pool.name()));
				continue;
			}
			int given = threads.get(pool.name());
			this.controllers.get(pool.name()).applied(given);
			if (given == size) {
				continue;
			}
			boolean limited = given < want.threads();
			Decision decision;
			if (given < size) {
				decision = BudgetShares.cut(want, size, given, shares.get(pool.name()));
			}
			else if (surges.containsKey(pool.name())) {
				decision = BudgetShares.withinBudget(want, size, given, shares.get(pool.name()));
			}
			else {
				decision = new Decision(Action.GROW, size, given, new BudgetFreed(want), null, limited ? given : null,
						want.needed(), want.mayBorrow(), limited);
			}
			plan.put(pool.name(), decision);
		}
		return plan;
	}

	private static Decision settling(int size, Settling settling) {
		return new Decision(Action.HOLD, size, size,
				new Decision.Cause.Settling(settling.remaining(), settling.lastResizeTook()), null, null, size, false,
				false);
	}

	/**
	 * What a pool out of the tuner's hands asks of the budget: its size. A pool sized by
	 * hand (manual) keeps it up to its guaranteed share; the budget may take back what it
	 * borrowed beyond that.
	 */
	private static Demand held(String name, PoolBounds bounds, int weight, TuningMode mode, int size, int ceiling) {
		if (mode == TuningMode.MANUAL) {
			return new Demand(name, Math.min(Math.min(bounds.minThreads(), ceiling), size), size, weight, size, size,
					true);
		}
		return new Demand(name, size, size, weight, size, false);
	}

	/**
	 * What a pool the tuner sizes asks of the budget: the threads decided, within its
	 * bounds and its ceiling.
	 */
	private static Demand tuned(String name, PoolBounds bounds, int ceiling, int weight, Decision decision,
			int needed) {
		return new Demand(name, Math.min(bounds.minThreads(), ceiling), Math.min(bounds.maxThreads(), ceiling), weight,
				decision.threads(), needed, decision.mayBorrow());
	}

	/**
	 * What a pool holds of the budget now.
	 */
	private static Held holding(String name, int size, int liveThreads, TuningMode mode) {
		return new Held(name, size, liveThreads, mode == TuningMode.MANUAL);
	}

	/**
	 * A pool sized by hand that the budget gives less than it has gives back what it
	 * borrowed beyond its share.
	 */
	private static void repay(Map<String, Decision> plan, String pool, TuningMode mode, int size, int given) {
		if (mode == TuningMode.MANUAL && given < size) {
			plan.put(pool, new Decision(Action.SHRINK, size, given, new Repaid(), null, null, given, true, false));
		}
	}

}
