package io.github.poolpilot.benchmarks.scenarios;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

import io.github.poolpilot.benchmarks.scenarios.RunResult.PoolSeries;
import io.github.poolpilot.benchmarks.scenarios.TaskLog.PerSecond;

/**
 * Writes what a scenario measured to files: its time series, the tuner's decisions, the
 * sweep, its phases, its plots, and the summary of every scenario run.
 *
 * @author poolpilot authors
 */
final class Reports {

	static final String SERIES_HEADER = "scenario,strategy,pool,second,offered,completed,rejected,p99_ms,pool_size,"
			+ "live_threads,queued,process_cpu,machine_cpu";

	static final String DECISIONS_HEADER = "scenario,strategy,second,pool,size_before,size_after,arrival_rate,"
			+ "throughput,mean_service_ms,p99_service_ms,busy_threads,queued,cpu_load,wait_compute_ratio,goetz_threads,"
			+ "decision";

	static final String SWEEP_HEADER = "scenario,size,throughput_per_s,p99_ms,chosen";

	static final String PHASES_HEADER = "scenario,strategy,phase,pool,from_s,to_s,offered_per_s,throughput_per_s,"
			+ "p99_ms,rejected,settle_seconds,max_size,end_size,overshoot_pct,give_back_seconds";

	private Reports() {
	}

	/**
	 * Write every file of one scenario, named after it in lower case.
	 * @param result what the scenario measured
	 * @param directory the directory to write to
	 * @return the files written
	 * @throws IOException if a file cannot be written
	 */
	static List<Path> write(ScenarioResult result, Path directory) throws IOException {
		Files.createDirectories(directory);
		Scenario scenario = result.scenario();
		String name = scenario.id().toLowerCase(Locale.ROOT);
		List<Path> files = new ArrayList<>();
		files.add(write(directory.resolve(name + ".csv"), SERIES_HEADER, series(result)));
		List<String> decisions = decisions(result);
		if (!decisions.isEmpty()) {
			files.add(write(directory.resolve(name + "-decisions.csv"), DECISIONS_HEADER, decisions));
		}
		if (!result.sweep().isEmpty()) {
			files.add(write(directory.resolve(name + "-sweep.csv"), SWEEP_HEADER, sweep(result)));
		}
		if (!scenario.phases().isEmpty()) {
			files.add(write(directory.resolve(name + "-phases.csv"), PHASES_HEADER, phases(result)));
		}
		Path plot = directory.resolve(name + ".png");
		Charts.write(scenario, result.runs(), plot);
		files.add(plot);
		return files;
	}

	/**
	 * Write {@code summary.csv}: the rows of the scenarios run, and the rows an earlier
	 * run left there of the scenarios not run this time, in scenario order.
	 * @param rows the rows, scenario by scenario
	 * @param directory the directory to write to
	 * @return the scenarios whose rows were kept from the earlier run
	 * @throws IOException if it cannot be written
	 */
	static List<String> writeSummary(List<Summary.Row> rows, Path directory) throws IOException {
		Files.createDirectories(directory);
		Path file = directory.resolve("summary.csv");
		List<String> earlier = Files.exists(file) ? Files.readAllLines(file) : List.of();
		List<String> lines = merged(earlier, rows.stream().map(Summary.Row::toCsv).toList());
		write(file, Summary.HEADER, lines);
		Set<String> run = new TreeSet<>();
		rows.forEach((row) -> run.add(row.scenario()));
		Set<String> kept = new TreeSet<>();
		lines.stream().map(Reports::scenario).filter((scenario) -> !run.contains(scenario)).forEach(kept::add);
		return List.copyOf(kept);
	}

	/**
	 * Merge the lines of a new summary into an earlier one (its header first, or
	 * nothing): a scenario's new lines replace all its earlier ones, and the scenarios
	 * keep the order of their names. An earlier file with another header is ignored.
	 */
	static List<String> merged(List<String> earlier, List<String> lines) {
		Set<String> replaced = new TreeSet<>();
		lines.forEach((line) -> replaced.add(scenario(line)));
		List<String> merged = new ArrayList<>();
		if (!earlier.isEmpty() && earlier.get(0).equals(Summary.HEADER)) {
			earlier.stream()
				.skip(1)
				.filter((line) -> !line.isBlank() && !replaced.contains(scenario(line)))
				.forEach(merged::add);
		}
		merged.addAll(lines);
		// A stable sort: each scenario's strategies stay in the order they ran.
		merged.sort(Comparator.comparing(Reports::scenario));
		return merged;
	}

	private static String scenario(String line) {
		int comma = line.indexOf(',');
		return (comma < 0) ? line : line.substring(0, comma);
	}

