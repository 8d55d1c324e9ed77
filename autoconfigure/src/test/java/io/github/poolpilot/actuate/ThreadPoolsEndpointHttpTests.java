package io.github.poolpilot.actuate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.testsupport.Blocking;
import io.github.poolpilot.testsupport.LocalHttp;
import io.github.poolpilot.tuning.Tuner;
import io.github.poolpilot.tuning.TuningMode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.actuate.audit.listener.AuditApplicationEvent;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.EventListener;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for the {@code threadpools} endpoint over real HTTP.
 *
 * @author poolpilot authors
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=threadpools,loggers",
				"management.endpoint.threadpools.access=unrestricted", "poolpilot.budget.max-threads=10",
				"poolpilot.pools.talk.min-threads=2", "poolpilot.pools.talk.max-threads=8",
				"poolpilot.pools.talk.queue-capacity=20", "poolpilot.pools.stop.max-threads=4",
				"poolpilot.existing-executors.enabled=false",
				// The gRPC server's health updates on the test class path turn scheduling
				// on: these tests count the declared pools only.
				"poolpilot.scheduler.enabled=false",
				// The tuner would resize idle pools while the test reads their sizes.
				"poolpilot.measurement.window=1h" })
class ThreadPoolsEndpointHttpTests {

	@LocalServerPort
	private int port;

	@Autowired
	private PoolRegistry registry;

	@Autowired
	private AuditEvents audits;

	@Autowired
	private Tuner tuner;

	private ManagedPool talk;

	@Autowired
	@Qualifier("stop")
	private Executor stopExecutor;

	private ManagedPool stop;

	@BeforeEach
	void resetTalk() {
		this.talk = this.registry.get("talk");
		this.stop = this.registry.get("stop");
		this.talk.resize(4, 4);
		this.stop.resize(4, 4);
		this.tuner.setMode("talk", TuningMode.AUTO);
		this.tuner.setMode("stop", TuningMode.AUTO);
		this.audits.events.clear();
	}

	@Test
	void listsEveryPoolAndTheBudget() {
		ResponseEntity<String> response = get("/actuator/threadpools");
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(response.getBody()).contains("\"budget\":{\"maxThreads\":10,\"allocatedThreads\":8")
			.contains("\"talk\":{\"corePoolSize\":4,\"maxPoolSize\":4")
			.contains("\"stop\":{")
			.contains("\"queueCapacity\":20")
			.contains("\"minThreads\":2,\"maxThreads\":8,\"weight\":1")
			.contains("\"tuning\":{\"mode\":\"auto\"")
			.contains("\"rejectedTasks\":0,\"rejections\":{\"queueFull\":0,\"queueWait\":0,\"circuitOpen\":0,"
					+ "\"shutdown\":0}")
			.contains("\"timedOutTasks\":0")
			.contains("\"limited\":false");
	}

