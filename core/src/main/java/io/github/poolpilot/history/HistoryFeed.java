package io.github.poolpilot.history;

import java.util.ArrayList;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.tuning.Decision;
import io.github.poolpilot.tuning.Tuner;
import io.github.poolpilot.tuning.TuningState;

/**
 * Feeds the {@link PoolHistory} from the sampling and tuning loop: after each window
 * (once the tuner ran) it records every pool's snapshot and last decision, which catches
 * decisions made by hand and holds with a new reason; as a {@link Tuner.ResizeListener}
 * it records each resize as it happens, the fast path's between windows included. It runs
 * on the sampler's thread and never throws.
 *
 * @author poolpilot authors
 */
public class HistoryFeed implements Tuner.ResizeListener {

	private static final Log logger = LogFactory.getLog(HistoryFeed.class);

	private final PoolHistory history;

	private final PoolRegistry registry;

	private final Tuner tuner;

	/**
	 * Create a feed.
	 * @param history where to record
	 * @param registry the pools
	 * @param tuner the tuner, which holds each pool's last decision
	 */
	public HistoryFeed(PoolHistory history, PoolRegistry registry, Tuner tuner) {
		this.history = history;
		this.registry = registry;
		this.tuner = tuner;
	}

	/**
	 * Record every pool's last window and decision.
	 */
	public void afterWindow() {
		try {
			List<String> names = new ArrayList<>();
			for (ManagedPool pool : this.registry.pools()) {
				names.add(pool.getName());
				PoolSnapshot snapshot = pool.lastSnapshot();
				TuningState state = this.tuner.state(pool.getName());
				if (snapshot != null) {
					this.history.record(snapshot, state.isLimited());
				}
				Decision decision = state.getLastDecision();
				if (decision != null) {
					this.history.decided(pool.getName(), decision);
				}
			}
			this.history.retain(names);
		}
		catch (RuntimeException ex) {
			logger.warn("Could not record the pools' history", ex);
		}
	}

	@Override
	public void resized(ManagedPool pool, Decision decision) {
		this.history.decided(pool.getName(), decision);
	}

}
