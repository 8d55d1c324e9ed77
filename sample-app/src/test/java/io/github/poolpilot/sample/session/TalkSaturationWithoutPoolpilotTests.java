package io.github.poolpilot.sample.session;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.sample.testsupport.HeldDownstream;
import io.github.poolpilot.sample.testsupport.SampleApi;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The failure {@link TalkSaturationTests} guards against, shown with the
 * {@code boot-default} profile: on Spring Boot's one executor with its unbounded queue, a
 * saturated talk API queues every request it gets and start waits behind it.
 *
 * @author poolpilot authors
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "spring.task.execution.pool.core-size=2")
@ActiveProfiles("boot-default")
class TalkSaturationWithoutPoolpilotTests {

	private static final HeldDownstream downstream = HeldDownstream.start();

	@LocalServerPort
	private int port;

	@Autowired
	@Qualifier("applicationTaskExecutor")
	private ThreadPoolTaskExecutor shared;

	@DynamicPropertySource
	static void talkToTheHeldDownstream(DynamicPropertyRegistry registry) {
		registry.add("sample.talk.downstream-url", () -> downstream.url().toString());
	}

	@AfterAll
	static void stopDownstream() {
		downstream.close();
	}

	@Test
	void aSaturatedTalkAPIQueuesWithoutBoundAndStartWaitsBehindIt() {
		SampleApi api = new SampleApi(this.port);
		long sessionId = api.startSession();

		downstream.hold();
		List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();
		for (int i = 0; i < 12; i++) {
			held.add(api.talk(sessionId, "held " + i));
		}
		await().atMost(Duration.ofSeconds(20))
			.until(() -> downstream.arrivals() == 2 && this.shared.getQueueSize() == 10);

		CompletableFuture<HttpResponse<String>> start = api.start();
		await().atMost(Duration.ofSeconds(20)).until(() -> this.shared.getQueueSize() == 11);
		// Nothing is turned away, and start cannot run before the talk calls ahead of it.
		await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).until(() -> !start.isDone());
		assertThat(held).noneMatch(CompletableFuture::isDone);

		downstream.release();
		assertThat(start.join().statusCode()).isEqualTo(200);
		for (CompletableFuture<HttpResponse<String>> response : held) {
			assertThat(response.join().statusCode()).isEqualTo(200);
		}
	}

}