	@Test
	void showsOnePoolOr404() {
		assertThat(get("/actuator/threadpools/talk").getBody()).startsWith("{\"corePoolSize\":4");
		for (ResponseEntity<String> response : List.of(get("/actuator/threadpools/nope"),
				post("/actuator/threadpools/nope", "{\"corePoolSize\":3}"))) {
			assertThat(response.getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
			assertThat(response.getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
			assertThat(JsonPath.<String>read(response.getBody(), "$.pool")).isEqualTo("nope");
			assertThat(JsonPath.<List<String>>read(response.getBody(), "$.pools")).containsExactly("stop", "talk");
			assertThat(JsonPath.<String>read(response.getBody(), "$.detail"))
				.isEqualTo("No managed pool is named 'nope' (the pools are [stop, talk])");
		}
	}

	@Test
	void resizingSwitchesThePoolToManualAndIsAudited() {
		ResponseEntity<String> response = post("/actuator/threadpools/talk", "{\"corePoolSize\":3,\"maxPoolSize\":6}");
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(response.getBody()).contains("\"corePoolSize\":3,\"maxPoolSize\":6")
			.contains("\"mode\":\"manual\"")
			.contains("resize 4/4→3/6: by anonymous, tuning manual");
		assertThat(this.talk.getExecutor().getCorePoolSize()).isEqualTo(3);
		assertThat(this.talk.getExecutor().getMaximumPoolSize()).isEqualTo(6);
		assertThat(this.audits.events).singleElement().satisfies((event) -> {
			assertThat(event.getAuditEvent().getType()).isEqualTo(ThreadPoolsEndpoint.AUDIT_EVENT_TYPE);
			assertThat(event.getAuditEvent().getPrincipal()).isEqualTo("anonymous");
			assertThat(event.getAuditEvent().getData()).containsEntry("pool", "talk");
		});
		assertThat(post("/actuator/threadpools/talk", "{\"tuning\":\"auto\"}").getBody()).contains("\"mode\":\"auto\"");
		assertThat(this.tuner.state("talk").getMode()).isEqualTo(TuningMode.AUTO);
	}

	@Test
	void aResizePastWhatTheBudgetHasFreeBorrowsFromIdlePoolsAndNamesThem() {
		// talk 4 and stop 4 of 10: talk's 8 takes 2 of stop's idle threads.
		ResponseEntity<String> response = post("/actuator/threadpools/talk", "{\"maxPoolSize\":8}");
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(JsonPath.<List<Map<String, Object>>>read(response.getBody(), "$.lentBy"))
			.containsExactly(Map.of("pool", "stop", "fromMaxPoolSize", 4, "toMaxPoolSize", 2));
		assertThat(this.stop.getExecutor().getMaximumPoolSize()).isEqualTo(2);
		assertThat(this.tuner.state("stop").getLastDecision().reason())
			.isEqualTo("shrink 4→2: lent idle threads to pool 'talk'");
		assertThat(post("/actuator/threadpools/talk", "{\"maxPoolSize\":6}").getBody()).doesNotContain("lentBy");
	}

	@Test
	void aResizeThatWhatThePoolsUseLeavesNoRoomForAnswers400WithWhatIsAllowed() {
		CountDownLatch release = new CountDownLatch(1);
		try {
			for (int i = 0; i < 4; i++) {
				this.stopExecutor.execute(() -> Blocking.await(release));
			}
			await().atMost(Duration.ofSeconds(10)).until(() -> this.stop.liveThreads() == 4);
			ResponseEntity<String> response = post("/actuator/threadpools/talk", "{\"maxPoolSize\":8}");
			assertProblem(response, "maxPoolSize");
			assertThat(JsonPath.<String>read(response.getBody(), "$.detail")).isEqualTo("maxPoolSize 8 of pool 'talk' "
					+ "would bring the pools' threads to 12, over the budget of 10 threads (allowed: at most 6)");
			assertUnchanged();
			assertThat(this.stop.getExecutor().getMaximumPoolSize()).isEqualTo(4);
		}
		finally {
			release.countDown();
			// Idle threads stay alive at the pool's core size: end them, as lending
			// counts live threads as used.
			this.stop.resize(1, 1);
			await().atMost(Duration.ofSeconds(10)).until(() -> this.stop.liveThreads() <= 1);
		}
	}

	@Test
	void oneSizeAloneKeepsCoreWithinMax() {
		assertThat(post("/actuator/threadpools/talk", "{\"maxPoolSize\":3}").getBody())
			.contains("\"corePoolSize\":3,\"maxPoolSize\":3");
		assertThat(post("/actuator/threadpools/talk", "{\"corePoolSize\":5}").getBody())
			.contains("\"corePoolSize\":5,\"maxPoolSize\":5");
	}

	@ParameterizedTest
	@ValueSource(strings = { "{\"corePoolSize\":-1}|corePoolSize", "{\"corePoolSize\":0}|corePoolSize",
			"{\"corePoolSize\":6,\"maxPoolSize\":5}|corePoolSize", "{\"maxPoolSize\":9}|maxPoolSize",
			"{\"corePoolSize\":1}|corePoolSize", "{\"tuning\":\"fast\"}|tuning", "{}|corePoolSize",
			"{\"maxPoolsize\":5}|maxPoolsize", "{\"corePoolSize\":3,\"extra\":1}|extra",
			"{\"corePoolSize\":null}|corePoolSize" })
	void invalidChangesAnswer400NamingTheFieldAndChangeNothing(String caseAndField) {
		String body = caseAndField.substring(0, caseAndField.indexOf('|'));
		String field = caseAndField.substring(caseAndField.indexOf('|') + 1);
		assertProblem(post("/actuator/threadpools/talk", body), field);
		assertUnchanged();
	}

	@ParameterizedTest
	@ValueSource(strings = { "{\"corePoolSize\":-1}", "{\"corePoolSize\":0}", "{\"corePoolSize\":6,\"maxPoolSize\":5}",
			"{\"maxPoolSize\":9}", "{\"corePoolSize\":1}" })
	void sizesOutsideWhatIsAllowedAnswerADetailSayingWhatIs(String body) {
		ResponseEntity<String> response = post("/actuator/threadpools/talk", body);
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
		assertThat(JsonPath.<String>read(response.getBody(), "$.detail")).contains("of pool 'talk'")
			.containsPattern("\\(allowed: \\d+ to \\d+\\)");
		assertUnchanged();
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', quoteCharacter = '`',
			textBlock = """
							{"corePoolSize":"many"}          | corePoolSize | corePoolSize must be a whole number (a JSON integer) between the pool's minThreads and maxThreads, not the string "many"
							{"corePoolSize":1.5}             | corePoolSize | corePoolSize must be a whole number (a JSON integer) between the pool's minThreads and maxThreads, not the fraction 1.5
							{"maxPoolSize":99999999999999}   | maxPoolSize  | maxPoolSize must be a whole number (a JSON integer) between the pool's minThreads and maxThreads, not the number 99999999999999, which is out of range
							{"corePoolSize":[1]}             | corePoolSize | corePoolSize must be a whole number (a JSON integer) between the pool's minThreads and maxThreads, not an array or an object
							{"tuning":true}                  | tuning       | tuning "true" is not a tuning mode (allowed: "auto", "manual")
					{"tuning":{}}                    | tuning       | tuning must be "auto" or "manual", not an array or an object
							{not json                        | body         | the body must be a JSON object with any of corePoolSize and maxPoolSize (whole numbers) and tuning ("auto" or "manual")
							[]                               | body         | the body must be a JSON object with any of corePoolSize and maxPoolSize (whole numbers) and tuning ("auto" or "manual")
							""")
	void malformedValuesAnswerAProblemNamingTheFieldAndChangeNothing(String body, String field, String detail) {
		ResponseEntity<String> response = post("/actuator/threadpools/talk", body);
		assertProblem(response, field);
		assertThat(JsonPath.<String>read(response.getBody(), "$.detail")).isEqualTo(detail);
		assertUnchanged();
	}

	@Test
	void aBodyWithoutJsonContentTypeAnswers415NamingTheContentTypeToSend() {
		ResponseEntity<String> response = LocalHttp.post(this.port, "/actuator/threadpools/talk",
				MediaType.APPLICATION_FORM_URLENCODED, "{\"maxPoolSize\":5}");
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.UNSUPPORTED_MEDIA_TYPE);
		assertThat(response.getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
		assertThat(JsonPath.<String>read(response.getBody(), "$.field")).isEqualTo("Content-Type");
		assertThat(JsonPath.<String>read(response.getBody(), "$.detail")).contains("application/x-www-form-urlencoded")
			.contains("Content-Type: application/json");
		assertUnchanged();
	}

	@Test
	void aQuotedWholeNumberIsReadAsTheNumber() {
		ResponseEntity<String> response = post("/actuator/threadpools/talk", "{\"maxPoolSize\":\"5\"}");
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(this.talk.getExecutor().getMaximumPoolSize()).isEqualTo(5);
	}

	@Test
	void actuatorsOwnMediaTypeIsReadToo() {
		ResponseEntity<String> response = LocalHttp.post(this.port, "/actuator/threadpools/talk",
				MediaType.valueOf("application/vnd.spring-boot.actuator.v3+json"), "{\"maxPoolSize\":5}");
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(this.talk.getExecutor().getMaximumPoolSize()).isEqualTo(5);
	}

	@Test
	void aMalformedBodyForAnotherEndpointKeepsSpringsOwnAnswer() {
		ResponseEntity<String> response = post("/actuator/loggers/ROOT", "{not json");
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
		assertThat(response.getHeaders().getContentType()).isNotEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
	}

	private void assertProblem(ResponseEntity<String> response, String field) {
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
		assertThat(response.getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
		assertThat(JsonPath.<String>read(response.getBody(), "$.field")).isEqualTo(field);
		assertThat(JsonPath.<Integer>read(response.getBody(), "$.status")).isEqualTo(400);
		assertThat(JsonPath.<String>read(response.getBody(), "$.title")).isEqualTo("Bad Request");
		assertThat(JsonPath.<String>read(response.getBody(), "$.detail")).isNotBlank();
	}

	private void assertUnchanged() {
		assertThat(this.talk.getExecutor().getCorePoolSize()).isEqualTo(4);
		assertThat(this.talk.getExecutor().getMaximumPoolSize()).isEqualTo(4);
		assertThat(this.tuner.state("talk").getMode()).isEqualTo(TuningMode.AUTO);
		assertThat(this.audits.events).isEmpty();
	}

	private ResponseEntity<String> get(String path) {
		return LocalHttp.get(this.port, path);
	}

	@Test
	void theJsonKeepsItsShapeFieldForFieldInOrder() {
		this.talk.takeSnapshot();
		Map<String, Object> all = JsonPath.parse(get("/actuator/threadpools").getBody()).read("$");
		List<String> pool = List.of("corePoolSize", "maxPoolSize", "poolSize", "activeCount", "queueSize",
				"queueCapacity", "submittedTasks", "completedTasks", "failedTasks", "rejectedTasks",
				"rejections.queueFull", "rejections.queueWait", "rejections.circuitOpen", "rejections.shutdown",
				"abandonedTasks", "timedOutTasks", "minThreads", "maxThreads", "weight", "tuning.mode",
				"tuning.targetThreads", "tuning.lastDecision", "tuning.limited", "littlesLaw.arrivalRate",
				"littlesLaw.throughput", "littlesLaw.meanServiceTimeMs", "littlesLaw.meanQueueWaitMs",
				"littlesLaw.meanResponseTimeMs", "littlesLaw.p50ResponseTimeMs", "littlesLaw.p90ResponseTimeMs",
				"littlesLaw.p99ResponseTimeMs", "littlesLaw.percentileSampleSize", "littlesLaw.estimatedConcurrency",
				"littlesLaw.busyThreads", "littlesLaw.deadTimeRatio", "littlesLaw.concurrencyPerCpu",
				"littlesLaw.waitComputeRatio", "littlesLaw.recommendedThreads", "lendableThreads");
		List<String> expected = new ArrayList<>(List.of("budget.maxThreads", "budget.allocatedThreads",
				"budget.liveThreads", "budget.lendableThreads"));
		pool.forEach((field) -> expected.add("pools.talk." + field));
		assertThat(paths("", all)).containsSubsequence(expected);
		assertThat(paths("", all)).filteredOn((path) -> path.startsWith("pools.talk."))
			.containsExactlyElementsOf(expected.subList(4, expected.size()));
	}

	@SuppressWarnings("unchecked")
	private static List<String> paths(String prefix, Map<String, Object> json) {
		List<String> paths = new ArrayList<>();
		json.forEach((key, value) -> {
			if (value instanceof Map<?, ?> nested) {
				paths.addAll(paths(prefix + key + ".", (Map<String, Object>) nested));
			}
			else {
				paths.add(prefix + key);
			}
		});
		return paths;
	}

	private ResponseEntity<String> post(String path, String body) {
		return LocalHttp.post(this.port, path, body);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

		@Bean
		AuditEvents auditEvents() {
			return new AuditEvents();
		}

	}

	static class AuditEvents {

		final List<AuditApplicationEvent> events = new CopyOnWriteArrayList<>();

		@EventListener
		void on(AuditApplicationEvent event) {
			this.events.add(event);
		}

	}

}
