package io.github.poolpilot.smoke;

import io.github.poolpilot.smoke.Http.Answer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring MVC with Actuator and Spring Security on its defaults (no chain of its own): the
 * endpoint needs credentials, and a change with the right credentials but no CSRF token
 * is refused with a 403 problem that names the token, not with a 401 that reads as a
 * wrong password.
 */
class SecurityDefaultsSmokeTests extends WebApplicationTests {

	private static final String OPS = "ops:ops-secret";

	@Override
	Shape shape() {
		return Shape.SECURITY_DEFAULTS;
	}

	@Test
	void aReportRunsOnTheDeclaredPool() throws Exception {
		Answer report = this.http.get("/reports", OPS);
		assertThat(report.status()).as("%s", report).isEqualTo(200);
		assertThat(report.body()).containsPattern("reports-\\d+");
	}

	@Test
	void theEndpointNeedsCredentials() throws Exception {
		Answer refused = this.http.get("/actuator/threadpools");
		assertThat(refused.status()).as("%s", refused).isEqualTo(401);
		assertThat(this.http.get("/reports", OPS).status()).isEqualTo(200);
		Answer pools = this.http.get("/actuator/threadpools", OPS);
		assertThat(pools.status()).as("%s", pools).isEqualTo(200);
		assertThat(pools.json().read("$.pools.reports.submittedTasks", Integer.class)).as("%s", pools).isPositive();
	}

	@Test
	void aChangeWithoutACsrfTokenIsRefusedNamingTheToken() throws Exception {
		Answer before = this.http.get("/actuator/threadpools/reports", OPS);
		Answer refused = this.http.postJson("/actuator/threadpools/reports", "{\"tuning\": \"manual\"}", OPS);
		assertThat(refused.status()).as("%s", refused).isEqualTo(403);
		assertThat(refused.contentType()).as("%s", refused).startsWith("application/problem+json");
		assertThat(refused.json().read("$.field", String.class)).as("%s", refused).isEqualTo("csrf");
		assertThat(refused.json().read("$.detail", String.class)).as("%s", refused).contains("CSRF");
		Answer after = this.http.get("/actuator/threadpools/reports", OPS);
		assertThat(after.json().read("$.tuning.mode", String.class))
			.isEqualTo(before.json().read("$.tuning.mode", String.class));
	}

}
