package io.github.poolpilot.benchmarks.scenarios;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.benchmarks.scenarios.Summary.StrategyFigures;

/**
 * Runs the tuning scenarios on real threads, every strategy of a scenario one after the
 * other in the same JVM, and writes what they measured to
 * {@code benchmarks/target/scenarios/}.
 * <p>
 * Usage: {@code java -jar benchmarks/target/benchmarks.jar scenarios [S1 ... S9]
 * [--out DIRECTORY] [--strategies NAME,...]}; without scenario names, all nine run.
 *
 * @author poolpilot authors
 */
public final class ScenarioRunner {

	/**
	 * The quiet time between two runs, for the threads of the last one to end and its
	 * garbage to go.
	 */
	private static final long PAUSE_MILLIS = 1000;

	/**
	 * The share of the cores other processes may use, on average over a measured window,
	 * before a run is flagged as disturbed.
	 */
	private static final double DISTURBED = 0.05;

	private static final int QUIET_SECONDS = 10;

	private static final int QUIET_WAIT_MINUTES = 10;

	private final PrintStream out;

	private final Path directory;

	private final List<String> strategies;

	private final int retries;

	private ScenarioRunner(PrintStream out, Path directory, List<String> strategies, int retries) {
		this.out = out;
		this.directory = directory;
		this.strategies = strategies;
		this.retries = retries;
	}

	/**
	 * Run scenarios as the command line says.
	 * @param args scenario names and options
	 * @return the process's exit status
	 */
	public static int run(String[] args) {
		System.setProperty("java.awt.headless", "true");
		List<Scenario> scenarios = new ArrayList<>();
		Path directory = defaultDirectory();
		List<String> strategies = Strategy.NAMES;
		int retries = 0;
		try {
			for (int i = 0; i < args.length; i++) {
				switch (args[i]) {
					case "--out" -> directory = Path.of(args[++i]);
					case "--strategies" -> strategies = Arrays.asList(args[++i].split(","));
					case "--retries" -> retries = Integer.parseInt(args[++i]);
					case "-h", "--help" -> {
						System.out.println(
								"Usage: scenarios [S1 ... S9] [--out DIRECTORY] [--strategies NAME,...] [--retries N]");
						System.out.println("--retries N: run a run that other processes disturbed again, up to N times,"
								+ " once the machine is quiet");
						System.out.println("Strategies: " + String.join(", ", Strategy.NAMES));
						return 0;
					}
					default -> scenarios.add(Scenarios.named(args[i]));
				}
			}
		}
		catch (IllegalArgumentException | ArrayIndexOutOfBoundsException ex) {
			System.err.println((ex.getMessage() != null) ? ex.getMessage() : "Missing option value");
			return 2;
		}
		if (scenarios.isEmpty()) {
			scenarios = Scenarios.all();
		}
		try {
			new ScenarioRunner(System.out, directory, strategies, retries).runAll(scenarios);
			return 0;
		}
		catch (IOException ex) {
			System.err.println("Could not write the results: " + ex);
			return 1;
		}
	}

	private void runAll(List<Scenario> scenarios) throws IOException {
		this.out.println(
				"poolpilot tuning scenarios on real threads, " + OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS));
		this.out.println("machine: " + Runtime.getRuntime().availableProcessors() + " processors, "
				+ System.getProperty("os.name") + " " + System.getProperty("os.version") + ", Java "
				+ System.getProperty("java.vm.version") + " (" + System.getProperty("java.vm.name") + "), max heap "
				+ Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MB");
		if (Runtime.getRuntime().availableProcessors() != 2) {
			this.out.println("warning: the scenarios' loads are sized for 2 cores");
		}
		this.out.println("results: " + this.directory.toAbsolutePath());
		long began = System.nanoTime();
		warmUp();
		List<Summary.Row> rows = new ArrayList<>();
		for (Scenario scenario : scenarios) {
			ScenarioResult result = run(scenario);
			List<Summary.Row> scenarioRows = Summary.rows(scenario.id(), result.figures(), scenario.reference());
			rows.addAll(scenarioRows);
			List<Path> files = Reports.write(result, this.directory);
			report(result, scenarioRows, files);
		}
		List<String> kept = Reports.writeSummary(rows, this.directory);
		this.out.println();
		this.out.println("Summary (" + this.directory.resolve("summary.csv") + "):");
		if (!kept.isEmpty()) {
			this.out.println("(summary.csv also keeps the rows of " + String.join(", ", kept)
					+ " from an earlier run; only these ran now)");
		}
		printTable(rows);
		this.out.printf(Locale.ROOT, "%nall scenarios took %.0f s%n", seconds(began));
	}

	/**
	 * A few seconds of S2's work on a static pool, so that the first strategy of the
	 * first scenario does not run in the interpreter.
	 */
	private void warmUp() {
		Scenario warmUp = Scenarios.s2();
		Schedule schedule = Schedule.generate(warmUp.pools(), 3, 99);
		this.out.println("warm-up: 3 s of S2's work on a static pool of 8");
		Runs.run(warmUp, schedule, 3, StaticStrategies.fixed("warm-up", new int[] { 8 }), (line) -> {
		});
		pause();
	}

