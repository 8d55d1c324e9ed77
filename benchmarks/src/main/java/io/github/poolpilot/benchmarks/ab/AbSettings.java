package io.github.poolpilot.benchmarks.ab;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What an A/B run measures and how long: the command line of
 * {@code java -jar benchmarks/target/benchmarks.jar ab}.
 *
 * @param shapes the shapes, {@code 1x1} (one producer, a pool of one thread) or
 * {@code 2x2} (two of each)
 * @param tasks the tasks, {@code trivial} or {@code 1us}
 * @param executors the executors compared with raw, each run right after raw in a round
 * @param pairs the rounds run at least
 * @param minKept the kept rounds each case needs
 * @param maxPairs the rounds run at most, when too few are kept
 * @param tolerance how far below its best raw may fall in a kept round
 * @param warmupIterations JMH's warm-up iterations of each run
 * @param iterations JMH's measured iterations of each run
 * @param iterationTime each iteration's time, as JMH writes it ({@code 1s},
 * {@code 500ms})
 * @param out the directory under which a run writes its own
 * @param jvm the JVM of the forks, or {@code null} for the one running this
 * @author poolpilot authors
 */
public record AbSettings(List<String> shapes, List<String> tasks, List<String> executors, int pairs, int minKept,
		int maxPairs, double tolerance, int warmupIterations, int iterations, String iterationTime, Path out,
		@Nullable String jvm) {

	static final String USAGE = """
			Usage: java -jar benchmarks/target/benchmarks.jar ab [options]
			  --shapes 1x1,2x2         producers x pool threads (default both)
			  --tasks trivial,1us      the tasks (default both)
			  --executors managed      compared with raw, comma-separated (default managed)
			  --pairs 7                rounds run at least (default 7)
			  --min-kept 5             kept rounds each case needs (default 5)
			  --max-pairs 15           rounds run at most while too few are kept (default 15)
			  --tolerance 0.05         raw may be this far below its best in a kept round
			  --warmup-iterations 2    JMH warm-up iterations per run (default 2)
			  --iterations 3           JMH measured iterations per run (default 3)
			  --iteration-time 1s      JMH iteration time (default 1s)
			  --out DIR                results go to DIR/<commit>-<time> (default benchmarks/results/ab)
			  --jvm PATH               the forks' java (default this one)
			""";

	public AbSettings {
		for (String shape : shapes) {
			if (!shape.equals("1x1") && !shape.equals("2x2")) {
				throw new IllegalArgumentException("Unknown shape '" + shape + "': use 1x1 or 2x2");
			}
		}
		for (String task : tasks) {
			if (!task.equals("trivial") && !task.equals("1us")) {
				throw new IllegalArgumentException("Unknown task '" + task + "': use trivial or 1us");
			}
		}
		if (executors.isEmpty() || executors.contains("raw")) {
			throw new IllegalArgumentException("--executors must name at least one executor other than raw");
		}
		if (minKept < 1 || pairs < 1 || maxPairs < pairs) {
			throw new IllegalArgumentException("Need --min-kept >= 1, --pairs >= 1 and --max-pairs >= --pairs but got "
					+ minKept + ", " + pairs + " and " + maxPairs);
		}
		if (warmupIterations < 0 || iterations < 1) {
			throw new IllegalArgumentException("Need --warmup-iterations >= 0 and --iterations >= 1 but got "
					+ warmupIterations + " and " + iterations);
		}
		shapes = List.copyOf(shapes);
		tasks = List.copyOf(tasks);
		executors = List.copyOf(executors);
	}

	/**
	 * Read the settings from the command line.
	 * @param args the arguments after {@code ab}
	 * @return the settings
	 * @throws IllegalArgumentException naming an unknown option or a bad value
	 */
	public static AbSettings parse(String... args) {
		List<String> shapes = List.of("1x1", "2x2");
		List<String> tasks = List.of("trivial", "1us");
		List<String> executors = List.of("managed");
		int pairs = 7;
		int minKept = 5;
		Integer maxPairs = null;
		double tolerance = 0.05;
		int warmupIterations = 2;
		int iterations = 3;
		String iterationTime = "1s";
		Path out = Path.of("benchmarks", "results", "ab");
		String jvm = null;
		for (int i = 0; i < args.length; i++) {
			String option = args[i];
			if (i + 1 >= args.length) {
				throw new IllegalArgumentException("Option " + option + " needs a value\n" + USAGE);
			}
			String value = args[++i];
			switch (option) {
				case "--shapes" -> shapes = list(value);
				case "--tasks" -> tasks = list(value);
				case "--executors" -> executors = list(value);
				case "--pairs" -> pairs = Integer.parseInt(value);
				case "--min-kept" -> minKept = Integer.parseInt(value);
				case "--max-pairs" -> maxPairs = Integer.parseInt(value);
				case "--tolerance" -> tolerance = Double.parseDouble(value);
				case "--warmup-iterations" -> warmupIterations = Integer.parseInt(value);
				case "--iterations" -> iterations = Integer.parseInt(value);
				case "--iteration-time" -> iterationTime = value;
				case "--out" -> out = Path.of(value);
				case "--jvm" -> jvm = value;
				default -> throw new IllegalArgumentException("Unknown option " + option + "\n" + USAGE);
			}
		}
		new PairJudge(tolerance);
		return new AbSettings(shapes, tasks, executors, pairs, minKept,
				(maxPairs != null) ? maxPairs : Math.max(15, pairs), tolerance, warmupIterations, iterations,
				iterationTime, out, jvm);
	}

	private static List<String> list(String value) {
		return Arrays.stream(value.split(",")).map(String::trim).filter((item) -> !item.isEmpty()).toList();
	}

	/**
	 * Return the producer threads of a shape.
	 * @param shape {@code 1x1} or {@code 2x2}
	 * @return the producers
	 */
	static int producers(String shape) {
		return shape.charAt(0) - '0';
	}

	/**
	 * Return the pool threads of a shape.
	 * @param shape {@code 1x1} or {@code 2x2}
	 * @return the pool's threads
	 */
	static int poolSize(String shape) {
		return shape.charAt(2) - '0';
	}

}
