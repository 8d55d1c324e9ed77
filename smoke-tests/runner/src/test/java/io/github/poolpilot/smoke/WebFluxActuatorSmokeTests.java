package io.github.poolpilot.smoke;

import io.github.poolpilot.smoke.Http.Answer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * WebFlux on Netty with Actuator (no spring-webmvc on the classpath): the same endpoint
 * and the same problem details as on Spring MVC, work a pool refuses answered 429 as on
 * Spring MVC, and no live page, which says so once.
 */
class WebFluxActuatorSmokeTests extends WebApplicationSmokeTests {

	@Override
	Shape shape() {
		return Shape.WEBFLUX_ACTUATOR;
	}

	@Test
	void aJobThePoolCannotTakeAnswers429WithAProblemDetail() throws Exception {
		// "narrow" runs one five-second job and queues one more: the third is refused.
		assertThat(this.http.post("/jobs").status()).isEqualTo(202);
		assertThat(this.http.post("/jobs").status()).isEqualTo(202);
		Answer refused = this.http.post("/jobs");
		assertThat(refused.status()).as("%s", refused).isEqualTo(429);
		assertThat(refused.contentType()).as("%s", refused).startsWith("application/problem+json");
		assertThat(refused.json().read("$.pool", String.class)).as("%s", refused).isEqualTo("narrow");
		assertThat(refused.json().read("$.retryAfterSeconds", Integer.class)).as("%s", refused).isPositive();
	}

	@Test
	void saysOnceThatTheLivePageIsServedOnSpringMvcOnly() throws Exception {
		assertThat(this.application.log()).containsOnlyOnce("(/poolpilot) is served on Spring MVC only");
		assertThat(this.http.get("/poolpilot/").status()).isEqualTo(404);
	}

}
