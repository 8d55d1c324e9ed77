package io.github.poolpilot.grpc;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import com.google.common.util.concurrent.ListenableFuture;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * The contract of the gRPC server's pool {@code grpc}, on Spring Boot's gRPC server on
 * Netty on a free port with a real gRPC client: listed, measured from the hand-over,
 * resized by POST, bounded with RESOURCE_EXHAUSTED and a pushback trailer while the
 * health service answers, and nothing lost at shutdown.
 *
 * @author poolpilot authors
 */
class GrpcServerPoolTests {

	private static final JsonMapper json = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	private final List<ManagedChannel> channels = new ArrayList<>();

	private int httpPort;

	private ManagedChannel channel;

	@AfterEach
	void close() {
		GrpcPoolApplication.release.countDown();
		this.channels.forEach(ManagedChannel::shutdownNow);
		this.contexts.forEach(ConfigurableApplicationContext::close);
	}

	@Test
	void thePoolIsListedWithTheOthersAndResizedByPost() throws Exception {
		ConfigurableApplicationContext context = start(2, 8, 4);
		assertThat(getJson("/actuator/threadpools").get("pools").has("grpc")).isTrue();
		JsonNode grpc = getJson("/actuator/threadpools/grpc");
		assertThat(grpc.get("corePoolSize").asInt()).isEqualTo(2);
		assertThat(grpc.get("queueCapacity").asInt()).isEqualTo(4);
		assertThat(grpc.get("minThreads").asInt()).isEqualTo(2);
		assertThat(grpc.get("maxThreads").asInt()).isEqualTo(8);
		HttpResponse<String> resized = post("/actuator/threadpools/grpc", "{\"corePoolSize\": 3, \"maxPoolSize\": 6}");
		assertThat(resized.statusCode()).as(resized.body()).isEqualTo(200);
		ManagedPool pool = pool(context);
		assertThat(pool.corePoolSize()).isEqualTo(3);
		assertThat(pool.getExecutor().getMaximumPoolSize()).isEqualTo(6);
		HttpResponse<String> refused = post("/actuator/threadpools/grpc", "{\"maxPoolSize\": 9}");
		assertThat(refused.statusCode()).isEqualTo(400);
		assertThat(refused.body()).contains("maxPoolSize");
		assertThat(pool.getExecutor().getMaximumPoolSize()).isEqualTo(6);
		// The resized pool runs as many calls at once as it now has threads.
		GrpcPoolApplication.release = new CountDownLatch(1);
		List<ListenableFuture<String>> held = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			held.add(call(GrpcPoolApplication.BLOCK, "hold"));
		}
		await().atMost(Duration.ofSeconds(30)).until(() -> GrpcPoolApplication.blocked.get() == 3);
		GrpcPoolApplication.release.countDown();
		for (ListenableFuture<String> answer : held) {
			assertThat(answer.get(20, TimeUnit.SECONDS)).isEqualTo("released");
		}
	}

	@Test
	void eachCallIsMeasuredFromItsHandOver() throws Exception {
		// A window longer than the test: the test closes it itself.
		ConfigurableApplicationContext context = start(1, 1, 10, "poolpilot.measurement.window=10m");
		ManagedPool pool = pool(context);
		// One thread: the second call waits for the first, and its wait is measured from
		// the moment gRPC handed it over, not from when a thread took it.
		GrpcPoolApplication.release = new CountDownLatch(1);
		ListenableFuture<String> first = call(GrpcPoolApplication.BLOCK, "hold");
		await().atMost(Duration.ofSeconds(30)).until(() -> GrpcPoolApplication.blocked.get() == 1);
		long sentAt = System.nanoTime();
		ListenableFuture<String> second = call(GrpcPoolApplication.SLEEP, "100");
		await().atMost(Duration.ofSeconds(30)).until(() -> pool.getExecutor().getQueueSize() == 1);
		await().pollDelay(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> true);
		GrpcPoolApplication.release.countDown();
		assertThat(first.get(20, TimeUnit.SECONDS)).isEqualTo("released");
		assertThat(second.get(20, TimeUnit.SECONDS)).isEqualTo("slept 100");
		double sinceSentMs = (System.nanoTime() - sentAt) / 1e6;
		await().atMost(Duration.ofSeconds(10)).until(() -> pool.getRecorder().taskCounts().completed() >= 2);
		PoolSnapshot window = pool.takeSnapshot();
		assertThat(window.queueWait().maxMs()).isGreaterThanOrEqualTo(300).isLessThanOrEqualTo(sinceSentMs);
		assertThat(window.serviceTime().maxMs()).isGreaterThanOrEqualTo(300);
		assertThat(window.windowCompletions()).isGreaterThanOrEqualTo(2);
		assertThat(pool.getRecorder().taskCounts().rejected()).isZero();
	}

	@Test
	void aFloodBeyondThreadsAndQueueIsRefusedAtOnceWhileHealthAnswers() throws Exception {
		ConfigurableApplicationContext context = start(2, 2, 2);
		ManagedPool pool = pool(context);
		List<ListenableFuture<String>> held = fill(pool, 2, 2);
		long start = System.nanoTime();
		StatusRuntimeException refused = refusal(GrpcPoolApplication.PING);
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
		assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
		assertThat(refused.getStatus().getDescription()).contains("'grpc'");
		Metadata trailers = refused.getTrailers();
		assertThat(trailers).isNotNull();
		long pushbackMs = Long.parseLong(trailers.get(GrpcRefusalInterceptor.RETRY_PUSHBACK));
		// Whole seconds, at least one, as the web server's Retry-After.
		assertThat(pushbackMs).isGreaterThanOrEqualTo(1000).isEqualTo(pushbackMs / 1000 * 1000);
		for (int i = 0; i < 5; i++) {
			assertThat(HealthGrpc.newBlockingStub(this.channel)
				.withDeadlineAfter(5, TimeUnit.SECONDS)
				.check(HealthCheckRequest.getDefaultInstance())
				.getStatus()).isEqualTo(ServingStatus.SERVING);
		}
		assertThat(pool.getExecutor().getQueueSize()).isEqualTo(2);
		GrpcPoolApplication.release.countDown();
		for (ListenableFuture<String> answer : held) {
			assertThat(answer.get(20, TimeUnit.SECONDS)).isEqualTo("released");
		}
		// A call's last events (its completion) may still hold the pool's threads and
		// places after its client has the answer: it takes calls again once drained.
		await().atMost(Duration.ofSeconds(20))
			.until(() -> pool.getExecutor().getQueueSize() == 0 && pool.getExecutor().getActiveCount() == 0);
		assertThat(call(GrpcPoolApplication.PING, "again").get(20, TimeUnit.SECONDS)).isEqualTo("pong");
		assertThat(pool.getRecorder().taskCounts().rejected()).isGreaterThanOrEqualTo(1);
		// The pool's meters, as every managed pool's: Spring Boot's executor.* and ours.
		MeterRegistry meters = context.getBean(MeterRegistry.class);
		assertThat(meters.get("executor.rejected")
			.tag("name", "grpc")
			.tag("reason", "queue_full")
			.functionCounter()
			.count()).isEqualTo(pool.getRecorder().taskCounts().rejections().queueFull());
		assertThat(meters.get("executor.pool.max").tag("name", "grpc").gauge().value()).isEqualTo(2);
		assertThat(meters.get("executor.queue.wait").tag("name", "grpc").timer().count()).isPositive();
	}

	@Test
	void theRejectionStatusIsConfigurable() throws Exception {
		ConfigurableApplicationContext context = start(1, 1, 1, "poolpilot.grpc-server.rejection-status=UNAVAILABLE");
		List<ListenableFuture<String>> held = fill(pool(context), 1, 1);
		StatusRuntimeException refused = refusal(GrpcPoolApplication.PING);
		assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
		assertThat(refused.getTrailers().get(GrpcRefusalInterceptor.RETRY_PUSHBACK)).isNotNull();
		GrpcPoolApplication.release.countDown();
		for (ListenableFuture<String> answer : held) {
			assertThat(answer.get(20, TimeUnit.SECONDS)).isEqualTo("released");
		}
	}

	@Test
	void aShutdownAnswersEveryRunningAndQueuedCall() throws Exception {
		ConfigurableApplicationContext context = start(2, 2, 20, "spring.grpc.server.shutdown.grace-period=30s");
		ManagedPool pool = pool(context);
		List<ListenableFuture<String>> held = fill(pool, 2, 6);
		Thread closing = new Thread(context::close, "closing");
		closing.start();
		// The server takes no new call once its shutdown began.
		await().atMost(Duration.ofSeconds(20)).until(this::refusesNewCalls);
		GrpcPoolApplication.release.countDown();
		for (ListenableFuture<String> answer : held) {
			assertThat(answer.get(30, TimeUnit.SECONDS)).isEqualTo("released");
		}
		closing.join(30_000);
		assertThat(closing.isAlive()).isFalse();
		assertThat(pool.getExecutor().isShutdown()).isTrue();
		assertThat(pool.getExecutor().getActiveCount()).isZero();
		assertThat(pool.getExecutor().getQueueSize()).isZero();
		assertThat(pool.getRecorder().taskCounts().abandoned()).isZero();
	}

	private boolean refusesNewCalls() {
		try {
			ClientCalls.blockingUnaryCall(this.channel, GrpcPoolApplication.PING,
					CallOptions.DEFAULT.withDeadlineAfter(200, TimeUnit.MILLISECONDS), "probe");
			return false;
		}
		catch (StatusRuntimeException ex) {
			return ex.getStatus().getCode() == Status.Code.UNAVAILABLE;
		}
	}

	/**
	 * Hold every thread on {@code Block} and queue more behind them.
	 */
	private List<ListenableFuture<String>> fill(ManagedPool pool, int running, int queued) {
		GrpcPoolApplication.release = new CountDownLatch(1);
		List<ListenableFuture<String>> held = new ArrayList<>();
		for (int i = 0; i < running; i++) {
			held.add(call(GrpcPoolApplication.BLOCK, "hold"));
		}
		// In their handlers, every event of theirs handed over: a thread that only ran a
		// call's start would take its message from the queue next.
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(GrpcPoolApplication.blocked.get()).isEqualTo(running));
		for (int i = 0; i < queued; i++) {
			held.add(call(GrpcPoolApplication.BLOCK, "hold"));
		}
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			assertThat(pool.getExecutor().getQueueSize()).isEqualTo(queued);
			assertThat(pool.getExecutor().getActiveCount()).isEqualTo(running);
			assertThat(pool.getRecorder().taskCounts().rejected()).isZero();
		});
		return held;
	}

	private StatusRuntimeException refusal(MethodDescriptor<String, String> method) {
		return catchThrowableOfType(StatusRuntimeException.class, () -> ClientCalls.blockingUnaryCall(this.channel,
				method, CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), "refused?"));
	}

	private ListenableFuture<String> call(MethodDescriptor<String, String> method, String request) {
		return ClientCalls.futureUnaryCall(this.channel.newCall(method, CallOptions.DEFAULT), request);
	}

	private ConfigurableApplicationContext start(int minThreads, int maxThreads, int queueCapacity, String... more) {
		List<String> properties = new ArrayList<>(List.of("server.port=0", "spring.grpc.server.port=0",
				"spring.grpc.server.address=127.0.0.1", "poolpilot.grpc-server.enabled=true",
				"poolpilot.grpc-server.min-threads=" + minThreads, "poolpilot.grpc-server.max-threads=" + maxThreads,
				"poolpilot.grpc-server.queue-capacity=" + queueCapacity, "poolpilot.tuning.enabled=false",
				"management.endpoints.web.exposure.include=health,threadpools",
				"management.endpoint.threadpools.access=unrestricted", "poolpilot.existing-executors.enabled=false",
				"spring.main.banner-mode=off"));
		properties.addAll(List.of(more));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(GrpcPoolApplication.class)
			.properties(properties.toArray(String[]::new))
			.run();
		this.contexts.add(context);
		this.httpPort = ((WebServerApplicationContext) context).getWebServer().getPort();
		int grpcPort = context.getEnvironment().getRequiredProperty("local.grpc.server.port", Integer.class);
		this.channel = NettyChannelBuilder.forAddress("127.0.0.1", grpcPort).usePlaintext().build();
		this.channels.add(this.channel);
		return context;
	}

	private static ManagedPool pool(ConfigurableApplicationContext context) {
		ManagedPool pool = context.getBean(PoolRegistry.class).get(GrpcPool.NAME);
		assertThat(pool).isNotNull();
		return pool;
	}

	private JsonNode getJson(String path) throws Exception {
		HttpResponse<String> response = this.http.send(request(path).build(), BodyHandlers.ofString());
		assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
		return json.readTree(response.body());
	}

	private HttpResponse<String> post(String path, String body) throws Exception {
		return this.http.send(
				request(path).header("Content-Type", "application/json").POST(BodyPublishers.ofString(body)).build(),
				BodyHandlers.ofString());
	}

	private HttpRequest.Builder request(String path) {
		return HttpRequest.newBuilder(URI.create("http://localhost:" + this.httpPort + path))
			.timeout(Duration.ofSeconds(20));
	}

}
