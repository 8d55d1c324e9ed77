package io.github.poolpilot.sample;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SampleApplication} started on its embedded defaults.
 *
 * @author poolpilot authors
 */
// A window of an hour keeps the tuner from resizing idle pools while the test reads them.
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "poolpilot.measurement.window=1h")
class SampleApplicationTests {

	@LocalServerPort
	private int port;

	@Test
	void startsOnEmbeddedDefaultsAndReportsHealthUp() {
		ResponseEntity<String> response = RestClient.create("http://localhost:" + this.port)
			.get()
			.uri("/actuator/health")
			.retrieve()
			.toEntity(String.class);
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(response.getBody()).contains("\"status\":\"UP\"");
	}

	@Test
	void listsItsStartTalkAndStopPoolsSharingABudgetOf400() {
		String pools = RestClient.create("http://localhost:" + this.port)
			.get()
			.uri("/actuator/threadpools")
			.retrieve()
			.body(String.class);
		// Each pool starts at its min-threads and grows with its load; Boot's
		// applicationTaskExecutor (8 threads) and the scheduler of the housekeeping jobs
		// (1 thread) share the budget too: 10 + 5 + 5 + 8 + 1.
		assertThat(pools).contains("\"budget\":{\"maxThreads\":400,\"allocatedThreads\":29")
			.contains("\"start\":{\"corePoolSize\":10,\"maxPoolSize\":10")
			.contains("\"talk\":{\"corePoolSize\":5,\"maxPoolSize\":5")
			.contains("\"stop\":{\"corePoolSize\":5,\"maxPoolSize\":5")
			.contains("\"applicationTaskExecutor\"")
			.contains("\"taskScheduler\":{\"corePoolSize\":1,\"maxPoolSize\":1")
			.contains("\"lateness\":{");
	}

	@Test
	void talkBlockingWaitsForTheBuiltInStubOnTheRequestThread() {
		RestClient client = RestClient.create("http://localhost:" + this.port);
		String started = client.post().uri("/api/start").retrieve().body(String.class);
		long sessionId = JsonPath.parse(started).read("$.sessionId", Long.class);
		String reply = client.post()
			.uri("/api/talk-blocking")
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"sessionId\": " + sessionId + ", \"message\": \"hello\"}")
			.retrieve()
			.body(String.class);
		assertThat(JsonPath.parse(reply).read("$.reply", String.class)).isEqualTo("heard: hello");
		// The stub takes 300 ms a call: the request thread waited for it.
		assertThat(JsonPath.parse(reply).read("$.downstreamMs", Long.class)).isGreaterThanOrEqualTo(300);
		// Without the blocking profile the request threads are Tomcat's own.
		assertThat(client.get().uri("/actuator/threadpools").retrieve().body(String.class)).doesNotContain("\"http\"");
	}

	@Test
	void threadpoolsIsReadOnlyOutsideTheOpsProfile() {
		ResponseEntity<String> response = RestClient.create("http://localhost:" + this.port)
			.post()
			.uri("/actuator/threadpools/talk")
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"maxPoolSize\": 4}")
			.retrieve()
			.onStatus((status) -> true, (request, reply) -> {
			})
			.toEntity(String.class);
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.METHOD_NOT_ALLOWED);
	}

	@Test
	void exposesThePoolsMetersToPrometheus() {
		String scrape = RestClient.create("http://localhost:" + this.port)
			.get()
			.uri("/actuator/prometheus")
			.retrieve()
			.body(String.class);
		// A prefix: the counter may carry more tags, such as the rejection's reason.
		assertThat(scrape).contains("executor_rejected_tasks_total{name=\"talk\"")
			.contains("executor_pool_size_threads{name=\"start\"}")
			.contains("executor_budget_max_threads 400.0");
	}

}
