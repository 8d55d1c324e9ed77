package io.github.poolpilot.smoke;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.smoke.Http.Answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Spring MVC with Actuator and a {@code @RabbitListener} on the machine's RabbitMQ: the
 * listener's consumers are the managed pool "orders", which counts the messages it
 * handled, shows the broker's queue and is resized by POST.
 */
class RabbitListenerSmokeTests extends WebApplicationTests {

	@Override
	Shape shape() {
		return Shape.RABBIT_LISTENER;
	}

	@Test
	void theListenersConsumersAreAPoolThatCountsItsMessages() throws Exception {
		for (int i = 0; i < 3; i++) {
			Answer sent = this.http.post("/orders");
			assertThat(sent.status()).as("%s", sent).isEqualTo(200);
		}
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			Answer pool = this.http.get("/actuator/threadpools/orders");
			assertThat(pool.status()).as("%s", pool).isEqualTo(200);
			assertThat(pool.json().read("$.completedTasks", Integer.class)).as("%s", pool).isGreaterThanOrEqualTo(3);
		});
		Answer pool = this.http.get("/actuator/threadpools/orders");
		assertThat(pool.json().read("$.queueAt", String.class)).as("%s", pool).isEqualTo("broker");
		assertThat(this.application.log()).contains("Handled order-3 on ");
	}

	@Test
	void aResizeByPostSetsTheConsumers() throws Exception {
		Answer resize = this.http.postJson("/actuator/threadpools/orders", "{\"corePoolSize\": 3, \"maxPoolSize\": 3}",
				null);
		assertThat(resize.status()).as("%s", resize).isEqualTo(200);
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			Answer pool = this.http.get("/actuator/threadpools/orders");
			assertThat(WebApplicationSmokeTests.sizes(pool)).as("%s", pool).containsExactly(3, 3);
			assertThat(pool.json().read("$.poolSize", Integer.class)).as("%s", pool).isEqualTo(3);
		});
	}

}
