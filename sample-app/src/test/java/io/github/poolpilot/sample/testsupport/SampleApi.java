package io.github.poolpilot.sample.testsupport;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import com.jayway.jsonpath.JsonPath;

/**
 * Calls the sample's HTTP APIs the way a client would, with timeouts so that a test never
 * hangs on a request that is not answered.
 *
 * @author poolpilot authors
 */
public final class SampleApi {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	private final String base;

	public SampleApi(int port) {
		this.base = "http://127.0.0.1:" + port;
	}

	/**
	 * Start a session.
	 * @return its id
	 */
	public long startSession() {
		HttpResponse<String> response = start().join();
		if (response.statusCode() != 200) {
			throw new IllegalStateException(
					"POST /api/start answered " + response.statusCode() + ": " + response.body());
		}
		return JsonPath.parse(response.body()).read("$.sessionId", Long.class);
	}

	public CompletableFuture<HttpResponse<String>> start() {
		return post("/api/start", "");
	}

	public CompletableFuture<HttpResponse<String>> talk(long sessionId, String message) {
		return post("/api/talk", "{\"sessionId\":" + sessionId + ",\"message\":\"" + message + "\"}");
	}

	public CompletableFuture<HttpResponse<String>> stop(long sessionId) {
		return post("/api/stop", "{\"sessionId\":" + sessionId + "}");
	}

	public CompletableFuture<HttpResponse<String>> post(String path, String json) {
		HttpRequest request = HttpRequest.newBuilder(URI.create(this.base + path))
			.timeout(TIMEOUT)
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json))
			.build();
		return this.http.sendAsync(request, HttpResponse.BodyHandlers.ofString());
	}

	public HttpResponse<String> get(String path) {
		HttpRequest request = HttpRequest.newBuilder(URI.create(this.base + path)).timeout(TIMEOUT).GET().build();
		return this.http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).join();
	}

}
