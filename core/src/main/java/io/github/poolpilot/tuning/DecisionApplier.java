package io.github.poolpilot.tuning;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.budget.ThreadBudget.Loan;
import io.github.poolpilot.pool.InvalidPoolSizeException;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.Lent;

/**
 * Carries the tuner's decisions out: resizes each pool through its one door, records the
 * decision in the pool's {@link TuningState}, tells the planner the size the pool really
 * has and the {@link Tuner.ResizeListener} what changed. A resize or a listener that
 * fails is logged and counted and never stops the other pools' resizes.
 *
 * @author poolpilot authors
 */
final class DecisionApplier {

	// The tuner's log, where users look for its failures.
	private static final Log logger = LogFactory.getLog(Tuner.class);

	private final TuningPlanner planner;

	private final Function<String, TuningState> states;

	private final Tuner.ResizeListener listener;

	private final LongAdder failures;

	DecisionApplier(TuningPlanner planner, Function<String, TuningState> states, Tuner.ResizeListener listener,
			LongAdder failures) {
		this.planner = planner;
		this.states = states;
		this.listener = listener;
		this.failures = failures;
	}

	/**
	 * Resize the pools of a plan, shrinks first: a pool that grows counts on the threads
	 * the others give back.
	 */
	void applyAll(List<ManagedPool> pools, Map<String, Decision> plan) {
		List<ManagedPool> others = new ArrayList<>();
		for (ManagedPool pool : pools) {
			Decision decision = plan.get(pool.getName());
			if (decision != null && decision.threads() < pool.maxPoolSize()) {
				apply(pool, decision);
			}
			else if (decision != null) {
				others.add(pool);
			}
		}
		others.forEach((pool) -> apply(pool, plan.get(pool.getName())));
	}

	/**
	 * A pool the tuner sizes lent idle threads to another: its decision says so, and its
	 * controller goes on from the size it has.
	 */
	void lent(Loan loan, @Nullable ManagedPool lender) {
		Decision decision = new Decision(Action.SHRINK, loan.from(), loan.to(), new Lent(loan.borrower()), null, null,
				loan.to(), true, false);
		this.states.apply(loan.lender()).setLastDecision(decision);
		this.planner.applied(loan.lender(), loan.to());
		if (lender != null) {
			tell(lender, decision);
		}
	}

	/**
	 * Resize one pool as decided. A failure is logged and counted and leaves the other
	 * pools to be resized; the pool's controller is told the size the pool really has.
	 */
	private void apply(ManagedPool pool, Decision decision) {
		TuningState state = this.states.apply(pool.getName());
		state.setLimited(decision.limited());
		int size = pool.maxPoolSize();
		if (decision.threads() == size) {
			Decision last = state.getLastDecision();
			if (last == null || !decision.reason().equals(last.reason())) {
				state.setLastDecision(decision);
			}
			return;
		}
		try {
			// A pool sized by hand keeps its core size when it gives threads back.
			int core = (state.getMode() == TuningMode.MANUAL) ? Math.min(pool.corePoolSize(), decision.threads())
					: decision.threads();
			pool.resize(core, decision.threads());
			state.setLastDecision(decision);
		}
		catch (InvalidPoolSizeException ex) {
			// Refused by the pool's door, as when another resize took the room first: the
			// message says why, a stack trace would say nothing more.
			resizeFailed(pool, decision, ex.getMessage(), null);
			return;
		}
		catch (RuntimeException ex) {
			resizeFailed(pool, decision, ex.toString(), ex);
			return;
		}
		tell(pool, decision);
	}

	private void tell(ManagedPool pool, Decision decision) {
		try {
			this.listener.resized(pool, decision);
		}
		catch (RuntimeException ex) {
			this.failures.increment();
			logger.warn("A resize listener failed for pool '" + pool.getName() + "'", ex);
		}
	}

	private void resizeFailed(ManagedPool pool, Decision decision, String why, @Nullable RuntimeException ex) {
		this.failures.increment();
		logger.warn("Could not resize pool '" + pool.getName() + "' to " + decision.threads() + " threads; it keeps "
				+ pool.maxPoolSize() + ": " + why, ex);
		this.planner.applied(pool.getName(), pool.maxPoolSize());
	}

}
