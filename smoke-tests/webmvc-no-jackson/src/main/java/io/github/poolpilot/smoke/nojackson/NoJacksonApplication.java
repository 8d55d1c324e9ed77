package io.github.poolpilot.smoke.nojackson;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

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

		@GetMapping("/ping")
		public String ping() {
			return "pong";
		}

		/**
		 * Holds the request thread for four seconds, so that the requests after it wait
		 * in the queue or are refused.
		 */
		@GetMapping("/hold")
		public String hold() throws InterruptedException {
			logger.info("Holding the request thread");
			Thread.sleep(4000);
			return "held";
		}

	}

}
