package io.github.poolpilot.actuate;

import java.util.ArrayList;
import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;
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
 * Property-based test of the {@code threadpools} write operation: thousands of generated
 * bodies, valid and not, each answered 200, 400 or 404, and the pool's state changed only
 * on 200.
 *
 * @author poolpilot authors
 */
class ThreadPoolsEndpointPropertyTests {

	private static ConfigurableApplicationContext context;

	private static RestClient client;

	private static PoolRegistry registry;

	@BeforeContainer
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

	@AfterContainer
	static void stop() {
		context.close();
	}

	@Property(tries = 2000)
	void everyAnswerIs200Or400Or404AndOnlyA200ChangesState(@ForAll("pools") String pool,
			@ForAll("bodies") String body) {
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
		assertThat(status).as(body).isIn(200, 400, 404);
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

	@Provide
	Arbitrary<String> pools() {
		return Arbitraries.of("talk", "stop", "nope");
	}

	@Provide
	Arbitrary<String> bodies() {
		Arbitrary<String> names = Arbitraries.of("corePoolSize", "maxPoolSize", "tuning", "corePoolSize", "maxPoolSize",
				"other", "");
		Arbitrary<String> values = Arbitraries.oneOf(Arbitraries.integers().between(-3, 14).map(String::valueOf),
				Arbitraries.longs().map(String::valueOf), Arbitraries.doubles().map(String::valueOf),
				Arbitraries.of("\"auto\"", "\"manual\"", "\"off\"", "\"5\"", "null", "true", "[]", "{}", "\"\""));
		Arbitrary<String> field = Combinators.combine(names, values).as((name, value) -> "\"" + name + "\":" + value);
		Arbitrary<String> object = field.list().ofMaxSize(4).map((fields) -> "{" + String.join(",", fields) + "}");
		Arbitrary<String> malformed = Arbitraries.of("", "{", "[1]", "\"x\"", "{\"corePoolSize\":}", "null");
		return Arbitraries.frequencyOf(Tuple.of(20, object), Tuple.of(1, malformed));
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

	}

}
