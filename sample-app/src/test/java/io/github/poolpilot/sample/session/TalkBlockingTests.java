package io.github.poolpilot.sample.session;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.pool.PoolExecutor;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.sample.testsupport.HeldDownstream;
import io.github.poolpilot.sample.testsupport.SampleApi;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that the thread-per-request API, {@code talk-blocking}, is protected under the
 * {@code blocking} profile as the asynchronous APIs are: when every request thread waits
 * on the downstream and the web server's queue is full, the next request is answered 503
 * with Retry-After without waiting for a thread (while every request taken still waits on
 * the downstream, which holds them until released), health still answers, and the
 * requests taken are all answered once the downstream is. The downstream holds every call
 * until the test releases it, so the request threads are busy for as long as the test
 * needs.
 *
 * @author poolpilot authors
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "poolpilot.tuning.enabled=false", "poolpilot.web-server.min-threads=2",
				"poolpilot.web-server.max-threads=2", "poolpilot.web-server.queue-capacity=2" })
@ActiveProfiles("blocking")
class TalkBlockingTests {

	private static final HeldDownstream downstream = HeldDownstream.start();

	@LocalServerPort
	private int port;

	@Autowired
	private PoolRegistry pools;

	@DynamicPropertySource
	static void talkToTheHeldDownstream(DynamicPropertyRegistry registry) {
		registry.add("sample.talk.downstream-url", () -> downstream.url().toString());
	}

	@AfterAll
	static void stopDownstream() {
		downstream.close();
	}

	@Test
	void aFloodOfBlockingTalksIsRefusedWith503WhileHealthAnswersAndNothingTakenIsLost() {
		SampleApi api = new SampleApi(this.port);
		long sessionId = api.startSession();
		downstream.release();
		HttpResponse<String> unloaded = talkBlocking(api, sessionId, "unloaded").join();
		assertThat(unloaded.statusCode()).isEqualTo(200);
		assertThat(JsonPath.parse(unloaded.body()).read("$.reply", String.class)).isEqualTo("released");

		downstream.hold();
		int arrivedBefore = downstream.arrivals();
		PoolExecutor http = this.pools.get("http").getExecutor();
		List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();
		// One at a time, each in its place before the next: 2 request threads that
		// wait on the downstream, then 2 requests in the queue. (Sent at once, a
		// request can find the queue full for the moment a thread is still between
		// two requests.)
		for (int i = 0; i < 4; i++) {
			held.add(talkBlocking(api, sessionId, "held " + i));
			int calls = Math.min(i + 1, 2);
			int queued = Math.max(i - 1, 0);
			await().atMost(Duration.ofSeconds(20))
				.untilAsserted(() -> assertThat(
						List.of(downstream.arrivals() - arrivedBefore, http.getActiveCount(), http.getQueueSize()))
					.as("calls at the downstream, busy request threads, queued requests")
					.containsExactly(calls, calls, queued));
		}

		HttpResponse<String> refused = talkBlocking(api, sessionId, "one too many").join();
		assertThat(refused.statusCode()).isEqualTo(503);
		assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(refused.headers().firstValue("Retry-After"))
			.hasValueSatisfying((retryAfter) -> assertThat(Long.parseLong(retryAfter)).isGreaterThanOrEqualTo(1));
		DocumentContext problem = JsonPath.parse(refused.body());
		assertThat(problem.read("$.status", Integer.class)).isEqualTo(503);
		assertThat(problem.read("$.pool", String.class)).isEqualTo("http");

		// Each on a connection of its own: one sent on the refused request's connection
		// while the lane still serves that connection is read in the same turn, answered
		// with the same refusal, and so not handed to the pool, nor counted, again.
		assertThat(new SampleApi(this.port).get("/actuator/health").statusCode()).isEqualTo(200);
		HttpResponse<String> threadPools = new SampleApi(this.port).get("/actuator/threadpools");
		assertThat(threadPools.statusCode()).isEqualTo(200);
		assertThat(JsonPath.parse(threadPools.body()).read("$.pools.http.queueSize", Integer.class)).isEqualTo(2);
		assertThat(held).noneMatch(CompletableFuture::isDone);

		downstream.release();
		for (CompletableFuture<HttpResponse<String>> response : held) {
			assertThat(response.join().statusCode()).isEqualTo(200);
		}
		// The refused talk, and the two management requests, which the pool refused
		// before their path was read and the refusal lane then served.
		assertThat(this.pools.get("http").getRecorder().taskCounts().rejected()).isEqualTo(3);
	}

	private static CompletableFuture<HttpResponse<String>> talkBlocking(SampleApi api, long sessionId, String message) {
		return api.post("/api/talk-blocking", "{\"sessionId\":" + sessionId + ",\"message\":\"" + message + "\"}");
	}

}
