package io.github.poolpilot.benchmarks.cluster;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.net.httpserver.HttpServer;

/**
 * The documented run of docs/cluster.md: three sample-app instances whose pool
 * {@code talk} shares a limit of 24 through a {@code redis-server} of the run's own (port
 * 18190), in front of one downstream that counts the calls in flight. Load on all three
 * (one hot, two lighter); the third instance is killed with SIGKILL at 30 s; Redis is
 * paused with SIGSTOP at 60 s and let go on at 70 s; the run ends at 90 s. Every 100 ms
 * it records the downstream's calls in flight, every 250 ms each instance's lease, size
 * and state; then it writes the CSVs, a summary and the plot.
 * <p>
 * Usage: {@code cluster-run --app <sample-app jar> --results
 *
<dir>
 *  --images
 *
<dir>
 * }.
 *
 * @author poolpilot authors
 */
public final class ClusterRun {

	static final int LIMIT = 24;

	static final int REDIS_PORT = 18190;

	static final int[] PORTS = { 18101, 18102, 18103 };

	/**
	 * Talk requests per second offered to each instance: the first needs about 20 threads
	 * at the downstream's 100 ms, the others about 6 each.
	 */
	static final int[] RATES = { 200, 60, 60 };

	static final Duration DOWNSTREAM_LATENCY = Duration.ofMillis(100);

	static final double KILL_AT = 30;

	static final double PAUSE_AT = 60;

	static final double RESUME_AT = 70;

	static final double END_AT = 90;

	private static final Pattern LEASE = Pattern.compile("\"lease\":(\\d+)");

	private static final Pattern SIZE = Pattern.compile("\"maxPoolSize\":(\\d+)");

	private static final Pattern STATE = Pattern.compile("\"state\":\"(\\w+)\"");

	private static final Pattern SESSION = Pattern.compile("\"sessionId\":(\\d+)");

	private final AtomicInteger inFlight = new AtomicInteger();

	private final AtomicInteger peak = new AtomicInteger();

	private final List<Process> processes = new ArrayList<>();

	private final ConcurrentLinkedQueue<String> downstreamSamples = new ConcurrentLinkedQueue<>();

	private final ConcurrentLinkedQueue<String> instanceSamples = new ConcurrentLinkedQueue<>();

	private final LongAdder[] answers = { new LongAdder(), new LongAdder(), new LongAdder() };

	private final LongAdder[] refused = { new LongAdder(), new LongAdder(), new LongAdder() };

	private final LongAdder[] failed = { new LongAdder(), new LongAdder(), new LongAdder() };

	private final Map<String, LongAdder> failures = new ConcurrentSkipListMap<>();

	private final HttpClient http = HttpClient.newBuilder()
		.connectTimeout(Duration.ofSeconds(2))
		.executor(Executors.newFixedThreadPool(8))
		.build();

	/**
	 * The instances are read with a client of their own, so that the load's thousands of
	 * requests in flight never hold a sample back.
	 */
	private final HttpClient sampling = HttpClient.newBuilder()
		.connectTimeout(Duration.ofMillis(200))
		.executor(Executors.newSingleThreadExecutor())
		.build();

	private long startedAt;

	private ClusterRun() {
	}

	public static void main(String[] args) throws Exception {
		Path app = null;
		Path results = Path.of("sample-app/cluster-run/results");
		Path images = Path.of("docs/images/cluster");
		for (int i = 0; i + 1 < args.length; i += 2) {
			switch (args[i]) {
				case "--app" -> app = Path.of(args[i + 1]);
				case "--results" -> results = Path.of(args[i + 1]);
				case "--images" -> images = Path.of(args[i + 1]);
				default -> throw new IllegalArgumentException(
						"Unknown option " + args[i] + ": --app, --results and --images are allowed");
			}
		}
		if (app == null || !Files.isRegularFile(app)) {
			throw new IllegalArgumentException("--app must name the sample app's jar, but was " + app);
		}
		ClusterRun run = new ClusterRun();
		try {
			run.run(app, results, images);
		}
		catch (Throwable ex) {
			// The downstream's server and the clients' executors would keep the JVM
			// alive after a failed run: the command must end, failed.
			ex.printStackTrace();
			run.stopAll();
			System.exit(1);
		}
		run.stopAll();
		System.exit(0);
	}