	private ScenarioResult run(Scenario scenario) {
		long began = System.nanoTime();
		this.out.println();
		this.out.println("== " + Scenarios.describe(scenario));
		this.out.println("   load average before: " + loadAverage());
		List<Strategy> strategies = new ArrayList<>();
		List<Sweep.Point> points = new ArrayList<>();
		Sweep.@Nullable Point best = null;
		SweepPlan plan = scenario.sweep();
		if (scenario.maxQueueWait() != null) {
			strategies.add(TunedStrategies.tuned());
			strategies.add(TunedStrategies.tunedWithMaxQueueWait(scenario.maxQueueWait()));
		}
		else if (plan != null && this.strategies.contains(Strategy.BEST_STATIC)) {
			best = sweep(scenario, plan, points);
			strategies.add(StaticStrategies.fixed(Strategy.BEST_STATIC, new int[] { best.size() }));
		}
		else if (plan == null && scenario.staticSizes() != null) {
			strategies.add(StaticStrategies.fixed(Strategy.STATIC_SHARES, scenario.staticSizes()));
		}
		if (scenario.maxQueueWait() == null) {
			strategies.add(StaticStrategies.fixedMax(scenario));
			strategies.add(StaticStrategies.goetz(scenario));
			strategies.add(StaticStrategies.springDefault());
			strategies.add(TunedStrategies.modelOnly());
			strategies.add(LimiterStrategies.gradient2());
			strategies.add(LimiterStrategies.vegas());
			strategies.add(TunedStrategies.tuned());
		}
		Schedule schedule = Schedule.generate(scenario.pools(), scenario.seconds(), scenario.seed());
		this.out.printf(Locale.ROOT, "   %d tasks offered in %d s to each strategy%n", schedule.size(),
				scenario.seconds());
		List<RunResult> runs = new ArrayList<>();
		for (Strategy strategy : strategies) {
			if (!this.strategies.contains(strategy.name())) {
				continue;
			}
			this.out.printf(Locale.ROOT, "-- %s: %s%n", strategy.name(), strategy.description());
			RunResult run = runUndisturbed(scenario, schedule, scenario.seconds(), strategy, this.out::println,
					(attempt) -> this.out.println("   " + line(scenario, attempt)));
			runs.add(run);
		}
		return new ScenarioResult(scenario, points, best, runs, seconds(began));
	}

	private Sweep.Point sweep(Scenario scenario, SweepPlan plan, List<Sweep.Point> points) {
		List<PoolSpec> pools = scenario.pools()
			.stream()
			.map((pool) -> pool.withArrivalRate(plan.arrivalRate()))
			.toList();
		Schedule schedule = Schedule.generate(pools, plan.seconds(), scenario.seed());
		this.out.printf(Locale.ROOT, "-- sweep of static sizes %s, %d s each, judged over %s%n",
				Arrays.toString(plan.sizes()), plan.seconds(), plan.window());
		for (int size : plan.sizes()) {
			RunResult run = runUndisturbed(scenario, schedule, plan.seconds(),
					StaticStrategies.fixed("static-" + size, new int[] { size }), (line) -> {
					},
					(attempt) -> this.out.printf(Locale.ROOT,
							"   static %2d: %7.1f/s  p99 %8.2f ms  rejected %d  other processes %.0f%%%n", size,
							attempt.log().throughput(-1, plan.window()), attempt.log().p99Ms(-1, plan.window()),
							attempt.log().rejected(-1, plan.window()),
							100 * attempt.otherProcessesCpu(new Window(0, plan.seconds()))));
			points.add(
					new Sweep.Point(size, run.log().throughput(-1, plan.window()), run.log().p99Ms(-1, plan.window())));
		}
		Sweep.Point best = Sweep.best(points);
		this.out.println("   best static size: " + best.size());
		return best;
	}

	/**
	 * Run a strategy; when other processes used more than {@value #DISTURBED} of the
	 * cores on average during it, wait until the machine is quiet and run it again, up to
	 * the allowed retries. Every attempt is reported; the last one counts.
	 */
	private RunResult runUndisturbed(Scenario scenario, Schedule schedule, int seconds, Strategy strategy,
			Consumer<String> console, Consumer<RunResult> report) {
		for (int attempt = 0;; attempt++) {
			RunResult run = Runs.run(scenario, schedule, seconds, strategy, console);
			report.accept(run);
			pause();
			double others = run.otherProcessesCpu(new Window(0, seconds));
			if (others <= DISTURBED || attempt >= this.retries) {
				return run;
			}
			this.out.printf(Locale.ROOT,
					"   disturbed (other processes used %.0f%% of the cores): waiting for a quiet machine, then again%n",
					100 * others);
			waitForQuiet();
		}
	}

