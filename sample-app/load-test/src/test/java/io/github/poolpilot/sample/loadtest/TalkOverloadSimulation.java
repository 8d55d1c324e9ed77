package io.github.poolpilot.sample.loadtest;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.bodyString;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.jsonPath;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.header;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

/**
 * Far more talk requests than the talk API can serve, arriving at a fixed rate whatever
 * the answers (an open model, as real users arrive), while a trickle of start/stop pairs
 * checks that the other APIs keep answering. The requests' own timings and answers go to
 * {@code requests.csv}, and every second the application's pools go to {@code pools.csv}
 * (from {@code /actuator/threadpools}) and {@code executors.csv} (from Spring Boot's
 * {@code executor.*} meters in {@code /actuator/prometheus}).
 * <p>
 * Settings, as system properties: {@code baseUrl}, {@code label} (written in every row),
 * {@code out} (the folder for the CSV files), {@code warmUpRate} and
 * {@code warmUpSeconds} (talk requests per second at first, so that the pools measure
 * their unloaded service time), {@code talkRate} and {@code overloadSeconds} (the
 * overload), {@code probeRate} (start/stop pairs per second, all along),
 * {@code monitorTailSeconds} (how long the pools are still sampled after the last request
 * was sent), {@code startPool} (for the knee run: {@code talk=50} sets the talk pool to
 * 50 threads and back to automatic tuning just before the load starts, so that an idle
 * pool cannot shrink while Gatling starts; needs the endpoint's write access),
 * {@code talkPath} (the talk API: {@code /api/talk}, or {@code /api/talk-blocking} for
 * the thread-per-request run).
 *
 * @author poolpilot authors
 */
public class TalkOverloadSimulation extends Simulation {

	private static final Pattern EXECUTOR_METER = Pattern.compile(
			"^executor_(pool_size_threads|pool_max_threads|active_threads|queued_tasks|completed_tasks_total)\\{name=\"([^\"]+)\"[^}]*\\} (\\S+)$",
			Pattern.MULTILINE);

	private static final ObjectMapper json = new ObjectMapper();

	private final String baseUrl = setting("baseUrl", "http://127.0.0.1:18080");

	private final String label = setting("label", "run");

	private final Path out = Path.of(setting("out", "target/load-test"));

	private final double warmUpRate = Double.parseDouble(setting("warmUpRate", "10"));

	private final Duration warmUp = Duration.ofSeconds(Long.parseLong(setting("warmUpSeconds", "15")));

	private final double talkRate = Double.parseDouble(setting("talkRate", "200"));

	private final Duration overload = Duration.ofSeconds(Long.parseLong(setting("overloadSeconds", "60")));

	private final double probeRate = Double.parseDouble(setting("probeRate", "2"));

	private final Duration monitorTail = Duration.ofSeconds(Long.parseLong(setting("monitorTailSeconds", "20")));

	private final String startPool = setting("startPool", "");

	private final String talkPath = setting("talkPath", "/api/talk");

	private final Csv requests;

	private final Csv pools;

	private final Csv executors;

	/**
	 * Each pool's tuning decisions as they change, one line each: not CSV, they are
	 * sentences.
	 */
	private final Csv decisions;

	private final Map<String, String> lastDecisions = new ConcurrentHashMap<>();

	private final long sessionId;

