package io.github.poolpilot.smoke;

import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.poolpilot.smoke.Http.Answer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every smoke application with a web server and Actuator must do: serve a request
 * whose work runs on the declared pool "reports", list its pools at
 * {@code /actuator/threadpools}, resize a pool by POST (writes are enabled in each), and
 * refuse a bad body with a 400 problem detail that names the field and changes nothing.
 * Each subclass is one shape.
 */
abstract class WebApplicationSmokeTests extends WebApplicationTests {

	/** The pools the endpoint lists. */
	Set<String> pools() {
		return Set.of("reports", "applicationTaskExecutor");
	}

	/**
	 * HTTP Basic credentials ("user:password") of a user allowed to change pools, or
	 * none.
	 */
	String writer() {
		return null;
	}

	@Test
	void aReportRunsOnTheDeclaredPool() throws Exception {
		Answer report = this.http.post("/reports");
		assertThat(report.status()).as("%s", report).isEqualTo(200);
		assertThat(report.body()).containsPattern("reports-\\d+");
	}

	@Test
	void theEndpointListsThePools() throws Exception {
		assertThat(this.http.post("/reports").status()).isEqualTo(200);
		Answer answer = this.http.get("/actuator/threadpools");
		assertThat(answer.status()).as("%s", answer).isEqualTo(200);
		Map<String, Object> pools = answer.json().read("$.pools");
		assertThat(pools).as("%s", answer).containsKeys(pools().toArray(String[]::new));
		assertThat(answer.json().read("$.pools.reports.submittedTasks", Integer.class)).as("%s", answer).isPositive();
		assertThat(answer.json().read("$.budget.maxThreads", Integer.class)).as("%s", answer).isPositive();
	}

	@Test
	void aResizeByPostChangesThePool() throws Exception {
		Answer resize = this.http.postJson("/actuator/threadpools/reports", "{\"corePoolSize\": 3, \"maxPoolSize\": 3}",
				writer());
		assertThat(resize.status()).as("%s", resize).isEqualTo(200);
		assertThat(resize.json().read("$.maxPoolSize", Integer.class)).as("%s", resize).isEqualTo(3);
		assertThat(resize.json().read("$.tuning.mode", String.class)).as("%s", resize).isEqualTo("manual");
		Answer pool = this.http.get("/actuator/threadpools/reports");
		assertThat(sizes(pool)).as("%s", pool).containsExactly(3, 3);
	}

	@Test
	void aBadBodyAnswersAProblemDetailNamingTheFieldAndChangesNothing() throws Exception {
		// Manual first, so that the tuner cannot change the sizes compared below.
		assertThat(this.http
			.postJson("/actuator/threadpools/reports", "{\"corePoolSize\": 2, \"maxPoolSize\": 2}", writer())
			.status()).isEqualTo(200);
		Answer refused = this.http.postJson("/actuator/threadpools/reports", "{\"corePoolSize\": \"many\"}", writer());
		assertThat(refused.status()).as("%s", refused).isEqualTo(400);
		assertThat(refused.contentType()).as("%s", refused).startsWith("application/problem+json");
		assertThat(refused.json().read("$.field", String.class)).as("%s", refused).isEqualTo("corePoolSize");
		assertThat(refused.json().read("$.detail", String.class)).as("%s", refused).contains("corePoolSize");
		Answer pool = this.http.get("/actuator/threadpools/reports");
		assertThat(sizes(pool)).as("%s", pool).containsExactly(2, 2);
	}

	static List<Integer> sizes(Answer pool) {
		return List.of(pool.json().read("$.corePoolSize", Integer.class),
				pool.json().read("$.maxPoolSize", Integer.class));
	}

}
