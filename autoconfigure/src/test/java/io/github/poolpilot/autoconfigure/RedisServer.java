package io.github.poolpilot.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Assumptions;

import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

/**
 * A {@code redis-server} of the test's own on a free port, without persistence, that the
 * test can stop and start again, or pause and let go on; never the machine's shared one.
 * Missing, it fails the test on CI ({@code CI=true}) and skips it elsewhere.
 *
 * @author poolpilot authors
 */
final class RedisServer implements AutoCloseable {

	private static final Path EXECUTABLE = Path.of("/usr/bin/redis-server");

	private final int port;

	private Process process;

	private RedisServer(int port) {
		this.port = port;
	}

	static RedisServer start() throws IOException {
		if (!Files.isExecutable(EXECUTABLE)) {
			if ("true".equals(System.getenv("CI"))) {
				fail(EXECUTABLE + " is missing: the cluster tests need a Redis server of their own");
			}
			Assumptions.abort(EXECUTABLE + " is missing");
		}
		int port;
		try (ServerSocket socket = new ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		RedisServer server = new RedisServer(port);
		server.resume();
		return server;
	}

	int port() {
		return this.port;
	}

	/**
	 * Start the server (again) on its port and wait until it answers.
	 */
	void resume() throws IOException {
		this.process = new ProcessBuilder(EXECUTABLE.toString(), "--port", String.valueOf(this.port), "--bind",
				"127.0.0.1", "--save", "", "--appendonly", "no")
			.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.start();
		await().atMost(Duration.ofSeconds(10)).until(this::answers);
	}

	/**
	 * Stop the server at once; what it held is gone, as after a crash.
	 */
	void stop() throws InterruptedException {
		this.process.destroyForcibly();
		this.process.waitFor();
	}

	/**
	 * Pause the server (SIGSTOP): its port stays open and it answers nothing, as a Redis
	 * stalled or behind a partition that drops packets.
	 */
	void pause() throws IOException, InterruptedException {
		signal("STOP");
	}

	/**
	 * Let a paused server go on (SIGCONT), with everything it held.
	 */
	void proceed() throws IOException, InterruptedException {
		signal("CONT");
	}

	private void signal(String signal) throws IOException, InterruptedException {
		Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(this.process.pid())).inheritIO().start();
		if (kill.waitFor() != 0) {
			fail("kill -" + signal + " " + this.process.pid() + " failed");
		}
	}

	private boolean answers() {
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			OutputStream out = socket.getOutputStream();
			out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			byte[] answer = new byte[7];
			int read = in.read(answer);
			return read > 0 && new String(answer, 0, read, StandardCharsets.US_ASCII).startsWith("+PONG");
		}
		catch (IOException ex) {
			return false;
		}
	}

	@Override
	public void close() throws InterruptedException {
		stop();
	}

}
