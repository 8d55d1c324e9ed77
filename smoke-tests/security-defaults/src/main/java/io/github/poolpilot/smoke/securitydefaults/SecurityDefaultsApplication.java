package io.github.poolpilot.smoke.securitydefaults;

import java.util.concurrent.CompletableFuture;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.stereotype.Service;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Spring MVC with Actuator and Spring Security on its defaults, as a person's first
 * attempt has it: no SecurityFilterChain of its own, so every request needs credentials
 * and CSRF is on. The report is a GET, which CSRF lets through.
 */
@SpringBootApplication
@EnableAsync
public class SecurityDefaultsApplication {

	public static void main(String[] args) {
		SpringApplication.run(SecurityDefaultsApplication.class, args);
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

		@GetMapping("/reports")
		public CompletableFuture<String> report() {
			return this.reports.build();
		}

	}

}
