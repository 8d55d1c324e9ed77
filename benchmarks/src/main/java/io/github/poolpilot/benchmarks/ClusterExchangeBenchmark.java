package io.github.poolpilot.benchmarks;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.github.poolpilot.cluster.ClusterStore.Exchange;
import io.github.poolpilot.cluster.ClusterStore.Publication;
import io.github.poolpilot.cluster.InstanceDemand;
import io.github.poolpilot.redis.RedisClusterStore;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The cost of one pool's exchange with the cluster (the control loop's one round trip per
 * pool and window: the Lua script that prunes, grants and records a lease and reads the
 * others), against a {@code PING} over the same connection as its baseline, on a
 * {@code redis-server} this benchmark starts on a free port of the loopback interface.
 * Two other instances are recorded in the pool's hash, as in a cluster of three.
 *
 * @author poolpilot authors
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = { "-Xms256m", "-Xmx256m" })
public class ClusterExchangeBenchmark {

	private static final String REDIS_SERVER = "/usr/bin/redis-server";

	/**
	 * Long enough that the other instances' entries never expire during a run.
	 */
	private static final long TTL_MILLIS = TimeUnit.HOURS.toMillis(1);

	private static final int LIMIT = 60;

	private Process redis;

	private LettuceConnectionFactory connectionFactory;

	private StringRedisTemplate template;

	private RedisClusterStore store;

	private Publication publication;

	@Setup
	public void startRedis() throws IOException {
		if (!Files.isExecutable(Path.of(REDIS_SERVER))) {
			throw new IllegalStateException(REDIS_SERVER + " is missing: this benchmark starts a Redis of its own");
		}
		int port;
		try (ServerSocket socket = new ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		this.redis = new ProcessBuilder(REDIS_SERVER, "--port", String.valueOf(port), "--bind", "127.0.0.1", "--save",
				"", "--appendonly", "no")
			.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.start();
		awaitPort(port);
		this.connectionFactory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port));
		this.connectionFactory.afterPropertiesSet();
		this.connectionFactory.start();
		this.template = new StringRedisTemplate(this.connectionFactory);
		this.store = new RedisClusterStore(this.template, "benchmark");
		this.store.exchange("talk", publication("b", 20));
		this.store.exchange("talk", publication("c", 20));
		this.publication = publication("a", 20);
	}

	private static Publication publication(String instance, int threads) {
		return new Publication(instance, new InstanceDemand(threads, threads), threads, threads, TTL_MILLIS, LIMIT);
	}

	private static void awaitPort(int port) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (System.nanoTime() < deadline) {
			try (Socket socket = new Socket("127.0.0.1", port)) {
				return;
			}
			catch (IOException ex) {
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
			}
		}
		throw new IllegalStateException("redis-server did not listen on port " + port + " within 10 s");
	}

	@TearDown
	public void stopRedis() throws InterruptedException {
		this.connectionFactory.destroy();
		this.redis.destroy();
		this.redis.waitFor();
	}

	/**
	 * The baseline: one round trip that does nothing.
	 * @return the answer
	 */
	@Benchmark
	public String ping() {
		return this.template.execute((RedisCallback<String>) RedisConnection::ping);
	}

	/**
	 * One pool's exchange of a control loop's window.
	 * @return the answer
	 */
	@Benchmark
	public Exchange exchange() {
		return this.store.exchange("talk", this.publication);
	}

}
