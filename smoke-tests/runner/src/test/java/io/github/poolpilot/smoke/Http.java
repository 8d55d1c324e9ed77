package io.github.poolpilot.smoke;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;

/**
 * Requests to a smoke application on the loopback address.
 */
final class Http {

	private static final Duration TIMEOUT = Duration.ofSeconds(15);

	private final HttpClient client = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(TIMEOUT)
		.build();

	private final String base;

	Http(int port) {
		this.base = "http://127.0.0.1:" + port;
	}

	Answer get(String path) throws IOException, InterruptedException {
		return get(path, null);
	}

	/** A GET, with HTTP Basic credentials ("user:password") unless null. */
	Answer get(String path, String credentials) throws IOException, InterruptedException {
		return send(authorized(request(path).GET(), credentials));
	}

	/** A POST without a body. */
	Answer post(String path) throws IOException, InterruptedException {
		return send(request(path).POST(HttpRequest.BodyPublishers.noBody()));
	}

	/** A JSON POST, with HTTP Basic credentials ("user:password") unless null. */
	Answer postJson(String path, String body, String credentials) throws IOException, InterruptedException {
		return send(authorized(request(path).header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body)), credentials));
	}

	private static HttpRequest.Builder authorized(HttpRequest.Builder request, String credentials) {
		if (credentials != null) {
			request.header("Authorization",
					"Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
		}
		return request;
	}

	private HttpRequest.Builder request(String path) {
		return HttpRequest.newBuilder(URI.create(this.base + path)).timeout(TIMEOUT);
	}

	private Answer send(HttpRequest.Builder request) throws IOException, InterruptedException {
		HttpRequest built = request.build();
		HttpResponse<String> response = this.client.send(built, HttpResponse.BodyHandlers.ofString());
		return new Answer(built.method() + " " + built.uri().getPath(), response.statusCode(),
				response.headers().firstValue("Content-Type").orElse(""),
				response.headers().firstValue("WWW-Authenticate").orElse(""), response.body());
	}

	/** What a request got: its status, two headers and the body. */
	record Answer(String request, int status, String contentType, String wwwAuthenticate, String body) {

		DocumentContext json() {
			return JsonPath.parse(this.body);
		}

		@Override
		public String toString() {
			return this.request + " answered " + this.status + " " + this.contentType + ": " + this.body;
		}

	}

}
