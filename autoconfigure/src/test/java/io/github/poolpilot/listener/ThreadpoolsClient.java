package io.github.poolpilot.listener;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The threadpools endpoint of a listener contract test's application, over HTTP: one
 * pool's entry and resizes, and any other path of the endpoint. A read is asserted to be
 * answered with 200; a resize's answer is the test's to check.
 *
 * @author poolpilot authors
 */
public final class ThreadpoolsClient {

	private static final JsonMapper json = JsonMapper.builder().build();

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final String pool;

	private int port;

	/**
	 * A client of the given pool's entry.
	 * @param pool the pool's name
	 */
	public ThreadpoolsClient(String pool) {
		this.pool = pool;
	}

	/**
	 * Talk to the given application from now on.
	 * @param context the application, on a web server
	 */
	public void connect(ConfigurableApplicationContext context) {
		this.port = ((WebServerApplicationContext) context).getWebServer().getPort();
	}

	/**
	 * The pool's entry, {@code GET /actuator/threadpools/<pool>}.
	 * @return the entry
	 */
	public JsonNode pool() throws IOException, InterruptedException {
		return get("/actuator/threadpools/" + this.pool);
	}

	/**
	 * A {@code GET} answered with 200.
	 * @param path the path
	 * @return the answer's body
	 */
	public JsonNode get(String path) throws IOException, InterruptedException {
		HttpResponse<String> response = this.client.send(request(path).GET().build(), BodyHandlers.ofString());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return json.readTree(response.body());
	}

	/**
	 * A resize of the pool, a JSON body posted to its entry.
	 * @param body the body
	 * @return the answer
	 */
	public HttpResponse<String> post(String body) throws IOException, InterruptedException {
		return this.client.send(request("/actuator/threadpools/" + this.pool).header("Content-Type", "application/json")
			.POST(BodyPublishers.ofString(body))
			.build(), BodyHandlers.ofString());
	}

	private HttpRequest.Builder request(String path) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(10));
	}

}
