package io.github.poolpilot.benchmarks.loadtest;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * The settings of a load test run, from the {@code run.properties} its script writes.
 *
 * @param warmUpSeconds how long talk was offered its warm-up rate first
 * @param overloadSeconds how long talk was then offered its overload rate
 * @param talkRate the overload rate, requests per second
 * @param timeoutSeconds how long a client waited for an answer
 * @param downstreamLatencyMs the downstream's latency per call
 * @param downstreamCapacity the calls the downstream serves at once
 * @param baselineExecutor the executor the baseline ran talk on, as its meters name it
 * (empty when it has none, as Tomcat's own request threads)
 * @param talkPool the managed pool poolpilot's side ran talk on
 * @author poolpilot authors
 */
record LoadTestSettings(int warmUpSeconds, int overloadSeconds, double talkRate, int timeoutSeconds,
		int downstreamLatencyMs, int downstreamCapacity, String baselineExecutor, String talkPool) {

	/**
	 * Read the settings.
	 * @param file the {@code run.properties} file
	 * @return the settings
	 * @throws IOException if the file cannot be read
	 */
	static LoadTestSettings read(Path file) throws IOException {
		Properties properties = new Properties();
		try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
			properties.load(reader);
		}
		return new LoadTestSettings(Integer.parseInt(properties.getProperty("warmUpSeconds")),
				Integer.parseInt(properties.getProperty("overloadSeconds")),
				Double.parseDouble(properties.getProperty("talkRate")),
				Integer.parseInt(properties.getProperty("timeoutSeconds")),
				Integer.parseInt(properties.getProperty("downstreamLatencyMs")),
				Integer.parseInt(properties.getProperty("downstreamCapacity")),
				properties.getProperty("baselineExecutor", "applicationTaskExecutor"),
				properties.getProperty("talkPool", "talk"));
	}

	/**
	 * Return the most the downstream can serve, its capacity over its latency.
	 * @return calls per second
	 */
	double downstreamRate() {
		return this.downstreamCapacity * 1000.0 / this.downstreamLatencyMs;
	}

}
