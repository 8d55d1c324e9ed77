package io.github.poolpilot.webserver;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * An application whose requests run on the web server's threads: {@code /work} sleeps the
 * given time, {@code /block} waits until the test releases it.
 *
 * @author poolpilot authors
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(WebServerPoolApplication.Requests.class)
class WebServerPoolApplication {

	static volatile CountDownLatch release = new CountDownLatch(1);

	@RestController
	static class Requests {

		@GetMapping("/work")
		String work(@RequestParam long ms) throws InterruptedException {
			Thread.sleep(ms);
			return "worked " + ms;
		}

		@GetMapping("/block")
		String block() throws InterruptedException {
			if (!release.await(30, TimeUnit.SECONDS)) {
				throw new IllegalStateException("never released");
			}
			return "released";
		}

	}

}
