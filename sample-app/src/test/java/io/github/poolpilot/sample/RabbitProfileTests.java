package io.github.poolpilot.sample;

import java.time.Duration;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for the {@code rabbit} profile against the broker on 127.0.0.1:5672 (it fails,
 * never skips, without one): the orders listener's consumers are the pool {@code orders},
 * measured as orders are put on its queue and handed to a downstream that serves a few at
 * once, each order handled once.
 *
 * @author poolpilot authors
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "sample.orders.service-time=5ms")
@ActiveProfiles("rabbit")
class RabbitProfileTests {

	@LocalServerPort
	private int port;

	@Test
	void theOrdersListenerIsThePoolOrders() {
		RestClient client = RestClient.create("http://localhost:" + this.port);
		String before = client.get().uri("/actuator/threadpools/orders").retrieve().body(String.class);
		assertThat(before).contains("\"maxThreads\":16");
		long completed = completed(before);
		assertThat(client.post().uri("/orders?count=20").retrieve().body(String.class)).contains("20 orders queued");
		await().atMost(Duration.ofSeconds(30))
			.until(() -> completed(client.get().uri("/actuator/threadpools/orders").retrieve().body(String.class)),
					(now) -> now >= completed + 20);
		// Every order this run published was handled once; earlier runs' leftovers have
		// names of their own.
		String counts = client.get().uri("/orders").retrieve().body(String.class);
		assertThat(JsonPath.<Integer>read(counts, "$.published")).isEqualTo(20);
		assertThat(JsonPath.<Integer>read(counts, "$.handled")).isGreaterThanOrEqualTo(20)
			.isEqualTo(JsonPath.<Integer>read(counts, "$.distinct"));
	}

	private static long completed(String pool) {
		int at = pool.indexOf("\"completedTasks\":") + "\"completedTasks\":".length();
		int end = at;
		while (Character.isDigit(pool.charAt(end))) {
			end++;
		}
		return Long.parseLong(pool.substring(at, end));
	}

}
