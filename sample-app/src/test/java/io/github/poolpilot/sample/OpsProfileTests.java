package io.github.poolpilot.sample;

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
 * Tests for the {@code ops} profile, which opens the threadpools write operation.
 *
 * @author poolpilot authors
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "poolpilot.measurement.window=1h")
@ActiveProfiles("ops")
class OpsProfileTests {

	@LocalServerPort
	private int port;

	@Test
	void aPoolCanBeResizedThroughTheEndpoint() {
		ResponseEntity<String> response = RestClient.create("http://localhost:" + this.port)
			.post()
			.uri("/actuator/threadpools/talk")
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"corePoolSize\": 6, \"maxPoolSize\": 6}")
			.retrieve()
			.toEntity(String.class);
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(response.getBody()).contains("\"corePoolSize\":6,\"maxPoolSize\":6").contains("\"mode\":\"manual\"");
	}

}
