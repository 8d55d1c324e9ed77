package io.github.poolpilot.benchmarks.ab;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.openjdk.jmh.runner.RunnerException;

import io.github.poolpilot.benchmarks.ab.PairJudge.Judged;
import io.github.poolpilot.benchmarks.ab.PairJudge.Round;

/**
 * Runs the A/B harness: for each shape and task, rounds of short JMH runs of
 * {@code ExecutorOverheadBenchmark} (raw, then each executor compared with it), judged by
 * {@link PairJudge}, each printed with the machine's load average as it ends. Everything
 * it prints, every run's figures ({@code pairs.csv}) and every JMH log go to
 * {@code <out>/<commit>-<time>/}.
 *
 * @author poolpilot authors
 */
public final class AbRun {

	private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmm'Z'")
		.withZone(ZoneOffset.UTC);

	private final AbSettings settings;

	private final JmhRuns runs;

	private final PrintStream console;

	private final PrintStream csv;

	private AbRun(AbSettings settings, JmhRuns runs, PrintStream console, PrintStream csv) {
		this.settings = settings;
		this.runs = runs;
		this.console = console;
		this.csv = csv;
	}

	/**
	 * Run the harness as the command line says.
	 * @param args the arguments after {@code ab}
	 * @return the exit status: 0, 1 for bad arguments, 2 when a case kept too few rounds
	 */
	public static int run(String[] args) {
		if (args.length == 1 && (args[0].equals("-h") || args[0].equals("--help"))) {
			System.out.print(AbSettings.USAGE);
			return 0;
		}
		AbSettings settings;
		try {
			settings = AbSettings.parse(args);
		}
		catch (IllegalArgumentException ex) {
			System.err.println(ex.getMessage());
			return 1;
		}
		String commit = Commit.describe();
		Path directory = settings.out().resolve(commit + "-" + STAMP.format(Instant.now()));
		try {
			Files.createDirectories(directory.resolve("jmh"));
			try (PrintStream log = new PrintStream(Files.newOutputStream(directory.resolve("console.txt")), true,
					StandardCharsets.UTF_8);
					PrintStream csv = new PrintStream(Files.newOutputStream(directory.resolve("pairs.csv")), true,
							StandardCharsets.UTF_8)) {
				PrintStream console = new PrintStream(new TeeOutputStream(System.out, log), true,
						StandardCharsets.UTF_8);
				console.println("poolpilot " + commit + ", " + Runtime.getRuntime().availableProcessors()
						+ " CPUs, load average " + LoadAverage.read() + " at the start; results in " + directory);
				csv.println("shape,task,round,executor,tasks_per_s,bytes_per_task,iteration_scores,loadavg,verdict");
				AbRun run = new AbRun(settings, new JmhRuns(settings, directory.resolve("jmh")), console, csv);
				return run.allCases() ? 0 : 2;
			}
		}
		catch (IOException | RunnerException ex) {
			System.err.println("The A/B run failed: " + ex);
			return 1;
		}
	}

	private boolean allCases() throws RunnerException {
		List<String> summary = new ArrayList<>();
		boolean enough = true;
		for (String shape : this.settings.shapes()) {
			for (String task : this.settings.tasks()) {
				enough &= oneCase(shape, task, summary);
			}
		}
		this.console.println();
		this.console.println("Summary (ratio to raw over the kept rounds: median, IQR, range, n)");
		summary.forEach(this.console::println);
		return enough;
	}

	private boolean oneCase(String shape, String task, List<String> summary) throws RunnerException {
		PairJudge judge = new PairJudge(this.settings.tolerance());
		this.console.printf(Locale.ROOT, "%n== %s, %s tasks: raw against %s%n", shape, task,
				String.join(", ", this.settings.executors()));
		List<Round> rounds = new ArrayList<>();
		List<List<JmhRuns.Figures>> figures = new ArrayList<>();
		List<String> loads = new ArrayList<>();
		while (rounds.size() < this.settings.pairs()
				|| (judge.needsMore(rounds, this.settings.minKept()) && rounds.size() < this.settings.maxPairs())) {
			int index = rounds.size() + 1;
			List<JmhRuns.Figures> round = new ArrayList<>();
			round.add(this.runs.run(shape, task, "raw", index));
			for (String executor : this.settings.executors()) {
				round.add(this.runs.run(shape, task, executor, index));
			}
			String load = LoadAverage.read();
			rounds.add(new Round(index, round.get(0).tasksPerSecond(),
					round.stream().skip(1).map(JmhRuns.Figures::tasksPerSecond).toList()));
			figures.add(round);
			loads.add(load);
			Judged soFar = judge.judge(rounds).get(index - 1);
			this.console.println(describe(soFar, round, load));
		}
		List<Judged> judged = judge.judge(rounds);
		for (int i = 0; i < judged.size(); i++) {
			writeCsv(shape, task, judged.get(i), figures.get(i), loads.get(i));
		}
		long kept = judged.stream().filter(Judged::kept).count();
		this.console.printf(Locale.ROOT, "judged against this run's best raw: %d of %d rounds kept%n", kept,
				judged.size());
		judged.stream()
			.filter((round) -> !round.kept())
			.forEach((round) -> this.console.println("  round " + round.round().index() + " " + round.verdict()));
		for (int e = 0; e < this.settings.executors().size(); e++) {
			Spread ratios = PairJudge.ratios(judged, e);
			String verdict = (kept >= this.settings.minKept()) ? ""
					: "  NOT A MEASUREMENT: fewer than " + this.settings.minKept() + " rounds kept";
			summary.add(String.format(Locale.ROOT, "%s %-7s %s/raw: %s, %d of %d rounds kept, load %s%s", shape, task,
					this.settings.executors().get(e), (ratios != null) ? ratios.describe() : "none kept", kept,
					judged.size(), LoadAverage.range(loads), verdict));
		}
		return kept >= this.settings.minKept();
	}

	private String describe(Judged judged, List<JmhRuns.Figures> round, String load) {
		StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "round %2d  raw %7.3f M/s",
				judged.round().index(), judged.round().raw() / 1e6));
		for (int e = 0; e < this.settings.executors().size(); e++) {
			line.append(String.format(Locale.ROOT, "  %s %7.3f M/s (%.3f, %.1f B/task)",
					this.settings.executors().get(e), round.get(e + 1).tasksPerSecond() / 1e6, judged.round().ratio(e),
					round.get(e + 1).bytesPerTask()));
		}
		return line.append("  load ").append(load).append("  ").append(judged.verdict()).append(" (so far)").toString();
	}

	private void writeCsv(String shape, String task, Judged judged, List<JmhRuns.Figures> round, String load) {
		List<String> names = new ArrayList<>();
		names.add("raw");
		names.addAll(this.settings.executors());
		for (int i = 0; i < round.size(); i++) {
			JmhRuns.Figures figures = round.get(i);
			this.csv.printf(Locale.ROOT, "%s,%s,%d,%s,%.0f,%.2f,%s,%s,\"%s\"%n", shape, task, judged.round().index(),
					names.get(i), figures.tasksPerSecond(), figures.bytesPerTask(), figures.iterations(), load,
					judged.verdict());
		}
	}

}
