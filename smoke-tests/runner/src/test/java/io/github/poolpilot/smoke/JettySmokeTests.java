package io.github.poolpilot.smoke;

import java.util.Set;

import io.github.poolpilot.smoke.Http.Answer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring MVC on Jetty (Tomcat excluded) with Actuator and the web server's pool
 * ({@code poolpilot.web-server.enabled=true}): Jetty's requests are the managed pool
 * "http".
 */
class JettySmokeTests extends WebApplicationSmokeTests {

	@Override
	Shape shape() {
		return Shape.JETTY;
	}

	@Override
	Set<String> pools() {
		return Set.of("reports", "applicationTaskExecutor", "http");
	}

	@Test
	void jettysRequestsAreTheHttpPoolWhichAResizeChanges() throws Exception {
		assertThat(this.application.log()).contains("Jetty started on port");
		assertThat(this.http.post("/reports").status()).isEqualTo(200);
		Answer resize = this.http.postJson("/actuator/threadpools/http", "{\"corePoolSize\": 12, \"maxPoolSize\": 12}",
				writer());
		assertThat(resize.status()).as("%s", resize).isEqualTo(200);
		Answer pool = this.http.get("/actuator/threadpools/http");
		assertThat(sizes(pool)).as("%s", pool).containsExactly(12, 12);
		assertThat(pool.json().read("$.submittedTasks", Integer.class)).as("%s", pool).isPositive();
		assertThat(this.http.post("/reports").status()).isEqualTo(200);
	}

}
