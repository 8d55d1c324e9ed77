package io.github.poolpilot.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.cluster.ClusterState;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The cluster's round trip to Redis is off the task path: with the test's Redis paused
 * (SIGSTOP, so that it accepts connections and answers nothing), the control loop's
 * exchange waits for the Redis timeout of 2 s (within the lease's time to live of 4 s),
 * and meanwhile the pool accepts and completes tasks as before.
 *
 * @author poolpilot authors
 */
class ClusterRedisPauseTests {

	private static final Duration REDIS_TIMEOUT = Duration.ofSeconds(2);

	private final AtomicBoolean running = new AtomicBoolean(true);

	/**
	 * The longest a caller waited in {@code execute} while Redis was paused.
	 */
	private final AtomicLong longestSubmitNanos = new AtomicLong();

	private final AtomicBoolean paused = new AtomicBoolean();

	private RedisServer redis;

	private ClusterInstance instance;

	private Thread load;

	@AfterEach
	void stop() throws InterruptedException {
		this.running.set(false);
		if (this.load != null) {
			this.load.join(10_000);
		}
		if (this.instance != null) {
			this.instance.context.close();
		}
		if (this.redis != null) {
			this.redis.close();
		}
	}

	@Test
	void tasksAreAcceptedAndCompletedWhileTheExchangeWaitsOnAPausedRedis() throws Exception {
		this.redis = RedisServer.start();
		this.instance = new ClusterInstance("cluster-pause-" + System.nanoTime(), this.redis.port(),
				Map.of("spring.data.redis.timeout", REDIS_TIMEOUT.toMillis() + "ms",
						"poolpilot.cluster.lease-heartbeats", 20));
		ClusterInstance instance = this.instance;
		this.load = new Thread(() -> {
			while (this.running.get()) {
				if (instance.talk.getThreadPoolExecutor().getQueue().size() < 40) {
					for (int i = 0; i < 5; i++) {
						long started = System.nanoTime();
						instance.call(() -> LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20)));
						if (this.paused.get()) {
							this.longestSubmitNanos.accumulateAndGet(System.nanoTime() - started, Math::max);
						}
					}
				}
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
			}
		}, "load");
		this.load.start();
		await().atMost(Duration.ofSeconds(20))
			.until(() -> instance.status().state() == ClusterState.OK && instance.completed.sum() > 100);
		this.redis.pause();
		this.paused.set(true);
		long pausedAt = System.nanoTime();
		long acceptedAtPause = instance.accepted.sum();
		long completedAtPause = instance.completed.sum();
		// The exchange under way, or the next, waits on Redis until its timeout: only
		// then
		// does the instance know it is cut off.
		await().atMost(Duration.ofSeconds(10)).until(() -> instance.status().state() == ClusterState.DEGRADED);
		Duration untilDegraded = Duration.ofNanos(System.nanoTime() - pausedAt);
		long accepted = instance.accepted.sum() - acceptedAtPause;
		long completed = instance.completed.sum() - completedAtPause;
		this.paused.set(false);
		this.redis.proceed();
		await().atMost(Duration.ofSeconds(20)).until(() -> instance.status().state() == ClusterState.OK);
		this.running.set(false);
		this.load.join(10_000);
		await().atMost(Duration.ofSeconds(20)).until(() -> instance.completed.sum() == instance.accepted.sum());
		record(String.format(Locale.ROOT,
				"Redis paused: degraded after %d ms; meanwhile %d tasks accepted, %d completed; "
						+ "longest execute() %.3f ms",
				untilDegraded.toMillis(), accepted, completed, this.longestSubmitNanos.get() / 1e6));
		assertThat(untilDegraded).isGreaterThanOrEqualTo(REDIS_TIMEOUT.minusMillis(100));
		assertThat(accepted).isGreaterThan(100);
		assertThat(completed).isGreaterThan(100);
		// A caller that waited on Redis would have waited up to the whole exchange and,
		// among the hundreds of tasks of the pause, some near it; off the path, execute()
		// takes well under a millisecond.
		assertThat(Duration.ofNanos(this.longestSubmitNanos.get())).isLessThan(REDIS_TIMEOUT.dividedBy(4));
	}

	/**
	 * Append a line to the run's record in {@code target/}, out of the test log.
	 */
	private static void record(String line) throws IOException {
		Files.writeString(Path.of("target", "cluster-redis-pause.txt"), Instant.now() + " " + line + "\n",
				StandardOpenOption.CREATE, StandardOpenOption.APPEND);
	}

}
