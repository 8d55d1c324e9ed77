package io.github.poolpilot.smoke;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.poolpilot.smoke.Http.Answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Spring MVC on Tomcat without Jackson and without Actuator, with the web server's pool
 * on at one thread and a queue of one: it starts, and a request the pool cannot take is
 * answered 503 with a problem detail, written without Jackson.
 */
@ExtendWith(PrintsApplicationLog.class)
class WebMvcNoJacksonSmokeTests {

	@Test
	void aRequestTheWebServersPoolCannotTakeIsAnsweredWithAProblem() throws Exception {
		SmokeApplication application = SmokeApplication.start(Shape.WEBMVC_NO_JACKSON, SmokeApplication.currentJava(),
				Map.of(), List.of("--server.port=0"));
		ExecutorService clients = Executors.newFixedThreadPool(4);
		try {
			Http http = new Http(application.port());
			await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> http.get("/ping").status() == 200);
			List<Future<Answer>> answers = new ArrayList<>();
			answers.add(clients.submit(() -> http.get("/hold")));
			await().atMost(Duration.ofSeconds(30))
				.until(() -> application.log().contains("Holding the request thread"));
			// The first of these waits in the queue of one; the others are refused at
			// once.
			for (int i = 0; i < 3; i++) {
				answers.add(clients.submit(() -> http.get("/hold")));
			}
			List<Answer> refused = new ArrayList<>();
			int served = 0;
			for (Future<Answer> answer : answers) {
				Answer got = answer.get(30, TimeUnit.SECONDS);
				if (got.status() == 200) {
					served++;
				}
				else {
					refused.add(got);
				}
			}
			assertThat(served).as("requests served").isEqualTo(2);
			assertThat(refused).hasSize(2).allSatisfy((answer) -> {
				assertThat(answer.status()).as("%s", answer).isEqualTo(503);
				assertThat(answer.contentType()).as("%s", answer).isEqualTo("application/problem+json");
				assertThat(answer.json().read("$.pool", String.class)).as("%s", answer).isEqualTo("http");
				assertThat(answer.json().read("$.status", Integer.class)).as("%s", answer).isEqualTo(503);
				assertThat(answer.json().read("$.reason", String.class)).as("%s", answer).isEqualTo("QUEUE_FULL");
			});
			// Stops it and checks that it logged no error.
			application.stop();
		}
		finally {
			clients.shutdownNow();
			application.kill();
		}
	}

}
