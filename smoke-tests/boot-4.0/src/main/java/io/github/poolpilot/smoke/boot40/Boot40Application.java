package io.github.poolpilot.smoke.boot40;

import java.util.concurrent.CompletableFuture;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.stereotype.Service;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Spring MVC on Tomcat with Actuator, built with Spring Boot 4.0's parent and
 * dependencies.
 */
@SpringBootApplication
@EnableAsync
public class Boot40Application {

	public static void main(String[] args) {
		SpringApplication.run(Boot40Application.class, args);
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
