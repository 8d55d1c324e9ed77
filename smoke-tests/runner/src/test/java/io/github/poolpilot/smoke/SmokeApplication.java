package io.github.poolpilot.smoke;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

/**
 * A smoke application's jar started as a user starts it ({@code java -jar}), its output
 * in a log file of its own. A web application is started with {@code server.port=0} and
 * writes the port it got to a file (Spring Boot's {@code WebServerPortFileWriter},
 * registered in its {@code META-INF/spring.factories}), so no smoke application ever
 * binds a fixed port.
 * <p>
 * No JVM outlives its test: {@link #stop()} ends it (SIGTERM, then SIGKILL), a shutdown
 * hook kills whatever is still running when the test JVM ends, and each running
 * application's pid is in a file that smoke-tests/run.sh reads to kill it if the test JVM
 * itself was killed.
 */
final class SmokeApplication {

	static final Path ROOT = Path.of(System.getProperty("smoke.root", "..")).toAbsolutePath().normalize();

	private static final Path LOGS = Path.of(System.getProperty("smoke.logs", "target/smoke-logs")).toAbsolutePath();

	private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

	private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

	/**
	 * Small heaps and a quick start: a CI machine of 2 cores runs two of them at once.
	 */
	private static final List<String> JVM_OPTIONS = List.of("-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

	/**
	 * A line that Spring Boot's console pattern logs at ERROR, or an uncaught exception.
	 */
	private static final Pattern ERROR_LINE = Pattern.compile("^\\S+\\s+ERROR\\s+\\d+ ---.*|^Exception in thread.*");

	/** What SIGTERM ends a JVM with after its shutdown hooks ran (128 + 15). */
	private static final int EXIT_ON_SIGTERM = 143;

	private static final Set<Process> running = ConcurrentHashMap.newKeySet();

	static {
		Runtime.getRuntime().addShutdownHook(new Thread(() -> running.forEach(Process::destroyForcibly)));
	}

	private final Shape shape;

	private final Process process;

	private final Path portFile;

	private final Path pidFile;

	private SmokeApplication(Shape shape, Process process, Path portFile, Path pidFile) {
		this.shape = shape;
		this.process = process;
		this.portFile = portFile;
		this.pidFile = pidFile;
	}

	/**
	 * Starts the shape's application with the given java executable, environment
	 * variables (added to this JVM's) and command-line arguments.
	 */
	static SmokeApplication start(Shape shape, Path java, Map<String, String> environment, List<String> arguments)
			throws IOException {
		Files.createDirectories(LOGS);
		Path portFile = LOGS.resolve(shape.id() + ".port");
		Path pidFile = LOGS.resolve(shape.id() + ".pid");
		Files.deleteIfExists(portFile);
		List<String> command = new ArrayList<>();
		command.add(java.toString());
		command.addAll(JVM_OPTIONS);
		command.add("-jar");
		command.add(jar(shape).toString());
		command.addAll(arguments);
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(log(shape).toFile());
		builder.environment().putAll(environment);
		builder.environment().put("PORTFILE", portFile.toString());
		Process process = builder.start();
		running.add(process);
		Files.writeString(pidFile, Long.toString(process.pid()));
		return new SmokeApplication(shape, process, portFile, pidFile);
	}

	/**
	 * The java executable of the JVM running the tests (Java 17 on CI, the lowest
	 * supported).
	 */
	static Path currentJava() {
		return Path.of(System.getProperty("java.home"), "bin", "java");
	}

	static Path log(Shape shape) {
		return LOGS.resolve(shape.id() + ".log");
	}

	private static Path jar(Shape shape) throws IOException {
		Path target = ROOT.resolve(shape.application()).resolve("target");
		try (Stream<Path> files = Files.list(target)) {
			List<Path> jars = files.filter((file) -> file.getFileName().toString().endsWith(".jar")).toList();
			assertThat(jars).as("the executable jar in %s (built by smoke-tests/run.sh)", target).hasSize(1);
			return jars.get(0);
		}
	}

	/**
	 * Waits for the web server's port, failing with the log if the application ends
	 * first.
	 */
	int port() throws IOException {
		await().atMost(START_TIMEOUT)
			.pollInterval(Duration.ofMillis(100))
			.until(() -> !this.process.isAlive() || readPort() > 0);
		if (!this.process.isAlive()) {
			fail("%s ended with exit code %d before its web server started", this.shape.id(), this.process.exitValue());
		}
		return readPort();
	}

	private int readPort() throws IOException {
		if (!Files.exists(this.portFile)) {
			return 0;
		}
		String port = Files.readString(this.portFile).trim();
		return port.isEmpty() ? 0 : Integer.parseInt(port);
	}

	/** Waits for an application that ends by itself, and answers its exit code. */
	int awaitExit() throws InterruptedException {
		if (!this.process.waitFor(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
			fail("%s did not end within %d s", this.shape.id(), START_TIMEOUT.toSeconds());
		}
		return ended();
	}

	/**
	 * Stops the application as a process manager does (SIGTERM) and checks that it
	 * stopped cleanly: within 30 s, with the exit code of a JVM ended by SIGTERM, and no
	 * error logged.
	 */
	void stop() throws IOException, InterruptedException {
		if (this.process.isAlive()) {
			this.process.destroy();
			if (!this.process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
				this.process.destroyForcibly().waitFor();
				ended();
				fail("%s did not stop within %d s of SIGTERM (killed)", this.shape.id(), STOP_TIMEOUT.toSeconds());
			}
			assertThat(ended()).as("%s's exit code after SIGTERM", this.shape.id()).isEqualTo(EXIT_ON_SIGTERM);
		}
		else {
			ended();
		}
		assertThat(errors()).as("lines logged at ERROR by %s", this.shape.id()).isEmpty();
	}

	/** Kills the application if it still runs: the path of a failed start. */
	void kill() throws InterruptedException {
		if (this.process.isAlive()) {
			this.process.destroyForcibly().waitFor();
		}
		ended();
	}

	private int ended() {
		running.remove(this.process);
		try {
			Files.deleteIfExists(this.pidFile);
		}
		catch (IOException ex) {
			// run.sh checks a pid's command line before killing it
		}
		return this.process.exitValue();
	}

	String log() throws IOException {
		return Files.readString(log(this.shape), StandardCharsets.UTF_8);
	}

	List<String> errors() throws IOException {
		return log().lines().filter((line) -> ERROR_LINE.matcher(line).matches()).toList();
	}

}
