package io.github.poolpilot.testsupport;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

/**
 * Requests to the test's own server on localhost that return every response, whatever its
 * status, for the test to check.
 *
 * @author poolpilot authors
 */
public final class LocalHttp {

	private LocalHttp() {
	}

	/**
	 * GET a path.
	 * @param port the server's port
	 * @param path the path
	 * @return the response
	 */
	public static ResponseEntity<String> get(int port, String path) {
		return exchange(client(port).get().uri(path));
	}

	/**
	 * POST to a path without a body.
	 * @param port the server's port
	 * @param path the path
	 * @return the response
	 */
	public static ResponseEntity<String> post(int port, String path) {
		return exchange(client(port).post().uri(path));
	}

	/**
	 * POST a JSON body to a path.
	 * @param port the server's port
	 * @param path the path
	 * @param json the body
	 * @return the response
	 */
	public static ResponseEntity<String> post(int port, String path, String json) {
		return exchange(client(port).post().uri(path).contentType(MediaType.APPLICATION_JSON).body(json));
	}

	private static RestClient client(int port) {
		return RestClient.create("http://localhost:" + port);
	}

	private static ResponseEntity<String> exchange(RestClient.RequestHeadersSpec<?> request) {
		return request.retrieve().onStatus((status) -> true, (req, response) -> {
		}).toEntity(String.class);
	}

}