	{
		try {
			Files.createDirectories(this.out);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		this.requests = new Csv(this.out.resolve("requests.csv"), "label,api,start_ms,latency_ms,status,retry_after");
		this.pools = new Csv(this.out.resolve("pools.csv"),
				"label,t_ms,pool,core,max,live,active,queued,queue_capacity,rejected,completed,mode,budget_live");
		this.executors = new Csv(this.out.resolve("executors.csv"), "label,t_ms,executor,meter,value");
		this.decisions = new Csv(this.out.resolve("decisions.txt"), "# t_ms pool: last tuning decision");
		this.sessionId = startSession();

		HttpProtocolBuilder protocol = http.baseUrl(this.baseUrl)
			.contentTypeHeader("application/json")
			.acceptHeader("application/json")
			// One pool of keep-alive connections for all users, as a gateway would have;
			// it opens more whenever all are busy, so the arrival rate stays what it is.
			.shareConnections();

		ScenarioBuilder talk = scenario("talk").exec(timed("talk",
				http("talk").post(this.talkPath)
					.body(StringBody("{\"sessionId\":" + this.sessionId + ",\"message\":\"hello\"}"))
					.check(status().saveAs("status"), header("Retry-After").optional().saveAs("retryAfter"))));

		ScenarioBuilder probe = scenario("start-stop")
			.exec(timed("start",
					http("start").post("/api/start")
						.check(status().saveAs("status"), jsonPath("$.sessionId").optional().saveAs("probeSession"))))
			.doIf((session) -> session.contains("probeSession"))
			.then(timed("stop",
					http("stop").post("/api/stop")
						.body(StringBody("{\"sessionId\":#{probeSession}}"))
						.check(status().saveAs("status"))));

		Duration total = this.warmUp.plus(this.overload);
		// Until the last requests got their answer or gave up.
		ScenarioBuilder monitor = scenario("monitor").during(total.plus(this.monitorTail))
			.on(exec(http("threadpools").get("/actuator/threadpools").check(bodyString().saveAs("threadpools")))
				.exec(http("prometheus").get("/actuator/prometheus")
					.header("Accept", "text/plain")
					.check(bodyString().saveAs("prometheus")))
				.exec((session) -> recordPools(session))
				.pace(Duration.ofSeconds(1)));

		setUp(talk.injectOpen(constantUsersPerSec(this.warmUpRate).during(this.warmUp).randomized(),
				constantUsersPerSec(this.talkRate).during(this.overload).randomized()),
				probe.injectOpen(constantUsersPerSec(this.probeRate).during(total).randomized()),
				monitor.injectOpen(atOnceUsers(1)))
			.protocols(protocol);
	}

	@Override
	public void before() {
		if (this.startPool.isEmpty()) {
			return;
		}
		String pool = this.startPool.substring(0, this.startPool.indexOf('='));
		int size = Integer.parseInt(this.startPool.substring(this.startPool.indexOf('=') + 1));
		post("/actuator/threadpools/" + pool, "{\"corePoolSize\":" + size + ",\"maxPoolSize\":" + size + "}");
		post("/actuator/threadpools/" + pool, "{\"tuning\":\"auto\"}");
	}

	private void post(String path, String body) {
		HttpRequest request = HttpRequest.newBuilder(URI.create(this.baseUrl + path))
			.timeout(Duration.ofSeconds(10))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build();
		try {
			HttpResponse<String> response = HttpClient.newHttpClient()
				.send(request, HttpResponse.BodyHandlers.ofString());
			if (response.statusCode() != 200) {
				throw new IllegalStateException(
						"POST " + path + " " + body + " answered " + response.statusCode() + ": " + response.body());
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not POST " + path + " at " + this.baseUrl, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	@Override
	public void after() {
		this.requests.close();
		this.pools.close();
		this.executors.close();
		this.decisions.close();
	}

	/**
	 * A request whose start, latency and answer are written to {@code requests.csv}: a
	 * request that got no answer (timed out, or refused a connection) is written with the
	 * status {@code timeout}.
	 */
	private ChainBuilder timed(String api, io.gatling.javaapi.http.HttpRequestActionBuilder request) {
		return exec((session) -> session.set("startMs", System.currentTimeMillis())
			.set("startNs", System.nanoTime())
			.remove("status")
			.remove("retryAfter")).exec(request).exec((session) -> {
				long latencyMs = (System.nanoTime() - session.getLong("startNs")) / 1_000_000;
				String status = session.contains("status") ? String.valueOf(session.getInt("status")) : "timeout";
				String retryAfter = session.contains("retryAfter") ? session.getString("retryAfter") : "";
				this.requests.write(this.label + "," + api + "," + session.getLong("startMs") + "," + latencyMs + ","
						+ status + "," + retryAfter);
				return session.markAsSucceeded();
			});
	}

	private Session recordPools(Session session) {
		long now = System.currentTimeMillis();
		if (session.contains("threadpools")) {
			try {
				JsonNode root = json.readTree(session.getString("threadpools"));
				int budgetLive = root.path("budget").path("liveThreads").asInt();
				for (Iterator<Map.Entry<String, JsonNode>> it = root.path("pools").fields(); it.hasNext();) {
					Map.Entry<String, JsonNode> entry = it.next();
					JsonNode pool = entry.getValue();
					this.pools.write(this.label + "," + now + "," + entry.getKey() + ","
							+ pool.path("corePoolSize").asInt() + "," + pool.path("maxPoolSize").asInt() + ","
							+ pool.path("poolSize").asInt() + "," + pool.path("activeCount").asInt() + ","
							+ pool.path("queueSize").asInt() + "," + pool.path("queueCapacity").asInt() + ","
							+ pool.path("rejectedTasks").asLong() + "," + pool.path("completedTasks").asLong() + ","
							+ pool.path("tuning").path("mode").asText() + "," + budgetLive);
					String decision = pool.path("tuning").path("lastDecision").asText("");
					if (!decision.isEmpty() && !decision.equals(this.lastDecisions.put(entry.getKey(), decision))) {
						this.decisions.write(now + " " + entry.getKey() + ": " + decision);
					}
				}
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		if (session.contains("prometheus")) {
			Matcher meter = EXECUTOR_METER.matcher(session.getString("prometheus"));
			while (meter.find()) {
				this.executors
					.write(this.label + "," + now + "," + meter.group(2) + "," + meter.group(1) + "," + meter.group(3));
			}
		}
		return session.remove("threadpools").remove("prometheus");
	}

	/**
	 * Start the session that every talk request talks in.
	 */
	private long startSession() {
		HttpRequest request = HttpRequest.newBuilder(URI.create(this.baseUrl + "/api/start"))
			.timeout(Duration.ofSeconds(10))
			.POST(HttpRequest.BodyPublishers.noBody())
			.build();
		try {
			HttpResponse<String> response = HttpClient.newHttpClient()
				.send(request, HttpResponse.BodyHandlers.ofString());
			return json.readTree(response.body()).path("sessionId").asLong();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start a session at " + this.baseUrl, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static String setting(String name, String defaultValue) {
		return System.getProperty(name, defaultValue);
	}

	/**
	 * A CSV file written by many virtual users at once.
	 */
	private static final class Csv {

		private final BufferedWriter writer;

		Csv(Path path, String header) {
			try {
				this.writer = Files.newBufferedWriter(path, StandardCharsets.UTF_8);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			write(header);
		}

		synchronized void write(String row) {
			try {
				this.writer.write(row);
				this.writer.newLine();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

		synchronized void close() {
			try {
				this.writer.close();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

	}

}
