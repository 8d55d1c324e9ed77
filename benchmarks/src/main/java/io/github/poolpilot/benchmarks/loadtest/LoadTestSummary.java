package io.github.poolpilot.benchmarks.loadtest;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import io.github.poolpilot.benchmarks.loadtest.LoadTestRun.ExecutorSample;
import io.github.poolpilot.benchmarks.loadtest.LoadTestRun.Request;

/**
 * The load test's figures, both sides in one Markdown table: what the clients got during
 * the overload (answers, latency, throughput) and what start and stop got meanwhile.
 *
 * @author poolpilot authors
 */
final class LoadTestSummary {

	private final LoadTestSettings settings;

	private final List<Side> sides;

	/**
	 * Create the summary.
	 * @param settings the run's settings
	 * @param sides each side and the executor its talk API ran on
	 */
	LoadTestSummary(LoadTestSettings settings, List<Side> sides) {
		this.settings = settings;
		this.sides = sides;
	}

	/**
	 * Return the figures as Markdown.
	 * @return the tables
	 */
	String markdown() {
		double from = this.settings.warmUpSeconds();
		double to = from + this.settings.overloadSeconds();
		StringBuilder out = new StringBuilder();
		out.append("| during the ").append(this.settings.overloadSeconds()).append(" s overload |");
		this.sides.forEach((side) -> out.append(' ').append(side.run().label()).append(" |"));
		out.append('\n').append("|---|");
		this.sides.forEach((side) -> out.append("---|"));
		out.append('\n');
		row(out, "talk requests sent", (side) -> {
			List<Request> talk = side.run().requests("talk", from, to);
			return talk.size() + " (" + format(talk.size() / (to - from)) + "/s)";
		});
		row(out, "answered 200", (side) -> share(side, from, to, (request) -> request.is("200")));
		row(out, "answered 429", (side) -> share(side, from, to, (request) -> request.is("429")));
		row(out, "answered 503", (side) -> share(side, from, to, (request) -> request.is("503")));
		row(out, "no answer within " + this.settings.timeoutSeconds() + " s",
				(side) -> share(side, from, to, (request) -> request.is("timeout")));
		row(out, "other answers", (side) -> share(side, from, to,
				(request) -> !request.is("200") && !request.is("429") && !request.is("503") && !request.is("timeout")));
		row(out, "200s received per second",
				(side) -> format(side.run()
					.requests()
					.stream()
					.filter((request) -> request.api().equals("talk") && request.is("200") && request.end() >= from
							&& request.end() < to)
					.count() / (to - from)));
		row(out, "talk tasks the server completed per second", (side) -> format(
				completedPerSecond(side.run().executor(side.talkExecutor(), "completed_tasks_total"), from, to)));
		row(out, "latency of the 200s: p50 / p99 / max",
				(side) -> latencies(side.run().requests("talk", from, to), "200"));
		row(out, "live threads of the executor running talk", (side) -> {
			int[] sizes = side.run()
				.executor(side.talkExecutor(), "pool_size_threads")
				.stream()
				.filter((sample) -> sample.time() >= from && sample.time() < to)
				.mapToInt((sample) -> (int) sample.value())
				.sorted()
				.toArray();
			return (sizes.length == 0) ? "-" : sizes[0] + " to " + sizes[sizes.length - 1];
		});
		row(out, "latency of the 429s: p50 / p99 / max",
				(side) -> latencies(side.run().requests("talk", from, to), "429"));
		row(out, "latency of the 503s: p50 / p99 / max",
				(side) -> latencies(side.run().requests("talk", from, to), "503"));
		row(out, "Retry-After of the 429s and 503s", (side) -> {
			long[] retryAfter = side.run()
				.requests("talk", from, to)
				.stream()
				.filter((request) -> (request.is("429") || request.is("503")) && request.retryAfter() >= 0)
				.mapToLong(Request::retryAfter)
				.sorted()
				.toArray();
			return (retryAfter.length == 0) ? "-" : retryAfter[0] + " to " + retryAfter[retryAfter.length - 1]
					+ " s, median " + retryAfter[retryAfter.length / 2] + " s";
		});
		for (String api : new String[] { "start", "stop" }) {
			row(out, api + " requests answered 200", (side) -> {
				List<Request> requests = side.run().requests(api, from, to);
				long ok = requests.stream().filter((request) -> request.is("200")).count();
				return ok + " of " + requests.size();
			});
			row(out, api + " latency of the 200s: p50 / p99 / max",
					(side) -> latencies(side.run().requests(api, from, to), "200"));
		}
		row(out, "CPU used by the sample while the side ran", (side) -> usage(side, "appCpuSeconds", " s") + " ("
				+ usage(side, "appCpuPercent", " % of all CPUs") + ")");
		row(out, "whole machine busy meanwhile", (side) -> usage(side, "machineBusyPercent", " %"));
		out.append('\n')
			.append("Talk latency of the 200s by ten-second slice of the overload (p50 / max), and the")
			.append(" share of requests without an answer:\n\n| slice |");
		this.sides.forEach((side) -> out.append(' ').append(side.run().label()).append(" |"));
		out.append('\n').append("|---|");
		this.sides.forEach((side) -> out.append("---|"));
		out.append('\n');
		for (double slice = from; slice < to; slice += 10) {
			double sliceStart = slice;
			double sliceEnd = Math.min(to, slice + 10);
			row(out, format(sliceStart - from) + "–" + format(sliceEnd - from) + " s", (side) -> {
				List<Request> talk = side.run().requests("talk", sliceStart, sliceEnd);
				double[] ok = talk.stream()
					.filter((request) -> request.is("200"))
					.mapToDouble(Request::latencyMs)
					.toArray();
				long timedOut = talk.stream().filter((request) -> request.is("timeout")).count();
				String latency = (ok.length == 0) ? "no 200"
						: seconds(LoadTestRun.percentile(ok, 50)) + " / " + seconds(LoadTestRun.percentile(ok, 100));
				return latency + ", " + percent(timedOut, talk.size()) + " unanswered";
			});
		}
		return out.toString();
	}

