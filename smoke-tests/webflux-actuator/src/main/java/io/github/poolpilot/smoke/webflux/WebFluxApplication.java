package io.github.poolpilot.smoke.webflux;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import reactor.core.publisher.Mono;

import org.springframework.boot.SpringApplication;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.http.ResponseEntity;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.stereotype.Service;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * WebFlux on Netty with Actuator: a report built on the declared pool "reports", and slow
 * jobs on the pool "narrow" (one thread, a queue of one), which refuses a third at once.
 */
@SpringBootApplication
@EnableAsync
public class WebFluxApplication {

	public static void main(String[] args) {
		// Reactor Netty 1.3.7 (Boot 4.1.1's) can stop reading a keep-alive connection
		// whose next request arrived before the last one's operations ended, so that the
		// request after it hangs (reactor/reactor-netty#4361, #4347): the smoke tests'
		// client sends its requests back to back on one connection and met it once in
		// CI. This setting of Reactor Netty's own ends the last operations before the
		// next request is read; the application's behaviour is otherwise unchanged.
		System.setProperty("reactor.netty.http.server.lastFlushWhenNoRead", "true");
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

		private final Executor narrow;

		public ReportController(Reports reports, @Qualifier("narrow") Executor narrow) {
			this.reports = reports;
			this.narrow = narrow;
		}

		@PostMapping("/reports")
		public Mono<String> report() {
			return Mono.fromFuture(this.reports.build());
		}

		// A job the pool cannot take is answered 429 with a problem detail and Retry-After.
		@PostMapping("/jobs")
		public ResponseEntity<Void> job() {
			this.narrow.execute(() -> LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(5)));
			return ResponseEntity.accepted().build();
		}

	}

}
