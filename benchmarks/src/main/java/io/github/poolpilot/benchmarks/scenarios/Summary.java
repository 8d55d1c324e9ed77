package io.github.poolpilot.benchmarks.scenarios;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * The rows of {@code summary.csv}: one per scenario and strategy, each compared with the
 * scenario's reference strategy (its best static size, or S5's static shares).
 *
 * @author poolpilot authors
 */
final class Summary {

	static final String HEADER = "scenario,strategy,throughput_per_s,p99_ms,throughput_vs_best_static,"
			+ "p99_vs_best_static,settle_seconds,size_changes_per_minute,max_live_threads,unserved_pct,mean_live_threads";

	private Summary() {
	}

	/**
	 * Compare each strategy's figures with the reference's.
	 * @param scenario the scenario's name
	 * @param figures each strategy's figures, in the order to report them
	 * @param reference the name of the strategy the others are compared with
	 * @return one row per strategy; the ratios are {@code null} when the reference did
	 * not run
	 */
	static List<Row> rows(String scenario, List<StrategyFigures> figures, String reference) {
		@Nullable StrategyFigures best = figures.stream()
			.filter((figure) -> figure.strategy().equals(reference))
			.findFirst()
			.orElse(null);
		List<Row> rows = new ArrayList<>();
		for (StrategyFigures figure : figures) {
			Double throughputRatio = (best != null) ? ratio(figure.throughput(), best.throughput()) : null;
			Double p99Ratio = (best != null) ? ratio(figure.p99Ms(), best.p99Ms()) : null;
			rows.add(new Row(scenario, figure.strategy(), figure.throughput(), figure.p99Ms(), throughputRatio,
					p99Ratio, figure.settleSeconds(), figure.changesPerMinute(), figure.maxLiveThreads(),
					figure.unservedShare(), figure.meanLiveThreads()));
		}
		return rows;
	}

	private static @Nullable Double ratio(double value, double reference) {
		return (reference > 0 && !Double.isNaN(value)) ? value / reference : null;
	}

	/**
	 * What one strategy did in one scenario.
	 *
	 * @param strategy the strategy's name
	 * @param throughput tasks completed per second over the measured window
	 * @param p99Ms the 99th percentile of the latencies, from the intended start, of the
	 * tasks meant to arrive in the measured window
	 * @param settleSeconds the settle time, or {@code null} when it has none (in S5, a
	 * pool that never gave its threads back within the run)
	 * @param changesPerMinute size changes per minute once settled
	 * @param maxLiveThreads the most live threads of all its pools together
	 * @param unservedShare the share of the tasks meant to arrive in the measured window
	 * that were refused or not completed by the end of the load
	 * @param meanLiveThreads the mean over the measured window of each second's most live
	 * threads
	 */
	record StrategyFigures(String strategy, double throughput, double p99Ms, @Nullable Integer settleSeconds,
			double changesPerMinute, int maxLiveThreads, double unservedShare, double meanLiveThreads) {

	}

	/**
	 * One row of {@code summary.csv}.
	 *
	 * @param scenario the scenario's name
	 * @param strategy the strategy's name
	 * @param throughput tasks completed per second
	 * @param p99Ms p99 latency in milliseconds
	 * @param throughputVsBest the throughput over the reference's
	 * @param p99VsBest the p99 over the reference's
	 * @param settleSeconds the settle time in seconds
	 * @param changesPerMinute size changes per minute once settled
	 * @param maxLiveThreads the most live threads
	 * @param unservedShare the share of the tasks refused or not completed by the end of
	 * the load
	 * @param meanLiveThreads the mean of each second's most live threads
	 */
	record Row(String scenario, String strategy, double throughput, double p99Ms, @Nullable Double throughputVsBest,
			@Nullable Double p99VsBest, @Nullable Integer settleSeconds, double changesPerMinute, int maxLiveThreads,
			double unservedShare, double meanLiveThreads) {

		/**
		 * Return the row as a line of {@code summary.csv}; an unknown figure is left
		 * empty.
		 * @return the CSV line
		 */
		String toCsv() {
			return String.join(",", this.scenario, this.strategy, format("%.1f", this.throughput),
					format("%.2f", this.p99Ms), format("%.3f", this.throughputVsBest), format("%.3f", this.p99VsBest),
					(this.settleSeconds != null) ? this.settleSeconds.toString() : "",
					format("%.2f", this.changesPerMinute), Integer.toString(this.maxLiveThreads),
					format("%.2f", 100 * this.unservedShare), format("%.1f", this.meanLiveThreads));
		}

		private static String format(String format, @Nullable Double value) {
			return (value == null || value.isNaN()) ? "" : String.format(Locale.ROOT, format, value);
		}

	}

}
