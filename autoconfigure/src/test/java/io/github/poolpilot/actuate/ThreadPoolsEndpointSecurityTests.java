package io.github.poolpilot.actuate;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.testsupport.LocalHttp;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests the documented way to protect the {@code threadpools} write operation with Spring
 * Security: anyone may read, only the {@code OPS} role may change a pool.
 *
 * @author poolpilot authors
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=threadpools",
				"management.endpoint.threadpools.access=unrestricted", "poolpilot.pools.talk.max-threads=4",
				"poolpilot.existing-executors.enabled=false",
				// The tuner would resize idle pools while the test reads their sizes.
				"poolpilot.measurement.window=1h" })
class ThreadPoolsEndpointSecurityTests {

	@LocalServerPort
	private int port;

	@Autowired
	private PoolRegistry registry;

	@Test
	void anyoneMayReadTheEndpoint() {
		assertThat(exchange(HttpMethod.GET, null).getStatusCode()).isEqualTo(HttpStatus.OK);
	}

	@Test
	void onlyTheOpsRoleMayChangeAPool() {
		// Pools start at their min-threads: the refused writes leave that size.
		int max = this.registry.get("talk").getExecutor().getMaximumPoolSize();
		assertThat(exchange(HttpMethod.POST, null).getStatusCode()).isEqualTo(HttpStatus.UNAUTHORIZED);
		assertThat(exchange(HttpMethod.POST, "viewer").getStatusCode()).isEqualTo(HttpStatus.FORBIDDEN);
		assertThat(this.registry.get("talk").getExecutor().getMaximumPoolSize()).isEqualTo(max);
		ResponseEntity<String> allowed = exchange(HttpMethod.POST, "ops");
		assertThat(allowed.getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(allowed.getBody()).contains("by ops");
		assertThat(this.registry.get("talk").getExecutor().getMaximumPoolSize()).isEqualTo(3);
	}

	private ResponseEntity<String> exchange(HttpMethod method, String user) {
		String body = (method == HttpMethod.POST) ? "{\"corePoolSize\":3,\"maxPoolSize\":3}" : null;
		return LocalHttp.exchange(this.port, method, "/actuator/threadpools/talk", body, LocalHttp.basicAuth(user));
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

		// The configuration docs/actuator.md shows.
		@Bean
		SecurityFilterChain actuatorSecurity(HttpSecurity http) throws Exception {
			http.securityMatcher(EndpointRequest.toAnyEndpoint())
				.authorizeHttpRequests(
						(requests) -> requests.requestMatchers(HttpMethod.POST, "/actuator/threadpools/**")
							.hasRole("OPS")
							.anyRequest()
							.permitAll())
				.httpBasic(Customizer.withDefaults())
				.csrf((csrf) -> csrf.ignoringRequestMatchers(EndpointRequest.toAnyEndpoint()));
			return http.build();
		}

		@Bean
		InMemoryUserDetailsManager users() {
			return new InMemoryUserDetailsManager(User.withUsername("ops").password("{noop}ops").roles("OPS").build(),
					User.withUsername("viewer").password("{noop}viewer").roles("VIEWER").build());
		}

	}

}
