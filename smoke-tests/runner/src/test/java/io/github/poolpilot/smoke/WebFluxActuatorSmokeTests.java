package io.github.poolpilot.smoke;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * WebFlux on Netty with Actuator (no spring-webmvc on the classpath): the same endpoint
 * and the same problem details as on Spring MVC, and no live page, which says so once.
 */
class WebFluxActuatorSmokeTests extends WebApplicationSmokeTests {

	@Override
	Shape shape() {
		return Shape.WEBFLUX_ACTUATOR;
	}

	@Test
	void saysOnceThatTheLivePageIsServedOnSpringMvcOnly() throws Exception {
		assertThat(this.application.log()).containsOnlyOnce("(/poolpilot) is served on Spring MVC only");
		assertThat(this.http.get("/poolpilot/").status()).isEqualTo(404);
	}

}
