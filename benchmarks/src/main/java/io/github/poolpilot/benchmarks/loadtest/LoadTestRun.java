package io.github.poolpilot.benchmarks.loadtest;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.function.Predicate;

/**
 * One side of the load test, as the simulation wrote it: every request with its start,
 * latency and answer, and the pools sampled every second. Times are seconds from the
 * first request of the run.
 *
 * @param label the side's name
 * @param requests every request
 * @param pools the managed pools, from {@code /actuator/threadpools}
 * @param executors every executor's Spring Boot meters, from {@code /actuator/prometheus}
 * @param usage what the sample and the machine used while the side ran
 * ({@code cpu.properties}: {@code wallSeconds}, {@code appCpuSeconds},
 * {@code appCpuPercent} of all CPUs, {@code machineBusyPercent}), empty when unknown
 * @author poolpilot authors
 */
record LoadTestRun(String label, List<Request> requests, List<PoolSample> pools, List<ExecutorSample> executors,
		Properties usage) {

	/**
	 * Read a side from its folder ({@code requests.csv}, {@code pools.csv},
	 * {@code executors.csv}).
	 * @param label the side's name
	 * @param folder the folder
	 * @return the run
	 * @throws IOException if a file cannot be read
	 */
	static LoadTestRun read(String label, Path folder) throws IOException {
		List<String[]> requestRows = rows(folder.resolve("requests.csv"));
		List<String[]> poolRows = rows(folder.resolve("pools.csv"));
		List<String[]> executorRows = rows(folder.resolve("executors.csv"));
		long start = requestRows.stream().mapToLong((row) -> Long.parseLong(row[2])).min().orElse(0);
		List<Request> requests = new ArrayList<>();
		for (String[] row : requestRows) {
			requests.add(new Request(row[1], seconds(Long.parseLong(row[2]), start), Long.parseLong(row[3]), row[4],
					(row.length > 5 && !row[5].isEmpty()) ? Long.parseLong(row[5]) : -1));
		}
		List<PoolSample> pools = new ArrayList<>();
		for (String[] row : poolRows) {
			pools.add(new PoolSample(seconds(Long.parseLong(row[1]), start), row[2], Integer.parseInt(row[4]),
					Integer.parseInt(row[5]), Integer.parseInt(row[6]), Integer.parseInt(row[7]),
					Long.parseLong(row[9]), Long.parseLong(row[10]), Integer.parseInt(row[12])));
		}
		List<ExecutorSample> executors = new ArrayList<>();
		for (String[] row : executorRows) {
			executors.add(new ExecutorSample(seconds(Long.parseLong(row[1]), start), row[2], row[3],
					Double.parseDouble(row[4])));
		}
		Properties usage = new Properties();
		Path cpu = folder.resolve("cpu.properties");
		if (Files.exists(cpu)) {
			try (Reader reader = Files.newBufferedReader(cpu, StandardCharsets.UTF_8)) {
				usage.load(reader);
			}
		}
		return new LoadTestRun(label, requests, pools, executors, usage);
	}

	private static List<String[]> rows(Path file) throws IOException {
		List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
		return lines.stream().skip(1).filter((line) -> !line.isBlank()).map((line) -> line.split(",", -1)).toList();
	}

	private static double seconds(long epochMillis, long startMillis) {
		return (epochMillis - startMillis) / 1000.0;
	}

	/**
	 * Return the requests of one API that started in a time range.
	 * @param api the API
	 * @param from the first second, inclusive
	 * @param to the last second, exclusive
	 * @return the requests
	 */
	List<Request> requests(String api, double from, double to) {
		return select(this.requests,
				(request) -> request.api().equals(api) && request.start() >= from && request.start() < to);
	}

	/**
	 * Return one managed pool's samples.
	 * @param pool the pool
	 * @return its samples, in time order
	 */
	List<PoolSample> pool(String pool) {
		return select(this.pools, (sample) -> sample.pool().equals(pool));
	}

	/**
	 * Return one executor's samples of one meter.
	 * @param executor the executor's bean name
	 * @param meter the meter, as in Prometheus without the {@code executor_} prefix
	 * @return the samples, in time order
	 */
	List<ExecutorSample> executor(String executor, String meter) {
		return select(this.executors, (sample) -> sample.executor().equals(executor) && sample.meter().equals(meter));
	}

	private static <T> List<T> select(List<T> all, Predicate<T> filter) {
		return all.stream().filter(filter).toList();
	}

	/**
	 * Return a percentile of some values, by the nearest-rank method.
	 * @param values the values
	 * @param percentile from 0 to 100
	 * @return the percentile, or {@code NaN} without values
	 */
	static double percentile(double[] values, double percentile) {
		if (values.length == 0) {
			return Double.NaN;
		}
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		int rank = (int) Math.ceil(percentile / 100 * sorted.length);
		return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
	}

	/**
	 * One request as the load generator saw it.
	 *
	 * @param api {@code talk}, {@code start} or {@code stop}
	 * @param start when it was sent, in seconds from the start of the run
	 * @param latencyMs how long its answer took, in milliseconds
	 * @param status the HTTP status, or {@code timeout} without an answer
	 * @param retryAfter the Retry-After header in seconds, or -1 without one
	 */
	record Request(String api, double start, long latencyMs, String status, long retryAfter) {

		boolean is(String status) {
			return this.status.equals(status);
		}

		/**
		 * Return when the answer came, or the client gave up, in seconds from the start
		 * of the run.
		 * @return the end time
		 */
		double end() {
			return this.start + this.latencyMs / 1000.0;
		}

	}

	/**
	 * One managed pool at one second.
	 *
	 * @param time seconds from the start of the run
	 * @param pool the pool's name
	 * @param size its maximum pool size, the size the tuner set
	 * @param live its live threads
	 * @param active its threads running a task
	 * @param queued its queued tasks
	 * @param rejected the tasks it refused so far
	 * @param completed the tasks it completed so far
	 * @param budgetLive the live threads of all managed pools
	 */
	record PoolSample(double time, String pool, int size, int live, int active, int queued, long rejected,
			long completed, int budgetLive) {

	}

	/**
	 * One of Spring Boot's {@code executor.*} meters at one second.
	 *
	 * @param time seconds from the start of the run
	 * @param executor the executor's bean name
	 * @param meter the meter
	 * @param value its value
	 */
	record ExecutorSample(double time, String executor, String meter, double value) {

	}

}
