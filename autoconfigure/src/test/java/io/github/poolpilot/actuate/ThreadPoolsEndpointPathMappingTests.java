package io.github.poolpilot.actuate;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that unknown fields are refused wherever the endpoint is mapped.
 *
 * @author poolpilot authors
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=threadpools",
				"management.endpoint.threadpools.access=unrestricted", "management.endpoints.web.base-path=/manage",
				"management.endpoints.web.path-mapping.threadpools=pools", "poolpilot.pools.talk.max-threads=4",
				"poolpilot.measurement.window=1h" })
class ThreadPoolsEndpointPathMappingTests {

	@LocalServerPort
	private int port;

	@Test
	void aTypoIsRefusedUnderAMappedPathToo() {
		ResponseEntity<String> response = RestClient.create("http://localhost:" + this.port)
			.post()
			.uri("/manage/pools/talk")
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"maxPoolsize\":2}")
			.retrieve()
			.onStatus((status) -> true, (request, result) -> {
			})
			.toEntity(String.class);
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
		assertThat(response.getBody()).contains("\"field\":\"maxPoolsize\"");
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

	}

}
