package io.github.poolpilot.benchmarks.scenarios;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.benchmarks.scenarios.Summary.StrategyFigures;

/**
 * What every strategy of one scenario did, and the figures derived from it.
 *
 * @param scenario the scenario
 * @param sweep what each static size of the sweep did, empty without a sweep
 * @param best the size the sweep chose, or {@code null} without a sweep
 * @param runs each strategy's run, in the order they ran
 * @param wallSeconds how long the whole scenario took, sweep included
 * @author poolpilot authors
 */
record ScenarioResult(Scenario scenario, List<Sweep.Point> sweep, Sweep.@Nullable Point best, List<RunResult> runs,
		double wallSeconds) {

	/**
	 * The summary's figures of each strategy.
	 * @return the figures, in the order the strategies ran
	 */
	List<StrategyFigures> figures() {
		List<StrategyFigures> figures = new ArrayList<>();
		for (RunResult run : this.runs) {
			figures.add(figures(this.scenario, run));
		}
		return figures;
	}

	/**
	 * The summary's figures of one run: throughput and p99 over the measured window;
	 * settle time and size changes from the per-second sizes (for several pools: the
	 * longest time a pool took to give its threads back, and the changes of every pool
	 * added up); the most live threads.
	 */
	static StrategyFigures figures(Scenario scenario, RunResult run) {
		double throughput = run.log().throughput(-1, scenario.measured());
		double p99 = run.log().p99Ms(-1, scenario.measured());
		@Nullable Integer settle;
		double changes = 0;
		if (scenario.multiPool()) {
			settle = 0;
			for (int pool = 0; pool < run.pools().size(); pool++) {
				int giveBack = giveBackSeconds(scenario, run, pool);
				settle = (settle == null || giveBack < 0) ? null : Math.max(settle, giveBack);
				changes += Figures.changesPerMinute(run.pools().get(pool).size(), scenario.steadyWindows());
			}
		}
		else {
			int[] sizes = run.totalSize();
			settle = 0;
			for (Window window : scenario.settleWindows()) {
				settle = Math.max(settle, Figures.settleSeconds(sizes, window));
			}
			changes = Figures.changesPerMinute(sizes, scenario.steadyWindows());
		}
		long offered = run.log().offered(-1, scenario.measured());
		long unserved = run.log().unserved(-1, scenario.measured(), scenario.seconds() * Runs.SECOND);
		double unservedShare = (offered > 0) ? (double) unserved / offered : 0;
		return new StrategyFigures(run.strategy(), throughput, p99, settle, changes, run.maxLiveThreads(),
				unservedShare, run.meanLiveThreads(scenario.measured()));
	}

	/**
	 * The seconds a pool took after its last load to be down to its min-threads live
	 * threads, or -1 if it was not within the run.
	 */
	static int giveBackSeconds(Scenario scenario, RunResult run, int pool) {
		PoolSpec spec = scenario.pools().get(pool);
		return Figures.giveBackSeconds(run.pools().get(pool).liveMax(), loadEnd(spec, scenario.seconds()),
				spec.bounds().minThreads(), scenario.seconds());
	}

	/**
	 * The second after the last one in which a pool is offered work.
	 */
	static int loadEnd(PoolSpec spec, int seconds) {
		for (int second = seconds - 1; second >= 0; second--) {
			if (spec.arrivalRate().applyAsDouble(second) > 0) {
				return second + 1;
			}
		}
		return 0;
	}

}
