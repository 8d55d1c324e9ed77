package io.github.poolpilot.smoke;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.awaitility.Awaitility.await;

/**
 * A smoke application with a web server, started once for its test class on a port the
 * system picks ({@code --server.port=0}), answering {@code /actuator/health} before the
 * tests run, and stopped at the end, checking that it stops cleanly.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(PrintsApplicationLog.class)
abstract class WebApplicationTests {

	SmokeApplication application;

	Http http;

	abstract Shape shape();

	/** The java executable that starts the application. */
	Path java() {
		return SmokeApplication.currentJava();
	}

	/** Environment variables the application is started with. */
	Map<String, String> environment() {
		return Map.of();
	}

	@BeforeAll
	void start() throws Exception {
		this.application = SmokeApplication.start(shape(), java(), environment(), List.of("--server.port=0"));
		try {
			this.http = new Http(this.application.port());
			await().atMost(Duration.ofSeconds(60))
				.ignoreExceptions()
				.until(() -> this.http.get("/actuator/health").status() == 200);
		}
		catch (Throwable ex) {
			this.application.kill();
			this.application = null;
			throw ex;
		}
	}

	@AfterAll
	void stop() throws Exception {
		if (this.application != null) {
			this.application.stop();
		}
	}

}
