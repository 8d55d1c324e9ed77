package io.github.poolpilot.sample;

import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The budget lends what sits idle, on the sample as it declares its pools, with the web
 * server's pool ({@code blocking}) and the endpoint's write operation ({@code ops}):
 * right after start, resizes past what the budget has free answer 200 and name the idle
 * pool that lent, and one that what the pools hold leaves no room for answers 400 with
 * what is allowed, which then fits. Windows of an hour keep the tuner from shrinking the
 * idle pools during the test, as in the first seconds after a real start.
 *
 * @author poolpilot authors
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "poolpilot.measurement.window=1h")
@ActiveProfiles({ "ops", "blocking" })
class BudgetLendingTests {

	@LocalServerPort
	private int port;

	@Test
	void idlePoolsLendToResizesAndOneThatWhatThePoolsHoldLeavesNoRoomForIsRefused() {
		String pools = get("/actuator/threadpools");
		// start 10, talk 5, stop 5, Boot's executor 8 and its scheduler 1 start at their
		// min-threads; the server's request threads keep their maximum of 200, of which
		// the
		// 190 above its 10 live threads are idle.
		assertThat(JsonPath.<Integer>read(pools, "$.budget.maxThreads")).isEqualTo(400);
		assertThat(JsonPath.<Integer>read(pools, "$.budget.allocatedThreads")).isEqualTo(229);
		assertThat(JsonPath.<Integer>read(pools, "$.budget.lendableThreads")).isEqualTo(190);
		assertThat(JsonPath.<Integer>read(pools, "$.pools.http.lendableThreads")).isEqualTo(190);
		ResponseEntity<String> start = post("start", "{\"corePoolSize\":300,\"maxPoolSize\":300}");
		assertThat(start.getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(JsonPath.<Integer>read(start.getBody(), "$.maxPoolSize")).isEqualTo(300);
		assertThat(JsonPath.<List<Map<String, Object>>>read(start.getBody(), "$.lentBy"))
			.containsExactly(Map.of("pool", "http", "fromMaxPoolSize", 200, "toMaxPoolSize", 81));
		pools = get("/actuator/threadpools");
		assertThat(JsonPath.<Integer>read(pools, "$.budget.allocatedThreads")).isEqualTo(400);
		assertThat(JsonPath.<Integer>read(pools, "$.pools.http.maxPoolSize")).isEqualTo(81);
		assertThat(JsonPath.<String>read(pools, "$.pools.http.tuning.lastDecision"))
			.isEqualTo("shrink 200→81: lent idle threads to pool 'start'");
		ResponseEntity<String> talk = post("talk", "{\"maxPoolSize\":50}");
		assertThat(talk.getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(JsonPath.<List<Map<String, Object>>>read(talk.getBody(), "$.lentBy"))
			.containsExactly(Map.of("pool", "http", "fromMaxPoolSize", 81, "toMaxPoolSize", 36));
		// start 300, talk 50, Boot's 8 and 1 and http 36 of 400: http can lend 26 more,
		// stop may grow from 5 to 31, not to 50.
		ResponseEntity<String> refused = post("stop", "{\"maxPoolSize\":50}");
		assertThat(refused.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
		assertThat(JsonPath.<String>read(refused.getBody(), "$.field")).isEqualTo("maxPoolSize");
		assertThat(JsonPath.<String>read(refused.getBody(), "$.detail"))
			.isEqualTo("maxPoolSize 50 of pool 'stop' would bring the pools' threads to 445, over the budget of 400 "
					+ "threads even with the 26 idle threads other pools can lend (allowed: at most 31)");
		pools = get("/actuator/threadpools");
		assertThat(JsonPath.<Integer>read(pools, "$.pools.stop.maxPoolSize")).isEqualTo(5);
		assertThat(JsonPath.<Integer>read(pools, "$.pools.http.maxPoolSize")).isEqualTo(36);
		ResponseEntity<String> allowed = post("stop", "{\"maxPoolSize\":31}");
		assertThat(allowed.getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(JsonPath.<List<Map<String, Object>>>read(allowed.getBody(), "$.lentBy"))
			.containsExactly(Map.of("pool", "http", "fromMaxPoolSize", 36, "toMaxPoolSize", 10));
		assertThat(JsonPath.<Integer>read(get("/actuator/threadpools"), "$.budget.allocatedThreads")).isEqualTo(400);
	}

	private String get(String path) {
		return RestClient.create("http://localhost:" + this.port).get().uri(path).retrieve().body(String.class);
	}

	private ResponseEntity<String> post(String pool, String body) {
		return RestClient.create("http://localhost:" + this.port)
			.post()
			.uri("/actuator/threadpools/" + pool)
			.contentType(MediaType.APPLICATION_JSON)
			.body(body)
			.retrieve()
			.onStatus((status) -> true, (request, response) -> {
			})
			.toEntity(String.class);
	}

}
