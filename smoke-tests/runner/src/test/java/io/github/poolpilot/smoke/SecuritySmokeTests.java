package io.github.poolpilot.smoke;

import io.github.poolpilot.smoke.Http.Answer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring MVC with Actuator behind Spring Security, set up as docs/actuator.md shows:
 * reads need no credentials, a change needs a user with the role OPS, and works with HTTP
 * Basic alone (no CSRF token).
 */
class SecuritySmokeTests extends WebApplicationSmokeTests {

	private static final String RESIZE = "{\"corePoolSize\": 4, \"maxPoolSize\": 4}";

	@Override
	Shape shape() {
		return Shape.SECURITY;
	}

	@Override
	String writer() {
		return "ops:ops-secret";
	}

	@Test
	void aChangeWithoutCredentialsAsksForThem() throws Exception {
		Answer refused = this.http.postJson("/actuator/threadpools/reports", RESIZE, null);
		assertThat(refused.status()).as("%s", refused).isEqualTo(401);
		assertThat(refused.wwwAuthenticate()).as("%s", refused).startsWith("Basic");
	}

	@Test
	void aChangeByAUserWithoutTheRoleIsForbidden() throws Exception {
		Answer refused = this.http.postJson("/actuator/threadpools/reports", RESIZE, "viewer:viewer-secret");
		assertThat(refused.status()).as("%s", refused).isEqualTo(403);
	}

	@Test
	void aChangeIsLoggedUnderTheUsersName() throws Exception {
		Answer resize = this.http.postJson("/actuator/threadpools/reports", RESIZE, writer());
		assertThat(resize.status()).as("%s", resize).isEqualTo(200);
		assertThat(this.application.log()).containsPattern("Pool 'reports': resize .*→4/4: by ops");
	}

}
