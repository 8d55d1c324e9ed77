package io.github.poolpilot.sample.downstream;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.sample.SampleProperties;

import org.springframework.core.env.Environment;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.util.Assert;
import org.springframework.web.client.ResourceAccessException;
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

	private final DownstreamStub stub;

	private volatile @Nullable URI url;

	DownstreamClient(RestClient.Builder http, SampleProperties properties, Environment environment,
			DownstreamStub stub) {
		this.http = http.build();
		this.configuredUrl = properties.getTalk().getDownstreamUrl();
		this.environment = environment;
		this.stub = stub;
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
	 * Send a message and wait for the reply without needing a second request thread of
	 * this application: over HTTP to {@code sample.talk.downstream-url} when it is set,
	 * else straight to the built-in stub, waiting at most the HTTP calls' read timeout.
	 * Over HTTP the stub is served by this application's own server, so a request that
	 * holds its thread while it calls the stub would need a second one of the same pool,
	 * which under a flood it waits for in vain (or the pool refuses it).
	 * @param message the message
	 * @return the downstream's reply
	 * @throws org.springframework.web.client.RestClientException if the call failed or
	 * timed out
	 */
	public DownstreamReply sendFromRequestThread(String message) {
		if (this.configuredUrl != null) {
			return send(message);
		}
		Duration timeout = this.environment.getProperty("spring.http.clients.read-timeout", Duration.class,
				Duration.ofSeconds(30));
		try {
			return this.stub.reply(message).get(timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			throw new ResourceAccessException("The downstream stub did not answer within " + timeout);
		}
		catch (ExecutionException ex) {
			throw new ResourceAccessException("The downstream stub failed: " + ex.getCause());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new ResourceAccessException("Interrupted while waiting for the downstream stub");
		}
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
