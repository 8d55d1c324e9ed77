package io.github.poolpilot.webserver;

import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.measure.PoolSnapshot.LittlesLaw;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/**
 * The contract of the web server's request pool {@code http}, run against each embedded
 * server on a random port with a real HTTP client: listed, measured, resized, visible in
 * Spring Boot's own meters, bounded with a 503 while health answers, and nothing lost at
 * graceful shutdown.
 *
 * @author poolpilot authors
 */
abstract class WebServerPoolContractTests {

	private static final JsonMapper json = JsonMapper.builder().build();

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	private int port;

	/**
	 * Return the prefix of Spring Boot's meters of the server's threads.
	 * @return {@code tomcat} or {@code jetty}
	 */
	abstract String meterPrefix();

	/**
	 * Return the server's own settings a test adds (such as its meters' switch).
	 * @return the properties
	 */
	abstract List<String> serverProperties();

	/**
	 * Return the most threads the server itself should report (Spring Boot's
	 * {@code <prefix>.threads.config.max}) when the pool's maximum size is the given one,
	 * as the server counts them.
	 * @param context the running application
	 * @param maxPoolSize the pool's maximum size
	 * @return the server's maximum threads, or {@code null} when Spring Boot binds no
	 * such meter for the server's threads
	 */
	abstract @Nullable Integer serverMaxThreads(ConfigurableApplicationContext context, int maxPoolSize);

	@AfterEach
	void close() {
		WebServerPoolApplication.release.countDown();
		this.contexts.forEach(ConfigurableApplicationContext::close);
	}

	@Test
	void thePoolIsListedWithTheOthers() throws Exception {
		start(4, 4, 4);
		JsonNode pools = getJson("/actuator/threadpools").get("pools");
		assertThat(pools.has("http")).isTrue();
		JsonNode http = getJson("/actuator/threadpools/http");
		assertThat(http.get("maxPoolSize").asInt()).isEqualTo(4);
		assertThat(http.get("queueCapacity").asInt()).isEqualTo(4);
		assertThat(http.get("minThreads").asInt()).isEqualTo(2);
		assertThat(http.get("maxThreads").asInt()).isEqualTo(16);
	}

	@Test
	void aKnownLoadIsMeasuredAsLittlesLawHasIt() throws Exception {
		ConfigurableApplicationContext context = start(8, 8, 50, "poolpilot.measurement.window=2s");
		ManagedPool http = context.getBean(PoolRegistry.class).get("http");
		// 40 requests a second of 100 ms each, open loop: about 4 in service (L = λ·W).
		// Whether the machine is slow or not, the threads the test sees busy during a
		// window (sampled from Tomcat's executor every 5 ms) must be what the pool's
		// figures of that window say: its throughput times its mean service time.
		ScheduledExecutorService load = Executors.newScheduledThreadPool(2);
		BusySampler sampler = new BusySampler(http);
		load.scheduleAtFixedRate(() -> send("/work?ms=100"), 0, 25, TimeUnit.MILLISECONDS);
		load.scheduleAtFixedRate(sampler::sample, 0, 5, TimeUnit.MILLISECONDS);
		try {
			// Read in the process: a poll over HTTP would be a request of the pool too.
			await().atMost(Duration.ofSeconds(40)).untilAsserted(() -> {
				Window window = sampler.lastWindow();
				assertThat(window).isNotNull();
				LittlesLaw figures = window.snapshot().littlesLaw();
				assertThat(figures.arrivalRate()).isCloseTo(40, within(4.0));
				assertThat(figures.throughput()).isCloseTo(figures.arrivalRate(), within(0.1 * figures.arrivalRate()));
				assertThat(figures.meanServiceTimeMs()).isGreaterThanOrEqualTo(100.0);
				assertThat(figures.busyThreads()).isCloseTo(window.sampledBusy(), within(0.1 * window.sampledBusy()));
				assertThat(figures.estimatedConcurrency()).isCloseTo(figures.busyThreads(),
						within(0.1 * figures.busyThreads()));
			});
		}
		finally {
			load.shutdownNow();
		}
		assertThat(http.getRecorder().taskCounts().rejected()).isZero();
		JsonNode figures = getJson("/actuator/threadpools/http").get("littlesLaw");
		assertThat(figures.get("meanServiceTimeMs").asDouble()).isGreaterThanOrEqualTo(100.0);
	}

