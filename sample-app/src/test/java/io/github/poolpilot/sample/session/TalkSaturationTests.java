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
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that a saturated {@code talk} pool turns work away with 429 and Retry-After while
 * {@code start} and {@code stop}, on pools of their own, keep answering, within a wide
 * bound of their time before (ten times it and two seconds: a timing test on a busy
 * machine can claim no more; a pool they shared with {@code talk} would not answer them
 * at all until the downstream did, as TalkSaturationWithoutPoolpilotTests shows). The
 * downstream holds every call until the test releases it, so the pool is saturated for as
 * long as the test needs, however fast the machine is.
 *
 * @author poolpilot authors
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "poolpilot.tuning.enabled=false", "poolpilot.pools.talk.min-threads=1",
				"poolpilot.pools.talk.max-threads=2", "poolpilot.pools.talk.queue-capacity=2" })
class TalkSaturationTests {

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
	void aSaturatedTalkPoolAnswers429WhileStartAndStopKeepAnswering() {
		SampleApi api = new SampleApi(this.port);
		long sessionId = api.startSession();
		Duration normal = slowestStartAndStop(api);

		downstream.hold();
		PoolExecutor talk = this.pools.get("talk").getExecutor();
		List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			held.add(api.talk(sessionId, "held " + i));
		}
		// 2 threads wait on the downstream, 2 tasks wait in the queue: the pool is full.
		await().atMost(Duration.ofSeconds(20))
			.until(() -> downstream.arrivals() == 2 && talk.getActiveCount() == 2 && talk.getQueueSize() == 2);

		HttpResponse<String> rejected = api.talk(sessionId, "one too many").join();
		assertThat(rejected.statusCode()).isEqualTo(429);
		assertThat(rejected.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(rejected.headers().firstValue("Retry-After"))
			.hasValueSatisfying((retryAfter) -> assertThat(Long.parseLong(retryAfter)).isGreaterThanOrEqualTo(1));
		DocumentContext problem = JsonPath.parse(rejected.body());
		assertThat(problem.read("$.status", Integer.class)).isEqualTo(429);
		assertThat(problem.read("$.pool", String.class)).isEqualTo("talk");
		assertThat(problem.read("$.instance", String.class)).isEqualTo("/api/talk");

		Duration saturated = slowestStartAndStop(api);
		// Generous: start and stop only have to stay in their own range, which a shared,
		// full pool would never let them do (see TalkSaturationWithoutPoolpilotTests).
		assertThat(saturated).isLessThan(normal.multipliedBy(10).plusSeconds(2));
		assertThat(talk.getQueueSize()).isEqualTo(2);
		assertThat(held).noneMatch(CompletableFuture::isDone);

		downstream.release();
		for (CompletableFuture<HttpResponse<String>> response : held) {
			assertThat(response.join().statusCode()).isEqualTo(200);
		}
		assertThat(this.pools.get("talk").getRecorder().taskCounts().rejected()).isEqualTo(1);
	}

	/**
	 * Start and stop sessions a few times, one call after the other, and return the
	 * slowest call.
	 */
	private static Duration slowestStartAndStop(SampleApi api) {
		Duration slowest = Duration.ZERO;
		for (int i = 0; i < 5; i++) {
			long start = System.nanoTime();
			HttpResponse<String> started = api.start().join();
			Duration startTook = Duration.ofNanos(System.nanoTime() - start);
			assertThat(started.statusCode()).isEqualTo(200);
			long sessionId = JsonPath.parse(started.body()).read("$.sessionId", Long.class);
			start = System.nanoTime();
			HttpResponse<String> stopped = api.stop(sessionId).join();
			Duration stopTook = Duration.ofNanos(System.nanoTime() - start);
			assertThat(stopped.statusCode()).isEqualTo(200);
			slowest = max(slowest, max(startTook, stopTook));
		}
		return slowest;
	}

	private static Duration max(Duration a, Duration b) {
		return (a.compareTo(b) >= 0) ? a : b;
	}

}
