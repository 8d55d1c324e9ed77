package io.github.poolpilot.actuate;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.tuning.Tuner;
import io.github.poolpilot.tuning.TuningMode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.test.web.reactive.server.WebTestClient.ResponseSpec;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the {@code threadpools} endpoint on WebFlux, over real HTTP on a reactive
 * server: its reads and writes, and the same problems as on Spring MVC for what a write
 * may not hold.
 *
 * @author poolpilot authors
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive",
				"management.endpoints.web.exposure.include=threadpools,loggers",
				"management.endpoint.threadpools.access=unrestricted", "poolpilot.budget.max-threads=10",
				"poolpilot.pools.talk.min-threads=2", "poolpilot.pools.talk.max-threads=8",
				"poolpilot.existing-executors.enabled=false",
				// The tuner would resize idle pools while the test reads their sizes.
				"poolpilot.measurement.window=1h" })
class ThreadPoolsEndpointWebFluxTests {

	@LocalServerPort
	private int port;

	@Autowired
	private ApplicationContext context;

	@Autowired
	private PoolRegistry registry;

	@Autowired
	private Tuner tuner;

	private ManagedPool talk;

	@BeforeEach
	void resetTalk() {
		this.talk = this.registry.get("talk");
		this.talk.resize(4, 4);
		this.tuner.setMode("talk", TuningMode.AUTO);
	}

	@Test
	void readsAndResizesOnAReactiveServer() {
		assertThat(this.context).isInstanceOf(ReactiveWebServerApplicationContext.class);
		client().get()
			.uri("/actuator/threadpools/talk")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.corePoolSize")
			.isEqualTo(4);
		post("{\"corePoolSize\":3,\"maxPoolSize\":6}").expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.maxPoolSize")
			.isEqualTo(6)
			.jsonPath("$.tuning.mode")
			.isEqualTo("manual");
		assertThat(this.talk.getExecutor().getMaximumPoolSize()).isEqualTo(6);
	}

	@Test
	void actuatorsOwnMediaTypeIsReadToo() {
		client().post()
			.uri("/actuator/threadpools/talk")
			.contentType(MediaType.valueOf("application/vnd.spring-boot.actuator.v3+json"))
			.bodyValue("{\"maxPoolSize\":5}")
			.exchange()
			.expectStatus()
			.isOk();
		assertThat(this.talk.getExecutor().getMaximumPoolSize()).isEqualTo(5);
	}

	@ParameterizedTest
	@ValueSource(strings = { "{\"maxPoolsize\":5}|maxPoolsize", "{\"corePoolSize\":3,\"extra\":1}|extra",
			"{\"corePoolSize\":null}|corePoolSize", "{\"maxPoolSize\":9}|maxPoolSize", "{\"tuning\":\"fast\"}|tuning" })
	void invalidChangesAnswer400NamingTheFieldAndChangeNothing(String caseAndField) {
		String body = caseAndField.substring(0, caseAndField.indexOf('|'));
		String field = caseAndField.substring(caseAndField.indexOf('|') + 1);
		assertProblem(post(body), 400, field);
		assertUnchanged();
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', quoteCharacter = '`',
			textBlock = """
					{"corePoolSize":"many"}        | corePoolSize | corePoolSize must be a whole number (a JSON integer) between the pool's minThreads and maxThreads, not the string "many"
					{"corePoolSize":1.5}           | corePoolSize | corePoolSize must be a whole number (a JSON integer) between the pool's minThreads and maxThreads, not the fraction 1.5
					{"maxPoolSize":99999999999999} | maxPoolSize  | maxPoolSize must be a whole number (a JSON integer) between the pool's minThreads and maxThreads, not the number 99999999999999, which is out of range
					{"corePoolSize":[1]}           | corePoolSize | corePoolSize must be a whole number (a JSON integer) between the pool's minThreads and maxThreads, not an array or an object
					{"tuning":{}}                  | tuning       | tuning must be "auto" or "manual", not an array or an object
					{not json                      | body         | the body must be a JSON object with any of corePoolSize and maxPoolSize (whole numbers) and tuning ("auto" or "manual")
					[]                             | body         | the body must be a JSON object with any of corePoolSize and maxPoolSize (whole numbers) and tuning ("auto" or "manual")
					""")
	void malformedValuesAnswerTheSameProblemAsOnSpringMvc(String body, String field, String detail) {
		byte[] answer = assertProblem(post(body), 400, field);
		assertThat(JsonPath.<String>read(new String(answer), "$.detail")).isEqualTo(detail);
		assertUnchanged();
	}

	@Test
	void aBodyWithoutJsonContentTypeAnswers415NamingTheContentTypeToSend() {
		ResponseSpec response = client().post()
			.uri("/actuator/threadpools/talk")
			.contentType(MediaType.APPLICATION_FORM_URLENCODED)
			.bodyValue("{\"maxPoolSize\":5}")
			.exchange();
		byte[] answer = assertProblem(response, 415, "Content-Type");
		assertThat(JsonPath.<String>read(new String(answer), "$.detail")).contains("application/x-www-form-urlencoded")
			.contains("Content-Type: application/json");
		assertUnchanged();
	}

	@Test
	void aMalformedBodyForAnotherEndpointKeepsSpringsOwnAnswer() {
		client().post()
			.uri("/actuator/loggers/ROOT")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue("{not json")
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectHeader()
			.value("Content-Type", (type) -> assertThat(type).doesNotContain("problem"));
	}

	private byte[] assertProblem(ResponseSpec response, int status, String field) {
		byte[] body = response.expectStatus()
			.isEqualTo(status)
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.field")
			.isEqualTo(field)
			.jsonPath("$.status")
			.isEqualTo(status)
			.returnResult()
			.getResponseBody();
		assertThat(body).isNotNull();
		return body;
	}

	private void assertUnchanged() {
		assertThat(this.talk.getExecutor().getCorePoolSize()).isEqualTo(4);
		assertThat(this.talk.getExecutor().getMaximumPoolSize()).isEqualTo(4);
		assertThat(this.tuner.state("talk").getMode()).isEqualTo(TuningMode.AUTO);
	}

	private ResponseSpec post(String body) {
		return client().post()
			.uri("/actuator/threadpools/talk")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(body)
			.exchange();
	}

	private WebTestClient client() {
		return WebTestClient.bindToServer().baseUrl("http://localhost:" + this.port).build();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

	}

}