	@Test
	void aResizeByPostReachesTheServerAndItsOwnMeters() throws Exception {
		ConfigurableApplicationContext context = start(4, 4, 4);
		assertServerMaxThreads(context, 4);
		HttpResponse<String> resized = post("/actuator/threadpools/http", "{\"corePoolSize\": 3, \"maxPoolSize\": 6}");
		assertThat(resized.statusCode()).as(resized.body()).isEqualTo(200);
		JsonNode http = getJson("/actuator/threadpools/http");
		assertThat(http.get("corePoolSize").asInt()).isEqualTo(3);
		assertThat(http.get("maxPoolSize").asInt()).isEqualTo(6);
		assertServerMaxThreads(context, 6);
		HttpResponse<String> refused = post("/actuator/threadpools/http", "{\"maxPoolSize\": 17}");
		assertThat(refused.statusCode()).isEqualTo(400);
		assertThat(refused.body()).contains("maxPoolSize");
		assertThat(getJson("/actuator/threadpools/http").get("maxPoolSize").asInt()).isEqualTo(6);
		assertServerMaxThreads(context, 6);
	}

	@Test
	void aFloodBeyondThreadsAndQueueIsRefusedWith503WhileHealthAnswers() throws Exception {
		ConfigurableApplicationContext context = start(4, 4, 4);
		ManagedPool http = context.getBean(PoolRegistry.class).get("http");
		List<CompletableFuture<HttpResponse<String>>> held = fill(http, 4, 4);
		long start = System.nanoTime();
		HttpResponse<String> refused = this.client.send(request("/work?ms=1").build(), BodyHandlers.ofString());
		assertThat(refused.statusCode()).isEqualTo(503);
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
		assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow())).isPositive();
		JsonNode problem = json.readTree(refused.body());
		assertThat(problem.get("pool").asString()).isEqualTo("http");
		assertThat(problem.get("status").asInt()).isEqualTo(503);
		assertThat(problem.get("reason").asString()).isEqualTo("QUEUE_FULL");
		assertThat(problem.get("title").asString()).isEqualTo("Service Unavailable");
		assertThat(problem.get("instance").asString()).isEqualTo("/work");
		assertThat(problem.get("detail").asString()).contains("http");
		assertThat(problem.get("retryAfterSeconds").asLong())
			.isEqualTo(Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow()));
		HttpResponse<String> health = this.client.send(request("/actuator/health").build(), BodyHandlers.ofString());
		assertThat(health.statusCode()).isEqualTo(200);
		assertThat(http.getExecutor().getQueueSize()).isEqualTo(4);
		WebServerPoolApplication.release.countDown();
		for (CompletableFuture<HttpResponse<String>> response : held) {
			assertThat(response.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		}
		assertThat(http.getRecorder().taskCounts().rejected()).isGreaterThanOrEqualTo(2);
	}

	@Test
	void healthAnswersWhileRefusingWhenTheManagementPortIsTheServersOwn() throws Exception {
		int port;
		try (ServerSocket socket = new ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		assertHealthAnswersWhileRefusing("", "/actuator/health", "server.port=" + port,
				"management.server.port=" + port);
	}

	@Test
	void healthAnswersWhileRefusingUnderTheDispatcherServletsPath() throws Exception {
		assertHealthAnswersWhileRefusing("/api", "/api/actuator/health", "spring.mvc.servlet.path=/api");
	}

	@Test
	void healthAnswersWhileRefusingUnderABasePathWrittenWithATrailingSlash() throws Exception {
		assertHealthAnswersWhileRefusing("", "/manage/health", "management.endpoints.web.base-path=/manage/");
	}

	/**
	 * Fill the pool, then check that the application's requests are refused and the
	 * health endpoint answers.
	 * @param prefix the application's paths' prefix (the dispatcher servlet's path)
	 * @param health the health endpoint's path
	 * @param properties the application's properties
	 */
	private void assertHealthAnswersWhileRefusing(String prefix, String health, String... properties) throws Exception {
		ConfigurableApplicationContext context = start(4, 4, 4, properties);
		ManagedPool http = context.getBean(PoolRegistry.class).get("http");
		List<CompletableFuture<HttpResponse<String>>> held = fill(http, 4, 4, prefix + "/block");
		HttpResponse<String> refused = this.client.send(request(prefix + "/work?ms=1").build(),
				BodyHandlers.ofString());
		assertThat(refused.statusCode()).isEqualTo(503);
		HttpResponse<String> answer = this.client.send(request(health).build(), BodyHandlers.ofString());
		assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
		WebServerPoolApplication.release.countDown();
		for (CompletableFuture<HttpResponse<String>> response : held) {
			assertThat(response.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		}
	}

	@Test
	void aRequestThatWaitedPastMaxQueueWaitIsRefusedWhenItsTurnComes() throws Exception {
		ConfigurableApplicationContext context = start(2, 2, 4, "poolpilot.web-server.max-queue-wait=300ms");
		ManagedPool http = context.getBean(PoolRegistry.class).get("http");
		List<CompletableFuture<HttpResponse<String>>> held = fill(http, 2, 1);
		// The queued request's wait must pass max-queue-wait before the running one ends.
		await().pollDelay(Duration.ofMillis(600)).atMost(Duration.ofSeconds(5)).until(() -> true);
		WebServerPoolApplication.release.countDown();
		assertThat(held.get(0).get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		assertThat(held.get(1).get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		HttpResponse<String> refused = held.get(2).get(20, TimeUnit.SECONDS);
		assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
		assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow())).isPositive();
		assertThat(json.readTree(refused.body()).get("reason").asString()).isEqualTo("QUEUE_WAIT");
		assertThat(http.getRecorder().taskCounts().rejected()).isEqualTo(1);
		// Given back once the response completed, which the client may see first.
		await().atMost(Duration.ofSeconds(10)).until(() -> http.getExecutor().getActiveCount() == 0);
	}

	@Test
	void aGracefulShutdownAnswersEveryRunningAndQueuedRequest() throws Exception {
		ConfigurableApplicationContext context = start(2, 2, 10, "server.shutdown=graceful");
		ManagedPool http = context.getBean(PoolRegistry.class).get("http");
		List<CompletableFuture<HttpResponse<String>>> held = fill(http, 2, 6);
		Thread closing = new Thread(context::close, "closing");
		closing.start();
		// The connector stops taking connections once the graceful shutdown began.
		await().atMost(Duration.ofSeconds(10)).until(this::refusesConnections);
		WebServerPoolApplication.release.countDown();
		for (CompletableFuture<HttpResponse<String>> response : held) {
			HttpResponse<String> answer = response.get(30, TimeUnit.SECONDS);
			assertThat(answer.statusCode()).isEqualTo(200);
			assertThat(answer.body()).isEqualTo("released");
		}
		closing.join(30_000);
		assertThat(closing.isAlive()).isFalse();
	}

	/**
	 * Hold every thread on {@code /block} and queue more behind them.
	 */
	private List<CompletableFuture<HttpResponse<String>>> fill(ManagedPool http, int running, int queued) {
		return fill(http, running, queued, "/block");
	}

	private List<CompletableFuture<HttpResponse<String>>> fill(ManagedPool http, int running, int queued,
			String block) {
		WebServerPoolApplication.release = new CountDownLatch(1);
		List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();
		for (int i = 0; i < running; i++) {
			held.add(send(block));
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> http.getExecutor().getActiveCount() == running);
		for (int i = 0; i < queued; i++) {
			held.add(send(block));
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> http.getExecutor().getQueueSize() == queued);
		return held;
	}

	private boolean refusesConnections() {
		try (Socket socket = new Socket("localhost", this.port)) {
			return false;
		}
		catch (ConnectException ex) {
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	ConfigurableApplicationContext start(int core, int max, int queueCapacity, String... more) {
		List<String> properties = new ArrayList<>(List.of("server.port=0", "poolpilot.web-server.enabled=true",
				"poolpilot.web-server.min-threads=2", "poolpilot.web-server.max-threads=16",
				"poolpilot.web-server.queue-capacity=" + queueCapacity, "poolpilot.tuning.enabled=false",
				"management.endpoints.web.exposure.include=health,threadpools,metrics",
				"management.endpoint.threadpools.access=unrestricted", "poolpilot.existing-executors.enabled=false"));
		properties.addAll(serverProperties());
		properties.addAll(List.of(more));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(WebServerPoolApplication.class)
			.properties(properties.toArray(String[]::new))
			.run();
		this.contexts.add(context);
		this.port = ((WebServerApplicationContext) context).getWebServer().getPort();
		context.getBean(PoolRegistry.class).get("http").resize(core, max);
		return context;
	}

	private void assertServerMaxThreads(ConfigurableApplicationContext context, int maxPoolSize) throws Exception {
		Integer expected = serverMaxThreads(context, maxPoolSize);
		if (expected != null) {
			assertThat(meter("threads.config.max")).isEqualTo(expected.doubleValue());
		}
		else {
			HttpResponse<String> response = this.client.send(
					request("/actuator/metrics/" + meterPrefix() + ".threads.config.max").build(),
					BodyHandlers.ofString());
			assertThat(response.statusCode()).isEqualTo(404);
		}
	}

	private double meter(String name) throws Exception {
		JsonNode meter = getJson("/actuator/metrics/" + meterPrefix() + "." + name);
		for (JsonNode measurement : meter.get("measurements")) {
			return measurement.get("value").asDouble();
		}
		throw new AssertionError("no measurement of " + name);
	}

	private JsonNode getJson(String path) throws Exception {
		HttpResponse<String> response = this.client.send(request(path).build(), BodyHandlers.ofString());
		assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
		return json.readTree(response.body());
	}

	private HttpResponse<String> post(String path, String body) throws Exception {
		return this.client.send(
				request(path).header("Content-Type", "application/json").POST(BodyPublishers.ofString(body)).build(),
				BodyHandlers.ofString());
	}

	private CompletableFuture<HttpResponse<String>> send(String path) {
		return this.client.sendAsync(request(path).build(), BodyHandlers.ofString());
	}

	private HttpRequest.Builder request(String path) {
		return HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path))
			.timeout(Duration.ofSeconds(30));
	}

	/**
	 * A pool's window and the mean of the busy threads the test sampled during it.
	 */
	record Window(PoolSnapshot snapshot, double sampledBusy) {

	}

	/**
	 * Samples the busy threads of a pool's executor, and, each time the pool closes a
	 * window, keeps the window with the mean of the samples taken during it.
	 */
	static final class BusySampler {

		private final ManagedPool pool;

		private long sum;

		private int count;

		private @Nullable PoolSnapshot seen;

		private volatile @Nullable Window lastWindow;

		BusySampler(ManagedPool pool) {
			this.pool = pool;
		}

		synchronized void sample() {
			PoolSnapshot snapshot = this.pool.lastSnapshot();
			if (snapshot != this.seen) {
				// The first window closed began before the sampling did.
				if (this.seen != null && this.count > 0) {
					this.lastWindow = new Window(snapshot, (double) this.sum / this.count);
				}
				this.seen = snapshot;
				this.sum = 0;
				this.count = 0;
			}
			this.sum += this.pool.getExecutor().getActiveCount();
			this.count++;
		}

		@Nullable Window lastWindow() {
			return this.lastWindow;
		}

	}

}