	static List<String> series(ScenarioResult result) {
		Scenario scenario = result.scenario();
		List<String> lines = new ArrayList<>();
		for (RunResult run : result.runs()) {
			List<Integer> pools = new ArrayList<>();
			for (int pool = 0; pool < run.pools().size(); pool++) {
				pools.add(pool);
			}
			if (scenario.multiPool()) {
				pools.add(-1);
			}
			for (int pool : pools) {
				PerSecond perSecond = run.log().perSecond(pool, run.seconds());
				for (int second = 0; second < run.seconds(); second++) {
					int size;
					int live;
					int queued;
					String name;
					if (pool < 0) {
						name = "all";
						size = run.totalSize()[second];
						live = run.totalLiveMax()[second];
						queued = 0;
						for (PoolSeries series : run.pools()) {
							queued += series.queued()[second];
						}
					}
					else {
						PoolSeries series = run.pools().get(pool);
						name = series.name();
						size = series.size()[second];
						live = series.liveMax()[second];
						queued = series.queued()[second];
					}
					lines.add(String.join(",", scenario.id(), run.strategy(), name, Integer.toString(second),
							Long.toString(perSecond.offered()[second]), Long.toString(perSecond.completed()[second]),
							Long.toString(perSecond.rejected()[second]), number("%.2f", perSecond.p99Ms()[second]),
							Integer.toString(size), Integer.toString(live), Integer.toString(queued),
							number("%.3f", run.processCpu()[second]), number("%.3f", run.machineCpu()[second])));
				}
			}
		}
		return lines;
	}

	static List<String> decisions(ScenarioResult result) {
		List<String> lines = new ArrayList<>();
		for (RunResult run : result.runs()) {
			for (TuningRecord tick : run.tuning()) {
				lines.add(String.join(",", result.scenario().id(), run.strategy(), number("%.2f", tick.second()),
						tick.pool(), Integer.toString(tick.from()), Integer.toString(tick.to()),
						number("%.1f", tick.arrivalRate()), number("%.1f", tick.throughput()),
						number("%.2f", tick.serviceMs()), number("%.2f", tick.serviceP99Ms()),
						number("%.2f", tick.busyThreads()), Integer.toString(tick.queued()),
						number("%.3f", tick.cpuLoad()), number("%.2f", tick.waitComputeRatio()),
						(tick.goetzThreads() >= 0) ? Integer.toString(tick.goetzThreads()) : "",
						quoted(tick.decision())));
			}
		}
		return lines;
	}

	static List<String> sweep(ScenarioResult result) {
		List<String> lines = new ArrayList<>();
		for (Sweep.Point point : result.sweep()) {
			lines.add(String.join(",", result.scenario().id(), Integer.toString(point.size()),
					number("%.1f", point.throughput()), number("%.2f", point.p99Ms()),
					Boolean.toString(point.equals(result.best()))));
		}
		return lines;
	}

	static List<String> phases(ScenarioResult result) {
		Scenario scenario = result.scenario();
		List<String> lines = new ArrayList<>();
		for (RunResult run : result.runs()) {
			for (Phase phase : scenario.phases()) {
				for (int pool = 0; pool < scenario.pools().size(); pool++) {
					PoolSpec spec = scenario.pools().get(pool);
					boolean loaded = phase.loadedPools().contains(spec.name());
					if (!loaded && scenario.multiPool() && !phase.loadedPools().isEmpty()) {
						continue;
					}
					Window window = phase.window();
					int[] sizes = run.pools().get(pool).size();
					int end = sizes[Math.min(window.to(), sizes.length) - 1];
					String giveBack = "";
					if (scenario.multiPool() && phase.loadedPools().isEmpty()) {
						int seconds = ScenarioResult.giveBackSeconds(scenario, run, pool);
						giveBack = (seconds >= 0) ? Integer.toString(seconds) : "";
					}
					lines.add(String.join(",", scenario.id(), run.strategy(), phase.name(), spec.name(),
							Integer.toString(window.from()), Integer.toString(window.to()),
							number("%.1f", (double) run.log().offered(pool, window) / window.seconds()),
							number("%.1f", run.log().throughput(pool, window)),
							number("%.2f", run.log().p99Ms(pool, window)),
							Long.toString(run.log().rejected(pool, window)),
							Integer.toString(Figures.settleSeconds(sizes, window)),
							Integer.toString(Figures.max(sizes, window)), Integer.toString(end),
							number("%.0f", 100 * Figures.overshoot(sizes, window)), giveBack));
				}
			}
		}
		return lines;
	}

	static String number(String format, double value) {
		return Double.isNaN(value) ? "" : String.format(Locale.ROOT, format, value);
	}

	static String quoted(String text) {
		return "\"" + text.replace("\"", "\"\"") + "\"";
	}

	private static Path write(Path file, String header, List<String> lines) throws IOException {
		List<String> all = new ArrayList<>();
		all.add(header);
		all.addAll(lines);
		Files.write(file, all);
		return file;
	}

}
