package io.github.poolpilot.actuate;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.testsupport.LocalHttp;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests a person's first attempt at a resize with Spring Security's defaults (no
 * {@code SecurityFilterChain} of their own, CSRF on): the write with valid credentials
 * but no CSRF token is still refused, with 403 and a problem naming the missing token,
 * instead of the 401 that reads as a wrong password.
 *
 * @author poolpilot authors
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=threadpools,loggers",
				"management.endpoint.threadpools.access=unrestricted", "poolpilot.pools.talk.max-threads=4",
				"poolpilot.existing-executors.enabled=false", "spring.security.user.name=ops",
				"spring.security.user.password=secret",
				// The tuner would resize idle pools while the test reads their sizes.
				"poolpilot.measurement.window=1h" })
class ThreadPoolsEndpointCsrfSecurityTests {

	@LocalServerPort
	private int port;

	@Autowired
	private PoolRegistry registry;

	@Test
	void aWriteWithCredentialsButNoCsrfTokenIsRefusedNamingTheToken() {
		int max = this.registry.get("talk").getExecutor().getMaximumPoolSize();
		ResponseEntity<String> response = exchange(HttpMethod.POST, "/actuator/threadpools/talk", "secret");
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.FORBIDDEN);
		assertThat(response.getHeaders().getContentType()).isNotNull()
			.satisfies((type) -> assertThat(type.isCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)).isTrue());
		assertThat(response.getHeaders().get(HttpHeaders.WWW_AUTHENTICATE)).isNull();
		assertThat(JsonPath.<String>read(response.getBody(), "$.field")).isEqualTo("csrf");
		assertThat(JsonPath.<String>read(response.getBody(), "$.detail")).contains("CSRF token")
			.contains("ignoringRequestMatchers(EndpointRequest.toAnyEndpoint())");
		assertThat(this.registry.get("talk").getExecutor().getMaximumPoolSize()).isEqualTo(max);
	}

	@Test
	void readsAndOtherRefusalsAreSpringSecuritysOwn() {
		assertThat(exchange(HttpMethod.GET, "/actuator/threadpools/talk", "secret").getStatusCode())
			.isEqualTo(HttpStatus.OK);
		ResponseEntity<String> anonymous = exchange(HttpMethod.GET, "/actuator/threadpools/talk", null);
		assertThat(anonymous.getStatusCode()).isEqualTo(HttpStatus.UNAUTHORIZED);
		assertThat(anonymous.getHeaders().get(HttpHeaders.WWW_AUTHENTICATE)).isNotNull();
		// Another endpoint's write keeps Spring Security's answer.
		assertThat(exchange(HttpMethod.POST, "/actuator/loggers/ROOT", "secret").getStatusCode())
			.isEqualTo(HttpStatus.UNAUTHORIZED);
	}

	private ResponseEntity<String> exchange(HttpMethod method, String path, String password) {
		String body = null;
		if (method == HttpMethod.POST) {
			body = path.contains("loggers") ? "{\"configuredLevel\":\"INFO\"}" : "{\"maxPoolSize\":3}";
		}
		String user = (password != null) ? "ops" : null;
		return LocalHttp.exchange(this.port, method, path, body, LocalHttp.basicAuth(user, password));
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

	}

}
