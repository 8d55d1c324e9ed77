package com.example.demo;

import java.util.concurrent.CompletableFuture;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.stereotype.Service;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

@SpringBootApplication
@EnableAsync
public class DemoApplication {

	public static void main(String[] args) {
		SpringApplication.run(DemoApplication.class, args);
	}

	@Service
	public static class Reports {

		// Runs on the managed pool "reports" declared in application.yml.
		@Async("reports")
		public CompletableFuture<String> build() throws InterruptedException {
			Thread.sleep(200); // a slow call to a database or a remote service
			return CompletableFuture.completedFuture("report ready");
		}

	}

	@RestController
	public static class ReportController {

		private final Reports reports;

		public ReportController(Reports reports) {
			this.reports = reports;
		}

		@PostMapping("/reports")
		public CompletableFuture<String> report() throws InterruptedException {
			return this.reports.build();
		}

	}

}