	private static String usage(Side side, String key, String unit) {
		String value = side.run().usage().getProperty(key);
		return (value != null) ? value + unit : "-";
	}

	private void row(StringBuilder out, String name, Function<Side, String> value) {
		out.append("| ").append(name).append(" |");
		this.sides.forEach((side) -> out.append(' ').append(value.apply(side)).append(" |"));
		out.append('\n');
	}

	private static String share(Side side, double from, double to, java.util.function.Predicate<Request> filter) {
		List<Request> talk = side.run().requests("talk", from, to);
		long count = talk.stream().filter(filter).count();
		return count + " (" + percent(count, talk.size()) + ")";
	}

	private static String latencies(List<Request> requests, String status) {
		double[] latencies = requests.stream()
			.filter((request) -> request.is(status))
			.mapToDouble(Request::latencyMs)
			.toArray();
		if (latencies.length == 0) {
			return "-";
		}
		return seconds(LoadTestRun.percentile(latencies, 50)) + " / " + seconds(LoadTestRun.percentile(latencies, 99))
				+ " / " + seconds(LoadTestRun.percentile(latencies, 100));
	}

	/**
	 * The growth of a counter from its last sample before a range to its last sample in
	 * it, per second.
	 */
	static double completedPerSecond(List<ExecutorSample> counter, double from, double to) {
		ExecutorSample first = null;
		ExecutorSample last = null;
		for (ExecutorSample sample : counter) {
			if (sample.time() <= from) {
				first = sample;
			}
			if (sample.time() <= to) {
				last = sample;
			}
		}
		if (first == null || last == null || last.time() <= first.time()) {
			return Double.NaN;
		}
		return (last.value() - first.value()) / (last.time() - first.time());
	}

	private static String seconds(double millis) {
		return (millis < 1000) ? format(millis) + " ms" : String.format(Locale.ROOT, "%.2f s", millis / 1000);
	}

	private static String percent(long count, long total) {
		return (total == 0) ? "-" : String.format(Locale.ROOT, "%.1f %%", 100.0 * count / total);
	}

	static String format(double value) {
		if (Double.isNaN(value)) {
			return "-";
		}
		return (Math.abs(value) >= 100 || value == Math.rint(value)) ? String.format(Locale.ROOT, "%.0f", value)
				: String.format(Locale.ROOT, "%.1f", value);
	}

	/**
	 * One side of the comparison.
	 *
	 * @param run what the side measured
	 * @param talkExecutor the bean name of the executor its talk API ran on
	 */
	record Side(LoadTestRun run, String talkExecutor) {

	}

}
