package io.github.poolpilot.actuate;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.testsupport.Draw;
import io.github.poolpilot.testsupport.Seeds;
import io.github.poolpilot.tuning.Tuner;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code threadpools} write operation on thousands of bodies drawn from seeds, valid
 * and not, each answered 200, 400 or 404, and the pool's state changed only on 200.
 *
 * @author poolpilot authors
 */
class ThreadPoolsEndpointPropertyTests {

	private static ConfigurableApplicationContext context;

	private static RestClient client;

	private static PoolRegistry registry;

	@BeforeAll
	static void start() {
		context = new SpringApplication(TestApplication.class).run("--server.port=0",
				"--management.endpoints.web.exposure.include=threadpools",
				"--management.endpoint.threadpools.access=unrestricted", "--poolpilot.budget.max-threads=12",
				"--poolpilot.pools.talk.min-threads=2", "--poolpilot.pools.talk.max-threads=8",
				"--poolpilot.pools.stop.max-threads=4", "--poolpilot.existing-executors.enabled=false",
				"--logging.level.org.springframework.web=off", "--poolpilot.measurement.window=1h");
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		client = RestClient.create("http://localhost:" + port);
		registry = context.getBean(PoolRegistry.class);
	}

	@AfterAll
	static void stop() {
		context.close();
	}

	@ParameterizedTest(name = "seed {0}")
	@MethodSource("seeds")
	void everyAnswerIs200Or400Or404AndOnlyA200ChangesState(long seed) {
		Draw draw = new Draw(seed);
		String pool = draw.oneOf("talk", "stop", "nope");
		String body = body(draw);
		Seeds.check(seed,
				"./mvnw -pl autoconfigure test-compile surefire:test@default-test -Dtest=ThreadPoolsEndpointPropertyTests",
				() -> postChangesStateOnlyOn200(pool, body));
	}

	private static void postChangesStateOnlyOn200(String pool, String body) {
		List<Object> before = states();
		int status = client.post()
			.uri("/actuator/threadpools/" + pool)
			.contentType(MediaType.APPLICATION_JSON)
			.body(body)
			.retrieve()
			.onStatus((code) -> true, (request, response) -> {
			})
			.toBodilessEntity()
			.getStatusCode()
			.value();
		assertThat(status).as("%s to %s", body, pool).isIn(200, 400, 404);
		if (status != 200) {
			assertThat(states()).as(body).isEqualTo(before);
		}
		assertThat(registry.budget().allocatedThreads()).isLessThanOrEqualTo(12);
	}

	private static List<Object> states() {
		List<Object> states = new ArrayList<>();
		for (ManagedPool pool : registry.pools()) {
			states.add(List.of(pool.getName(), pool.getExecutor().getCorePoolSize(),
					pool.getExecutor().getMaximumPoolSize(),
					context.getBean(Tuner.class).state(pool.getName()).getMode()));
		}
		return states;
	}

	static LongStream seeds() {
		return Seeds.first(2000);
	}

	/**
	 * A JSON object of up to four fields, one time in 21 a malformed body.
	 */
	private static String body(Draw draw) {
		if (draw.chance(1.0 / 21)) {
			return draw.oneOf("", "{", "[1]", "\"x\"", "{\"corePoolSize\":}", "null");
		}
		List<String> fields = draw.list(0, 4, (field) -> "\""
				+ field.oneOf("corePoolSize", "maxPoolSize", "tuning", "corePoolSize", "maxPoolSize", "other", "")
				+ "\":" + value(field));
		return "{" + String.join(",", fields) + "}";
	}

	private static String value(Draw draw) {
		return switch (draw.between(0, 3)) {
			case 0 -> String.valueOf(draw.anyLong());
			case 1 -> String.valueOf(draw.anyDouble());
			case 2 -> draw.oneOf("\"auto\"", "\"manual\"", "\"off\"", "\"5\"", "null", "true", "[]", "{}", "\"\"");
			default -> String.valueOf(draw.between(-3, 14));
		};
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

	}

}
