package io.github.poolpilot.actuate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.measure.PoolSnapshot.TaskCounts;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that resizing a busy pool through the endpoint loses no task.
 *
 * @author poolpilot authors
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=threadpools",
				"management.endpoint.threadpools.access=unrestricted", "poolpilot.pools.talk.min-threads=1",
				"poolpilot.pools.talk.max-threads=8", "poolpilot.pools.talk.queue-capacity=50",
				"poolpilot.existing-executors.enabled=false" })
class ThreadPoolsEndpointResizeUnderLoadTests {

	private static final int PRODUCERS = 3;

	private static final int TASKS_PER_PRODUCER = 3_000;

	@LocalServerPort
	private int port;

	@Autowired
	@Qualifier("talk")
	private ThreadPoolTaskExecutor talk;

	@Autowired
	private PoolRegistry registry;

	@Test
	void resizingUpAndDownUnderLoadKeepsEveryTaskAccountedFor() throws Exception {
		LongAdder ran = new LongAdder();
		LongAdder rejected = new LongAdder();
		List<CompletableFuture<Void>> producers = new ArrayList<>();
		for (int p = 0; p < PRODUCERS; p++) {
			producers.add(CompletableFuture.runAsync(() -> produce(ran, rejected)));
		}
		RestClient client = RestClient.create("http://localhost:" + this.port);
		SplittableRandom random = new SplittableRandom(7);
		int resizes = 0;
		while (!CompletableFuture.allOf(producers.toArray(CompletableFuture[]::new)).isDone() || resizes < 20) {
			int max = 1 + random.nextInt(8);
			String body = "{\"corePoolSize\":" + (1 + random.nextInt(max)) + ",\"maxPoolSize\":" + max + "}";
			assertThat(client.post()
				.uri("/actuator/threadpools/talk")
				.contentType(MediaType.APPLICATION_JSON)
				.body(body)
				.retrieve()
				.toBodilessEntity()
				.getStatusCode()
				.value()).isEqualTo(200);
			resizes++;
		}
		CompletableFuture.allOf(producers.toArray(CompletableFuture[]::new)).get(2, TimeUnit.MINUTES);
		ManagedPool pool = this.registry.get("talk");
		await().atMost(Duration.ofMinutes(1))
			.until(() -> pool.getExecutor().getActiveCount() == 0 && pool.getExecutor().getQueueSize() == 0);
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			TaskCounts counts = pool.getRecorder().taskCounts();
			assertThat(counts.submitted()).isEqualTo((long) PRODUCERS * TASKS_PER_PRODUCER);
			assertThat(counts.completed()).isEqualTo(ran.sum());
			assertThat(counts.rejected()).isEqualTo(rejected.sum());
			assertThat(counts.submitted()).isEqualTo(counts.completed() + counts.failed() + counts.rejected());
		});
		assertThat(resizes).isGreaterThanOrEqualTo(20);
	}

	private void produce(LongAdder ran, LongAdder rejected) {
		for (int i = 0; i < TASKS_PER_PRODUCER; i++) {
			try {
				this.talk.execute(() -> {
					ran.increment();
					long until = System.nanoTime() + 20_000;
					while (System.nanoTime() < until) {
						Thread.onSpinWait();
					}
				});
			}
			catch (RejectedExecutionException ex) {
				rejected.increment();
			}
		}
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

	}

}