	private void run(Path app, Path results, Path images) throws Exception {
		Files.createDirectories(results);
		Files.createDirectories(images);
		Process redis = start(List.of("redis-server", "--port", String.valueOf(REDIS_PORT), "--bind", "127.0.0.1",
				"--save", "", "--appendonly", "no"), results.resolve("redis.log"));
		HttpServer downstream = downstream();
		String downstreamUrl = "http://127.0.0.1:" + downstream.getAddress().getPort() + "/talk";
		List<Process> instances = new ArrayList<>();
		for (int i = 0; i < PORTS.length; i++) {
			instances.add(start(
					List.of("java", "-Xmx256m", "-jar", app.toString(), "--server.port=" + PORTS[i],
							"--spring.profiles.active=cluster", "--sample.talk.downstream-url=" + downstreamUrl,
							"--poolpilot.cluster.group=cluster-run", "--logging.level.io.lettuce.core=off"),
					results.resolve("instance-" + (i + 1) + ".log")));
		}
		long[] sessions = new long[PORTS.length];
		for (int i = 0; i < PORTS.length; i++) {
			awaitHealth(PORTS[i]);
			sessions[i] = session(PORTS[i]);
		}
		ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);
		ScheduledExecutorService samplers = Executors.newScheduledThreadPool(2);
		this.startedAt = System.nanoTime();
		samplers.scheduleAtFixedRate(
				() -> this.downstreamSamples.add(String.format(Locale.ROOT, "%.1f,%d", seconds(), this.inFlight.get())),
				0, 100, TimeUnit.MILLISECONDS);
		samplers.scheduleAtFixedRate(this::sampleInstances, 0, 250, TimeUnit.MILLISECONDS);
		for (int i = 0; i < PORTS.length; i++) {
			int instance = i;
			long every = TimeUnit.SECONDS.toNanos(1) / RATES[i];
			scheduler.scheduleAtFixedRate(() -> talk(instance, sessions[instance]), 0, every, TimeUnit.NANOSECONDS);
		}
		sleepUntil(KILL_AT);
		instances.get(2).destroyForcibly();
		sleepUntil(PAUSE_AT);
		signal(redis, "STOP");
		sleepUntil(RESUME_AT);
		signal(redis, "CONT");
		sleepUntil(END_AT);
		scheduler.shutdownNow();
		samplers.shutdownNow();
		downstream.stop(0);
		write(results);
		new ClusterRunPlot(results, images).write(LIMIT, KILL_AT, PAUSE_AT, RESUME_AT);
	}

	/**
	 * A downstream that answers each call after its latency and counts the calls in
	 * flight, whoever sends them.
	 */
	private HttpServer downstream() throws IOException {
		HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 200);
		ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
		server.createContext("/talk", (exchange) -> {
			exchange.getRequestBody().readAllBytes();
			this.peak.accumulateAndGet(this.inFlight.incrementAndGet(), Math::max);
			timer.schedule(() -> {
				try (exchange) {
					byte[] body = "{\"reply\":\"heard\",\"tookMs\":100}".getBytes(StandardCharsets.UTF_8);
					exchange.getResponseHeaders().add("Content-Type", "application/json");
					exchange.sendResponseHeaders(200, body.length);
					exchange.getResponseBody().write(body);
				}
				catch (IOException ex) {
					// The caller went away: nothing to answer.
				}
				finally {
					this.inFlight.decrementAndGet();
				}
			}, DOWNSTREAM_LATENCY.toNanos(), TimeUnit.NANOSECONDS);
		});
		server.setExecutor(Executors.newFixedThreadPool(4));
		server.start();
		return server;
	}

	private void talk(int instance, long session) {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + PORTS[instance] + "/api/talk"))
			.timeout(Duration.ofSeconds(10))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{\"sessionId\":" + session + ",\"message\":\"hello\"}"))
			.build();
		this.http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, ex) -> {
			if (response != null && response.statusCode() == 200) {
				this.answers[instance].increment();
			}
			else if (response != null && response.statusCode() == 429) {
				this.refused[instance].increment();
			}
			else {
				this.failed[instance].increment();
				this.failures
					.computeIfAbsent((response != null) ? "HTTP " + response.statusCode() : failure(ex),
							(key) -> new LongAdder())
					.increment();
			}
		});
	}

	/**
	 * What a request that got no answer failed with: the cause the client's
	 * {@code CompletionException} wraps (a timeout, a refused connection).
	 */
	private static String failure(Throwable ex) {
		Throwable cause = (ex instanceof CompletionException && ex.getCause() != null) ? ex.getCause() : ex;
		return cause.getClass().getSimpleName();
	}

	private void sampleInstances() {
		double now = seconds();
		for (int i = 0; i < PORTS.length; i++) {
			String lease = "";
			String size = "";
			String state = "down";
			try {
				String body = get(this.sampling, PORTS[i], "/actuator/threadpools/talk", Duration.ofMillis(200));
				lease = first(LEASE, body);
				size = first(SIZE, body);
				state = first(STATE, body);
			}
			catch (IOException | InterruptedException ex) {
				// Killed, or too slow to answer: recorded as down.
			}
			this.instanceSamples.add(String.format(Locale.ROOT, "%.2f,%d,%s,%s,%s", now, i + 1, lease, size, state));
		}
	}

	private static String first(Pattern pattern, String body) {
		Matcher matcher = pattern.matcher(body);
		return matcher.find() ? matcher.group(1) : "";
	}

	private static String get(HttpClient client, int port, String path, Duration timeout)
			throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(timeout)
			.build();
		return client.send(request, HttpResponse.BodyHandlers.ofString()).body();
	}

	/**
	 * Wait for an instance to answer: three start at once, which on a busy machine of two
	 * CPUs has taken more than two minutes.
	 */
	private void awaitHealth(int port) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
		while (System.nanoTime() < deadline) {
			try {
				get(this.sampling, port, "/actuator/health", Duration.ofSeconds(2));
				return;
			}
			catch (IOException ex) {
				Thread.sleep(500);
			}
		}
		throw new IllegalStateException("The sample app on port " + port + " did not answer within 300 s");
	}

	private long session(int port) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/start"))
			.timeout(Duration.ofSeconds(10))
			.POST(HttpRequest.BodyPublishers.noBody())
			.build();
		String body = this.http.send(request, HttpResponse.BodyHandlers.ofString()).body();
		return Long.parseLong(first(SESSION, body));
	}

	private Process start(List<String> command, Path log) throws IOException {
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		this.processes.add(process);
		return process;
	}

	private static void signal(Process process, String signal) throws IOException, InterruptedException {
		new ProcessBuilder("kill", "-" + signal, String.valueOf(process.pid())).inheritIO().start().waitFor();
	}

	private double seconds() {
		return (System.nanoTime() - this.startedAt) / 1e9;
	}

	private void sleepUntil(double second) throws InterruptedException {
		long left = (long) ((second - seconds()) * 1000);
		if (left > 0) {
			Thread.sleep(left);
		}
	}

	private void write(Path results) throws IOException {
		Files.writeString(results.resolve("downstream.csv"),
				"seconds,inFlight\n" + String.join("\n", this.downstreamSamples) + "\n");
		Files.writeString(results.resolve("instances.csv"),
				"seconds,instance,lease,maxPoolSize,state\n" + String.join("\n", this.instanceSamples) + "\n");
		StringBuilder summary = new StringBuilder();
		int sampledMax = this.downstreamSamples.stream()
			.mapToInt((line) -> Integer.parseInt(line.substring(line.indexOf(',') + 1)))
			.max()
			.orElse(0);
		long over = this.downstreamSamples.stream()
			.filter((line) -> Integer.parseInt(line.substring(line.indexOf(',') + 1)) > LIMIT)
			.count();
		summary.append(String.format(Locale.ROOT,
				"limit %d; downstream calls in flight: most %d in the %d samples of 100 ms, %d at any moment; "
						+ "samples above the limit: %d%n",
				LIMIT, sampledMax, this.downstreamSamples.size(), this.peak.get(), over));
		for (int i = 0; i < PORTS.length; i++) {
			summary.append(String.format(Locale.ROOT,
					"instance %d (%d/s offered): %d answered 200, %d refused (429), %d failed or unanswered%n", i + 1,
					RATES[i], this.answers[i].sum(), this.refused[i].sum(), this.failed[i].sum()));
		}
		summary.append("failed or unanswered, by what the client saw: ");
		this.failures.forEach((failure, count) -> summary.append(failure).append(' ').append(count.sum()).append("; "));
		summary.append(System.lineSeparator());
		Files.writeString(results.resolve("summary.txt"), summary);
		System.out.print(summary);
	}

	private void stopAll() {
		for (Process process : this.processes) {
			process.destroy();
		}
		for (Process process : this.processes) {
			try {
				process.waitFor(20, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			process.destroyForcibly();
		}
	}

}
