package io.github.poolpilot.ui;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.testsupport.LocalHttp;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that with Spring Security the page offers its controls to whoever may change a
 * pool through the endpoint, and to nobody else, and that it hands them the CSRF token
 * the endpoint then accepts.
 *
 * @author poolpilot authors
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=threadpools",
				"management.endpoint.threadpools.access=unrestricted", "poolpilot.pools.talk.max-threads=4",
				"poolpilot.existing-executors.enabled=false", "poolpilot.measurement.window=1h" })
class PoolsPageSecurityTests {

	private static final Pattern META = Pattern.compile("name=\"poolpilot-([a-z-]+)\" content=\"([^\"]*)\"");

	@LocalServerPort
	private int port;

	@Test
	void onlyThoseWhoMayChangeAPoolAreOfferedTheControls() {
		assertThat(page(null).getBody()).contains("name=\"poolpilot-writable\" content=\"false\"");
		assertThat(page("viewer").getBody()).contains("name=\"poolpilot-writable\" content=\"false\"");
		assertThat(page("ops").getBody()).contains("name=\"poolpilot-writable\" content=\"true\"");
	}

	@Test
	void theCsrfTokenThePageGivesIsTheOneTheEndpointAccepts() {
		ResponseEntity<String> page = page("ops");
		String header = meta(page.getBody(), "csrf-header");
		String token = meta(page.getBody(), "csrf-token");
		assertThat(header).isNotEmpty();
		assertThat(token).isNotEmpty();
		String session = page.getHeaders().getFirst(HttpHeaders.SET_COOKIE).split(";")[0];
		assertThat(post("ops", session, null, null).getStatusCode()).isEqualTo(HttpStatus.FORBIDDEN);
		ResponseEntity<String> changed = post("ops", session, header, token);
		assertThat(changed.getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(changed.getBody()).contains("\"maxPoolSize\":3");
	}

	private ResponseEntity<String> page(String user) {
		return LocalHttp.exchange(this.port, HttpMethod.GET, "/poolpilot/", null, LocalHttp.basicAuth(user));
	}

	private ResponseEntity<String> post(String user, String cookie, String csrfHeader, String csrfToken) {
		return LocalHttp.exchange(this.port, HttpMethod.POST, "/actuator/threadpools/talk",
				"{\"corePoolSize\":3,\"maxPoolSize\":3}", LocalHttp.basicAuth(user).andThen((headers) -> {
					headers.add(HttpHeaders.COOKIE, cookie);
					if (csrfHeader != null) {
						headers.add(csrfHeader, csrfToken);
					}
				}));
	}

	private static String meta(String html, String name) {
		Matcher matcher = META.matcher(html);
		while (matcher.find()) {
			if (matcher.group(1).equals(name)) {
				return matcher.group(2);
			}
		}
		return null;
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

		// The configuration docs/ui.md shows: the page and the endpoint behind one chain,
		// CSRF on.
		@Bean
		SecurityFilterChain actuatorSecurity(HttpSecurity http) throws Exception {
			http.securityMatcher(new OrRequestMatcher(EndpointRequest.toAnyEndpoint(),
					PathPatternRequestMatcher.withDefaults().matcher("/poolpilot/**")))
				.authorizeHttpRequests(
						(requests) -> requests.requestMatchers(HttpMethod.POST, "/actuator/threadpools/**")
							.hasRole("OPS")
							.anyRequest()
							.permitAll())
				.httpBasic(Customizer.withDefaults());
			return http.build();
		}

		@Bean
		InMemoryUserDetailsManager users() {
			return new InMemoryUserDetailsManager(User.withUsername("ops").password("{noop}ops").roles("OPS").build(),
					User.withUsername("viewer").password("{noop}viewer").roles("VIEWER").build());
		}

	}

}
