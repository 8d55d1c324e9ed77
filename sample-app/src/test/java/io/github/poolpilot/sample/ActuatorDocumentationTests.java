package io.github.poolpilot.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.web.client.RestClient;

import io.github.poolpilot.sample.testsupport.SampleApi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that docs/actuator.md shows the endpoint's answers as the sample app gives them:
 * the reading example with every field of a real answer, in its order and of its kind,
 * and the refusals equal to the real ones. The CPU time is read on every timed task, so
 * that {@code waitComputeRatio} is measured on the first few requests: read on one in 16,
 * a build on a loaded machine sent too few in 30 s to draw one (2026-12-01).
 *
 * @author poolpilot authors
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "poolpilot.measurement.window=200ms", "poolpilot.measurement.cpu-sample-every=1" })
@ActiveProfiles("ops")
class ActuatorDocumentationTests {

	private static final Path DOCUMENT = Path.of("..", "docs", "actuator.md");

	private static final Pattern JSON_BLOCK = Pattern.compile("^( *)```json\\n(.*?)^ *```",
			Pattern.DOTALL | Pattern.MULTILINE);

	private static final JsonMapper json = JsonMapper.builder().build();

	@LocalServerPort
	private int port;

	@Test
	void theReadingExampleHasEveryFieldOfARealAnswerInItsOrder() throws IOException {
		RestClient client = client();
		SampleApi api = new SampleApi(this.port);
		long session = api.startSession();
		await().atMost(Duration.ofSeconds(30)).until(() -> {
			api.talk(session, "hello").join();
			JsonNode talk = json.readTree(client.get().uri("/actuator/threadpools/talk").retrieve().body(String.class));
			return !talk.path("littlesLaw").path("waitComputeRatio").isNull()
					&& !talk.path("tuning").path("lastDecision").isNull();
		});
		JsonNode real = json.readTree(client.get().uri("/actuator/threadpools").retrieve().body(String.class));
		JsonNode shown = json.readTree(jsonBlocks().get(0));
		assertThat(fieldNames(shown)).containsExactlyElementsOf(fieldNames(real));
		assertSameShape("budget", shown.get("budget"), real.get("budget"));
		assertThat(fieldNames(shown.get("pools"))).isNotEmpty().isSubsetOf(fieldNames(real.get("pools")));
		for (String pool : fieldNames(shown.get("pools"))) {
			assertSameShape("pools." + pool, shown.get("pools").get(pool), real.get("pools").get(pool));
		}
	}

	@Test
	void theRefusalsShownAreTheRealOnes() throws IOException {
		List<String> blocks = jsonBlocks();
		ResponseEntity<String> badSize = client().post()
			.uri("/actuator/threadpools/talk")
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"corePoolSize\": \"many\"}")
			.exchange((request, response) -> ResponseEntity.status(response.getStatusCode())
				.body(new String(response.getBody().readAllBytes())));
		ResponseEntity<String> unknownPool = client().get()
			.uri("/actuator/threadpools/nope")
			.exchange((request, response) -> ResponseEntity.status(response.getStatusCode())
				.body(new String(response.getBody().readAllBytes())));
		assertThat(badSize.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
		assertThat(unknownPool.getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
		assertThat(blocks).contains(badSize.getBody(), unknownPool.getBody());
	}

	/**
	 * Assert that what the page shows has the real answer's fields in their order and of
	 * their kinds, all the way down: a field the page shows as {@code null} must be
	 * {@code null} in the answer too.
	 */
	private static void assertSameShape(String path, JsonNode shown, JsonNode real) {
		assertThat(shown.getNodeType()).as(path).isEqualTo(real.getNodeType());
		if (shown.isObject()) {
			assertThat(fieldNames(shown)).as(path).containsExactlyElementsOf(fieldNames(real));
			for (Map.Entry<String, JsonNode> field : shown.properties()) {
				assertSameShape(path + "." + field.getKey(), field.getValue(), real.get(field.getKey()));
			}
		}
	}

	private static List<String> fieldNames(JsonNode node) {
		return new ArrayList<>(node.propertyNames());
	}

	private static List<String> jsonBlocks() throws IOException {
		List<String> blocks = new ArrayList<>();
		Matcher matcher = JSON_BLOCK.matcher(Files.readString(DOCUMENT));
		while (matcher.find()) {
			String indent = matcher.group(1);
			blocks.add(matcher.group(2).replaceAll("(?m)^" + indent, "").strip());
		}
		return blocks;
	}

	private RestClient client() {
		return RestClient.create("http://localhost:" + this.port);
	}

}
