package io.github.poolpilot.ui;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.github.poolpilot.history.HistoryFeed;
import io.github.poolpilot.history.PoolHistory;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests where the live page is served, and when, on a real Tomcat.
 *
 * @author poolpilot authors
 */
class PoolsPageHttpTests {

	private static final String EXPOSED = "management.endpoints.web.exposure.include=threadpools";

	@Test
	void thePageItsAssetsAndItsHistoryAreServedWhileTheEndpointIsExposed() {
		try (ConfigurableApplicationContext app = start(EXPOSED)) {
			String base = "http://localhost:" + port(app, "local.server.port");
			ResponseEntity<String> redirect = get(base + "/poolpilot");
			assertThat(redirect.getStatusCode()).isEqualTo(HttpStatus.FOUND);
			assertThat(redirect.getHeaders().getLocation()).hasPath("/poolpilot/");
			ResponseEntity<String> page = get(base + "/poolpilot/");
			assertThat(page.getStatusCode()).isEqualTo(HttpStatus.OK);
			assertThat(page.getHeaders().getContentType().toString()).startsWith("text/html");
			assertThat(page.getBody()).contains("content=\"/actuator/threadpools\"")
				.contains("name=\"poolpilot-writable\" content=\"false\"");
			assertThat(get(base + "/poolpilot/uPlot.iife.min.js").getBody()).contains("uPlot");
			assertThat(get(base + "/poolpilot/app.js").getBody()).contains("history.json");
			assertThat(get(base + "/poolpilot/nothing.js").getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
			ResponseEntity<String> history = get(base + "/poolpilot/history.json");
			assertThat(history.getStatusCode()).isEqualTo(HttpStatus.OK);
			assertThat(history.getBody()).contains("\"retentionSeconds\":600").contains("\"capacity\":600");
		}
	}

	@Test
	void aHistoryAskedForAfterSomethingThatIsNoTimeIsRefusedNamingTheParameter() {
		try (ConfigurableApplicationContext app = start(EXPOSED)) {
			ResponseEntity<String> refused = get(
					"http://localhost:" + port(app, "local.server.port") + "/poolpilot/history.json?after=soon");
			assertThat(refused.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
			assertThat(refused.getHeaders().getContentType().toString()).isEqualTo("application/problem+json");
			assertThat(refused.getBody()).contains("\"parameter\":\"after\"").contains("epoch milliseconds");
		}
	}

	@Test
	void thereIsNoPageWhileTheEndpointIsNotExposedOrThePageIsSwitchedOff() {
		try (ConfigurableApplicationContext app = start()) {
			assertThat(get("http://localhost:" + port(app, "local.server.port") + "/poolpilot/").getStatusCode())
				.isEqualTo(HttpStatus.NOT_FOUND);
			assertThat(app.getBeanNamesForType(PoolHistory.class)).isEmpty();
		}
		try (ConfigurableApplicationContext app = start(EXPOSED, "poolpilot.ui.enabled=false")) {
			assertThat(get("http://localhost:" + port(app, "local.server.port") + "/poolpilot/").getStatusCode())
				.isEqualTo(HttpStatus.NOT_FOUND);
			assertThat(app.getBeanNamesForType(PoolHistory.class)).isEmpty();
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "NONE", "REACTIVE" })
	void noHistoryIsKeptWhereThePageCannotBeServed(WebApplicationType type) {
		try (ConfigurableApplicationContext app = start(type, EXPOSED)) {
			assertThat(app.getBeanNamesForType(PoolHistory.class)).isEmpty();
			assertThat(app.getBeanNamesForType(HistoryFeed.class)).isEmpty();
		}
		try (ConfigurableApplicationContext app = start(WebApplicationType.SERVLET, EXPOSED)) {
			assertThat(app.getBeanNamesForType(PoolHistory.class)).hasSize(1);
			assertThat(app.getBeanNamesForType(HistoryFeed.class)).hasSize(1);
		}
	}

	@Test
	void thePageFollowsItsPathAndTheContextPath() {
		try (ConfigurableApplicationContext app = start(EXPOSED, "server.servlet.context-path=/shop",
				"poolpilot.ui.path=/ops/pools")) {
			String base = "http://localhost:" + port(app, "local.server.port");
			ResponseEntity<String> page = get(base + "/shop/ops/pools/");
			assertThat(page.getStatusCode()).isEqualTo(HttpStatus.OK);
			assertThat(page.getBody()).contains("content=\"/shop/actuator/threadpools\"");
			assertThat(get(base + "/shop/ops/pools/history.json").getStatusCode()).isEqualTo(HttpStatus.OK);
			assertThat(get(base + "/shop/poolpilot/").getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
		}
	}

	@Test
	void withAManagementPortThePageIsServedThereOnly() {
		try (ConfigurableApplicationContext app = start(EXPOSED, "management.server.port=0",
				"management.server.base-path=/manage")) {
			String management = "http://localhost:" + port(app, "local.management.port");
			ResponseEntity<String> page = get(management + "/manage/poolpilot/");
			assertThat(page.getStatusCode()).isEqualTo(HttpStatus.OK);
			assertThat(page.getBody()).contains("content=\"/manage/actuator/threadpools\"");
			assertThat(get(management + "/manage/actuator/threadpools").getStatusCode()).isEqualTo(HttpStatus.OK);
			assertThat(get(management + "/manage/poolpilot/history.json").getStatusCode()).isEqualTo(HttpStatus.OK);
			assertThat(get("http://localhost:" + port(app, "local.server.port") + "/poolpilot/").getStatusCode())
				.isEqualTo(HttpStatus.NOT_FOUND);
		}
	}

	@Test
	void theControlsAreOfferedOnlyWhenTheEndpointMayChangePools() {
		try (ConfigurableApplicationContext app = start(EXPOSED,
				"management.endpoint.threadpools.access=unrestricted")) {
			assertThat(get("http://localhost:" + port(app, "local.server.port") + "/poolpilot/").getBody())
				.contains("name=\"poolpilot-writable\" content=\"true\"");
		}
	}

	@Test
	void aPathThatIsNoPlainPathFailsStartUpNamingTheProperty() {
		org.assertj.core.api.Assertions.assertThatException()
			.isThrownBy(() -> start(EXPOSED, "poolpilot.ui.path=poolpilot/",
					// The failure is the point: no report of it in the test's log.
					"logging.level.root=off"))
			.havingRootCause()
			.withMessageContaining("'poolpilot.ui.path'")
			.withMessageContaining("must start with '/'");
	}

	static ConfigurableApplicationContext start(String... properties) {
		return start(WebApplicationType.SERVLET, properties);
	}

	static ConfigurableApplicationContext start(WebApplicationType type, String... properties) {
		List<String> all = new ArrayList<>(
				List.of("server.port=0", "spring.main.banner-mode=off", "poolpilot.pools.talk.max-threads=4",
						"poolpilot.existing-executors.enabled=false", "logging.level.root=warn"));
		all.addAll(List.of(properties));
		return new SpringApplicationBuilder(TestApplication.class).web(type)
			.properties(all.toArray(String[]::new))
			.run();
	}

	static int port(ConfigurableApplicationContext app, String property) {
		Environment environment = app.getEnvironment();
		return environment.getRequiredProperty(property, Integer.class);
	}

	static ResponseEntity<String> get(String url) {
		return RestClient.builder()
			.requestFactory(new org.springframework.http.client.SimpleClientHttpRequestFactory() {
				@Override
				protected void prepareConnection(java.net.HttpURLConnection connection, String method)
						throws java.io.IOException {
					super.prepareConnection(connection, method);
					connection.setInstanceFollowRedirects(false);
				}
			})
			.build()
			.get()
			.uri(url)
			.retrieve()
			.onStatus((status) -> true, (request, response) -> {
			})
			.toEntity(String.class);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

	}

}
