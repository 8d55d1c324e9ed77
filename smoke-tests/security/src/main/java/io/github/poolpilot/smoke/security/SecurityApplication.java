package io.github.poolpilot.smoke.security;

import java.util.concurrent.CompletableFuture;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.stereotype.Service;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Spring MVC with Actuator behind Spring Security, set up as docs/actuator.md shows:
 * anyone reads the pools, only a user with the role OPS changes them.
 */
@SpringBootApplication
@EnableAsync
public class SecurityApplication {

	public static void main(String[] args) {
		SpringApplication.run(SecurityApplication.class, args);
	}

	@Bean
	@Order(1)
	SecurityFilterChain actuatorSecurity(HttpSecurity http) throws Exception {
		http.securityMatcher(EndpointRequest.toAnyEndpoint())
			.authorizeHttpRequests((requests) -> requests.requestMatchers(HttpMethod.POST, "/actuator/threadpools/**")
				.hasRole("OPS")
				.anyRequest()
				.permitAll())
			.httpBasic(Customizer.withDefaults())
			.csrf((csrf) -> csrf.ignoringRequestMatchers(EndpointRequest.toAnyEndpoint()));
		return http.build();
	}

	@Bean
	InMemoryUserDetailsManager users() {
		return new InMemoryUserDetailsManager(
				User.withUsername("ops").password("{noop}ops-secret").roles("OPS").build(),
				User.withUsername("viewer").password("{noop}viewer-secret").roles("VIEWER").build());
	}

	@Service
	public static class Reports {

		// Runs on the managed pool "reports" declared in application.yml.
		@Async("reports")
		public CompletableFuture<String> build() {
			return CompletableFuture.completedFuture("report built on " + Thread.currentThread());
		}

	}

	@RestController
	public static class ReportController {

		private final Reports reports;

		public ReportController(Reports reports) {
			this.reports = reports;
		}

		@PostMapping("/reports")
		public CompletableFuture<String> report() {
			return this.reports.build();
		}

	}

}
