package io.github.poolpilot.smoke.virtual;

import java.util.concurrent.CompletableFuture;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.stereotype.Service;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Spring MVC with Actuator on virtual threads: the declared pool "reports" runs each task
 * on a virtual thread, Tomcat's requests and Boot's executor run on virtual threads too.
 */
@SpringBootApplication
@EnableAsync
public class VirtualThreadsApplication {

	public static void main(String[] args) {
		SpringApplication.run(VirtualThreadsApplication.class, args);
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
