package io.github.poolpilot.benchmarks.ab;

import java.nio.file.Path;
import java.util.stream.Collectors;

import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import io.github.poolpilot.benchmarks.ExecutorOverheadBenchmark;

/**
 * One short JMH run of {@link ExecutorOverheadBenchmark}: one fork, the settings'
 * iterations, JMH's GC profiler for the bytes per task, its log written to a file of its
 * own.
 *
 * @author poolpilot authors
 */
final class JmhRuns {

	private final AbSettings settings;

	private final Path logs;

	JmhRuns(AbSettings settings, Path logs) {
		this.settings = settings;
		this.logs = logs;
	}

	Figures run(String shape, String task, String executor, int round) throws RunnerException {
		TimeValue time = TimeValue.fromString(this.settings.iterationTime());
		ChainedOptionsBuilder options = new OptionsBuilder()
			.include(ExecutorOverheadBenchmark.class.getName() + ".submitAndRun")
			.param("executor", executor)
			.param("task", task)
			.param("poolSize", String.valueOf(AbSettings.poolSize(shape)))
			.threads(AbSettings.producers(shape))
			.forks(1)
			.warmupIterations(this.settings.warmupIterations())
			.warmupTime(time)
			.measurementIterations(this.settings.iterations())
			.measurementTime(time)
			.addProfiler(GCProfiler.class)
			.shouldFailOnError(true)
			.output(this.logs.resolve(String.format("%s-%s-%02d-%s.log", shape, task, round, executor)).toString());
		if (this.settings.jvm() != null) {
			options.jvm(this.settings.jvm());
		}
		RunResult result = new Runner(options.build()).runSingle();
		Result<?> alloc = result.getSecondaryResults().get("gc.alloc.rate.norm");
		String iterations = result.getBenchmarkResults()
			.stream()
			.flatMap((benchmark) -> benchmark.getIterationResults().stream())
			.map((iteration) -> String.format("%.0f", iteration.getPrimaryResult().getScore()))
			.collect(Collectors.joining(";"));
		return new Figures(result.getPrimaryResult().getScore(), (alloc != null) ? alloc.getScore() : Double.NaN,
				iterations);
	}

	/**
	 * What one run measured.
	 *
	 * @param tasksPerSecond the score, tasks per second
	 * @param bytesPerTask JMH's {@code gc.alloc.rate.norm}, bytes per task
	 * @param iterations each measured iteration's score, separated by semicolons
	 */
	record Figures(double tasksPerSecond, double bytesPerTask, String iterations) {

	}

}
