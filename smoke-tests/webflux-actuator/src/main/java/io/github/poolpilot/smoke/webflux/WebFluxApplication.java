package io.github.poolpilot.smoke.webflux;

import java.util.concurrent.CompletableFuture;

import reactor.core.publisher.Mono;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.stereotype.Service;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * WebFlux on Netty with Actuator: a report built on the declared pool "reports".
 */
@SpringBootApplication
@EnableAsync
public class WebFluxApplication {

	public static void main(String[] args) {
		SpringApplication.run(WebFluxApplication.class, args);
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
		public Mono<String> report() {
			return Mono.fromFuture(this.reports.build());
		}

	}

}