	/**
	 * Wait until the machine's cores were less than {@value #DISTURBED} busy for
	 * {@value #QUIET_SECONDS} seconds in a row (nothing of this process runs meanwhile),
	 * for at most {@value #QUIET_WAIT_MINUTES} minutes.
	 */
	private void waitForQuiet() {
		long began = System.nanoTime();
		long deadline = began + QUIET_WAIT_MINUTES * 60 * Runs.SECOND;
		int quiet = 0;
		long[] last = Monitor.machineTicks();
		while (quiet < QUIET_SECONDS && System.nanoTime() < deadline && last != null) {
			sleep(1000);
			long[] now = Monitor.machineTicks();
			if (now == null) {
				break;
			}
			long total = now[0] - last[0];
			double busy = (total > 0) ? (double) (total - (now[1] - last[1])) / total : 0;
			quiet = (busy < DISTURBED) ? quiet + 1 : 0;
			last = now;
		}
		this.out.printf(Locale.ROOT, "   %s after %.0f s%n",
				(quiet >= QUIET_SECONDS) ? "quiet" : "still not quiet, running anyway", seconds(began));
	}

	private String line(Scenario scenario, RunResult run) {
		StrategyFigures figures = ScenarioResult.figures(scenario, run);
		int[] sizes = run.totalSize();
		int maxSize = Arrays.stream(sizes).max().orElse(0);
		double processCpu = mean(run.processCpu(), scenario.measured());
		double others = run.otherProcessesCpu(new Window(0, scenario.seconds()));
		return String.format(Locale.ROOT,
				"X %.1f/s  p99 %.2f ms  rejected %d  never completed %d  size %d->%d (max %d)  live max %d  "
						+ "settle %s s  changes %.2f/min  cpu: this process %.0f%%, other processes %.0f%%%s  took %.1f s",
				figures.throughput(), figures.p99Ms(), run.log().rejected(-1, new Window(0, scenario.seconds())),
				run.log().neverCompleted(), sizes[0], sizes[Math.min(scenario.seconds(), sizes.length) - 1], maxSize,
				figures.maxLiveThreads(), (figures.settleSeconds() != null) ? figures.settleSeconds() : "-",
				figures.changesPerMinute(), 100 * processCpu, 100 * others, (others > DISTURBED) ? " (DISTURBED)" : "",
				run.wallSeconds());
	}

	private void report(ScenarioResult result, List<Summary.Row> rows, List<Path> files) {
		this.out.printf(Locale.ROOT, "   %s took %.0f s; wrote %s%n", result.scenario().id(), result.wallSeconds(),
				files.stream().map((file) -> file.getFileName().toString()).toList());
	}

	private void printTable(List<Summary.Row> rows) {
		this.out.printf(Locale.ROOT, "%-4s %-19s %10s %10s %8s %8s %7s %9s %6s %10s %9s%n", "", "strategy", "X/s",
				"p99 ms", "X/best", "p99/best", "settle", "changes/m", "live", "unserved%", "mean live");
		for (Summary.Row row : rows) {
			this.out.printf(Locale.ROOT, "%-4s %-19s %10.1f %10.2f %8s %8s %7s %9.2f %6d %10.2f %9.1f%n",
					row.scenario(), row.strategy(), row.throughput(), row.p99Ms(), ratio(row.throughputVsBest()),
					ratio(row.p99VsBest()), (row.settleSeconds() != null) ? row.settleSeconds() : "-",
					row.changesPerMinute(), row.maxLiveThreads(), 100 * row.unservedShare(), row.meanLiveThreads());
		}
	}

	private static String ratio(@Nullable Double ratio) {
		return (ratio != null) ? String.format(Locale.ROOT, "%.3f", ratio) : "-";
	}

	private static double mean(double[] values, Window window) {
		double sum = 0;
		int count = 0;
		for (int second = window.from(); second < Math.min(window.to(), values.length); second++) {
			if (!Double.isNaN(values[second])) {
				sum += values[second];
				count++;
			}
		}
		return (count > 0) ? sum / count : Double.NaN;
	}

	private static void pause() {
		System.gc();
		sleep(PAUSE_MILLIS);
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static double seconds(long since) {
		return (System.nanoTime() - since) / 1e9;
	}

	private static String loadAverage() {
		try {
			return Files.readString(Path.of("/proc/loadavg")).trim();
		}
		catch (IOException ex) {
			return "unknown";
		}
	}

	/**
	 * {@code scenarios/} next to the benchmark jar, so that
	 * {@code java -jar benchmarks/target/benchmarks.jar scenarios} writes to
	 * {@code benchmarks/target/scenarios/}; {@code target/scenarios} when not run from a
	 * jar.
	 */
	private static Path defaultDirectory() {
		try {
			Path location = Path.of(ScenarioRunner.class.getProtectionDomain().getCodeSource().getLocation().toURI());
			if (Files.isRegularFile(location)) {
				return location.getParent().resolve("scenarios");
			}
		}
		catch (URISyntaxException | RuntimeException ex) {
			// Not from a jar: fall through.
		}
		return Path.of("target", "scenarios");
	}

}
