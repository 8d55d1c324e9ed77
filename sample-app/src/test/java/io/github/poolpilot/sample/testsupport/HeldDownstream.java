package io.github.poolpilot.sample.testsupport;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A downstream for the talk API that holds every call until the test releases it, so that
 * a test decides when the talk pool is busy and does not depend on how fast the machine
 * is. A call is never held longer than a minute, so a failed test cannot hang.
 *
 * @author poolpilot authors
 */
public final class HeldDownstream implements AutoCloseable {

	private static final Duration LONGEST_HOLD = Duration.ofMinutes(1);

	private final HttpServer server;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final AtomicInteger arrivals = new AtomicInteger();

	private volatile CountDownLatch release = new CountDownLatch(1);

	private HeldDownstream(HttpServer server) {
		this.server = server;
		server.createContext("/", this::handle);
		server.setExecutor(this.executor);
		server.start();
	}

	/**
	 * Start a held downstream on a free port of the loopback address.
	 * @return the downstream
	 */
	public static HeldDownstream start() {
		try {
			return new HeldDownstream(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0));
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not start the held downstream", ex);
		}
	}

	/**
	 * Return the URL to point {@code sample.talk.downstream-url} at.
	 * @return the URL
	 */
	public URI url() {
		return URI.create("http://127.0.0.1:" + this.server.getAddress().getPort() + "/talk");
	}

	/**
	 * Return how many calls arrived so far.
	 * @return the calls
	 */
	public int arrivals() {
		return this.arrivals.get();
	}

	/**
	 * Answer every held call, and every later one at once.
	 */
	public void release() {
		this.release.countDown();
	}

	/**
	 * Hold the calls that arrive from now on.
	 */
	public void hold() {
		this.release = new CountDownLatch(1);
	}

	private void handle(HttpExchange exchange) throws IOException {
		this.arrivals.incrementAndGet();
		exchange.getRequestBody().readAllBytes();
		try {
			this.release.await(LONGEST_HOLD.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		byte[] body = "{\"reply\":\"released\",\"tookMs\":0}".getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().set("Content-Type", "application/json");
		exchange.sendResponseHeaders(200, body.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(body);
		}
	}

	@Override
	public void close() {
		release();
		this.server.stop(0);
		this.executor.shutdownNow();
	}

}
