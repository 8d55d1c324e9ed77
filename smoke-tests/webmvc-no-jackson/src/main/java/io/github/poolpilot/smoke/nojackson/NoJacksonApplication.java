package io.github.poolpilot.smoke.nojackson;

import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Spring MVC on Tomcat without Jackson and without Actuator, Tomcat's request threads
 * managed as the pool "http": one thread and a queue of one.
 */
@SpringBootApplication
public class NoJacksonApplication {

	public static void main(String[] args) {
		SpringApplication.run(NoJacksonApplication.class, args);
	}

	@RestController
	public static class Requests {

		private static final Log logger = LogFactory.getLog(Requests.class);

		private final PoolRegistry pools;

		public Requests(PoolRegistry pools) {
			this.pools = pools;
		}

		@GetMapping("/ping")
		public String ping() {
			return "pong";
		}

		/**
		 * Holds the request thread until the web server's pool has refused two requests
		 * (30 s at most), so that the requests after it wait in the queue or are refused
		 * however slow the machine.
		 */
		@GetMapping("/hold")
		public String hold() throws InterruptedException {
			logger.info("Holding the request thread");
			ManagedPool http = this.pools.get("http");
			long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
			while (http.getRecorder().taskCounts().rejected() < 2 && System.nanoTime() < until) {
				Thread.sleep(10);
			}
			return "held";
		}

	}

}
