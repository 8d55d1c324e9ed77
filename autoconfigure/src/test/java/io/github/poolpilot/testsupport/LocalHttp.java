package io.github.poolpilot.testsupport;

import java.net.http.HttpClient;
import java.util.function.Consumer;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * Requests to the test's own server on localhost that return every response, whatever its
 * status, for the test to check.
 * <p>
 * The client is the JDK's, on HTTP/1.1: Jetty's, which {@link RestClient#create()} picks
 * when Jetty is on the class path, may abort a POST whose 401 or 403 arrives before its
 * body is sent ("Aborting request after receiving a 401 response") instead of returning
 * the answer the test checks.
 *
 * @author poolpilot authors
 */
public final class LocalHttp {

	private static final Consumer<HttpHeaders> NO_HEADERS = (headers) -> {
	};

	private LocalHttp() {
	}

	/**
	 * GET a path.
	 * @param port the server's port
	 * @param path the path
	 * @return the response
	 */
	public static ResponseEntity<String> get(int port, String path) {
		return exchange(port, HttpMethod.GET, path, null, NO_HEADERS);
	}

	/**
	 * POST to a path without a body.
	 * @param port the server's port
	 * @param path the path
	 * @return the response
	 */
	public static ResponseEntity<String> post(int port, String path) {
		return exchange(port, HttpMethod.POST, path, null, NO_HEADERS);
	}

	/**
	 * POST a JSON body to a path.
	 * @param port the server's port
	 * @param path the path
	 * @param json the body
	 * @return the response
	 */
	public static ResponseEntity<String> post(int port, String path, String json) {
		return exchange(port, HttpMethod.POST, path, json, NO_HEADERS);
	}

	/**
	 * Send a request with headers of the test's choosing.
	 * @param port the server's port
	 * @param method the method
	 * @param path the path
	 * @param json the JSON body, or {@code null} for none
	 * @param headers sets the request's headers (credentials, cookies, tokens)
	 * @return the response
	 */
	public static ResponseEntity<String> exchange(int port, HttpMethod method, String path, String json,
			Consumer<HttpHeaders> headers) {
		RestClient.RequestBodySpec request = client(port).method(method).uri(path).headers(headers);
		if (json != null) {
			request.contentType(MediaType.APPLICATION_JSON).body(json);
		}
		return answer(request);
	}

	/**
	 * POST a body of the given content type, which need not be JSON.
	 * @param port the server's port
	 * @param path the path
	 * @param contentType the body's content type
	 * @param body the body
	 * @return the response
	 */
	public static ResponseEntity<String> post(int port, String path, MediaType contentType, String body) {
		return answer(client(port).post().uri(path).contentType(contentType).body(body));
	}

	private static ResponseEntity<String> answer(RestClient.RequestBodySpec request) {
		return request.retrieve().onStatus((status) -> true, (req, response) -> {
		}).toEntity(String.class);
	}

	/**
	 * Sets HTTP Basic credentials whose password is the user's name, as the security
	 * tests' users have.
	 * @param user the user, or {@code null} for an anonymous request
	 * @return the headers' setter
	 */
	public static Consumer<HttpHeaders> basicAuth(String user) {
		return basicAuth(user, user);
	}

	/**
	 * Sets HTTP Basic credentials.
	 * @param user the user, or {@code null} for an anonymous request
	 * @param password the password
	 * @return the headers' setter
	 */
	public static Consumer<HttpHeaders> basicAuth(String user, String password) {
		return (user != null) ? (headers) -> headers.setBasicAuth(user, password) : NO_HEADERS;
	}

	private static RestClient client(int port) {
		HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
		return RestClient.builder()
			.requestFactory(new JdkClientHttpRequestFactory(http))
			.baseUrl("http://localhost:" + port)
			.build();
	}

}
