package io.github.poolpilot.sample.downstream;

import java.net.URI;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.sample.SampleProperties;

import org.springframework.core.env.Environment;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.util.Assert;
import org.springframework.web.client.RestClient;

/**
 * Calls the talk API's downstream over HTTP, blocking the calling thread until it
 * answers: {@code sample.talk.downstream-url}, or the application's own stub.
 *
 * @author poolpilot authors
 */
@Component
public class DownstreamClient {

	static final String STUB_PATH = "/downstream/talk";

	private final RestClient http;

	private final @Nullable URI configuredUrl;

	private final Environment environment;

	private volatile @Nullable URI url;

	DownstreamClient(RestClient.Builder http, SampleProperties properties, Environment environment) {
		this.http = http.build();
		this.configuredUrl = properties.getTalk().getDownstreamUrl();
		this.environment = environment;
	}

	/**
	 * Send a message and wait for the reply.
	 * @param message the message
	 * @return the downstream's reply
	 * @throws org.springframework.web.client.RestClientException if the call failed
	 */
	public DownstreamReply send(String message) {
		DownstreamReply reply = this.http.post()
			.uri(url())
			.contentType(MediaType.APPLICATION_JSON)
			.body(new DownstreamRequest(message))
			.retrieve()
			.body(DownstreamReply.class);
		Assert.state(reply != null, "The downstream answered without a body");
		return reply;
	}

	/**
	 * The configured URL, or the stub's on this application's own port, known only once
	 * the server started.
	 */
	private URI url() {
		URI url = this.url;
		if (url == null) {
			url = (this.configuredUrl != null) ? this.configuredUrl : URI
				.create("http://127.0.0.1:" + this.environment.getRequiredProperty("local.server.port") + STUB_PATH);
			this.url = url;
		}
		return url;
	}

}
