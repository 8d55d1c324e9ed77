package io.github.poolpilot.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;

import io.github.poolpilot.actuate.ClusterHealthIndicator;
import io.github.poolpilot.actuate.ThreadPoolsDescriptor.ClusterDescriptor;
import io.github.poolpilot.actuate.ThreadPoolsEndpoint;
import io.github.poolpilot.cluster.ClusterState;
import io.github.poolpilot.cluster.ClusterStatus;
import io.github.poolpilot.pool.InvalidPoolSizeException;
import io.github.poolpilot.tuning.Tuner;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.health.contributor.Status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Three instances of an application (three contexts, each with its own Redis client)
 * share the pool {@code talk}'s cluster-wide limit of {@value #LIMIT} calls through a
 * Redis server of the test's own, in front of one downstream that counts its calls in
 * flight, sampled every 100 ms.
 *
 * @author poolpilot authors
 */
class ClusterLimitRedisTests {

	private static final int LIMIT = ClusterInstance.LIMIT;

	private static final Duration WINDOW = ClusterInstance.WINDOW;

	private static final int LEASE_HEARTBEATS = ClusterInstance.LEASE_HEARTBEATS;

	private final AtomicInteger inFlight = new AtomicInteger();

	private final List<Integer> excess = new CopyOnWriteArrayList<>();

	private final AtomicInteger sampledMax = new AtomicInteger();

	private final AtomicInteger peak = new AtomicInteger();

	private final AtomicBoolean running = new AtomicBoolean(true);

	private final List<ClusterInstance> instances = new ArrayList<>();

	private final List<Thread> threads = new ArrayList<>();

	private RedisServer redis;

	@AfterEach
	void stop() throws InterruptedException, IOException {
		this.running.set(false);
		for (Thread thread : this.threads) {
			thread.join(10_000);
		}
		record("most calls in flight: " + this.sampledMax.get() + " in the 100 ms samples, " + this.peak.get()
				+ " at any moment; samples above " + LIMIT + ": " + this.excess);
		if (!this.instances.isEmpty()) {
			Timer exchanges = this.instances.get(0).context.getBean(MeterRegistry.class)
				.get("executor.cluster.exchange")
				.tag("name", "talk")
				.timer();
			StringBuilder percentiles = new StringBuilder();
			for (ValueAtPercentile value : exchanges.takeSnapshot().percentileValues()) {
				percentiles.append(String.format(Locale.ROOT, ", p%.0f %.3f ms", value.percentile() * 100,
						value.value(TimeUnit.MILLISECONDS)));
			}
			record(String.format(Locale.ROOT, "first instance's exchanges with Redis: %d, mean %.3f ms%s, max %.3f ms",
					exchanges.count(), exchanges.mean(TimeUnit.MILLISECONDS), percentiles,
					exchanges.max(TimeUnit.MILLISECONDS)));
		}
		this.instances.forEach((instance) -> instance.context.close());
		if (this.redis != null) {
			this.redis.close();
		}
	}

	@Test
	void theClusterInstancesShareTheLimitThroughStopsAndRedisOutages() throws Exception {
		this.redis = RedisServer.start();
		String group = "cluster-test-" + System.nanoTime();
		for (int i = 0; i < 3; i++) {
			this.instances.add(new ClusterInstance(group, this.redis.port(), Map.of()));
		}
		ClusterInstance hot = this.instances.get(0);
		ClusterInstance second = this.instances.get(1);
		ClusterInstance third = this.instances.get(2);
		loop("in-flight-sampler", 100, () -> {
			int calls = this.inFlight.get();
			this.sampledMax.accumulateAndGet(calls, Math::max);
			if (calls > LIMIT) {
				this.excess.add(calls);
			}
		});
		// Uneven load: the hot instance gets most of the limit.
		load(hot);
		// How far beyond half the hot one grows is its tuner's call (a growth step that
		// does not pay blocks growth for a while); half is two idle shares lent to it.
		await().atMost(Duration.ofSeconds(60))
			.untilAsserted(() -> assertThat(hot.status().lease()).as(this::describe)
				.isGreaterThanOrEqualTo(LIMIT / 2)
				.isGreaterThan(second.status().lease() + third.status().lease()));
		assertThat(hot.status().instances()).hasSize(3);
		// The lease's gauges, bound when the pool joined its cluster as the control loop
		// started, after Spring Boot bound the meters.
		assertThat(gauge(hot, "executor.cluster.lease")).isGreaterThanOrEqualTo(1);
		assertThat(gauge(hot, "executor.cluster.degraded")).isZero();
		// Load on all three: each gets what it asks for up to close to its guaranteed
		// share (a third of the limit). What it asks for is its tuner's call: on a loaded
		// machine a tuner can judge a first step from one thread to two as paying clearly
		// less than in proportion and hold at two for a while.
		load(second);
		load(third);
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(this.instances).as(this::describe)
				.allMatch((instance) -> instance.status().lease() >= Math.min(ownDemand(instance), 3)
						&& ownDemand(instance) >= 2));
		// One instance stops renewing without releasing, as if killed: its share goes to
		// the others within the lease's time to live and a window (and some slack).
		third.kill();
		long killedAt = System.nanoTime();
		await().atMost(WINDOW.multipliedBy(LEASE_HEARTBEATS + 1).plusSeconds(3))
			.until(() -> hot.status().instances().size() == 2 && second.status().instances().size() == 2);
		Duration freedAfter = Duration.ofNanos(System.nanoTime() - killedAt);
		// Each survivor may now have half the limit, up to what it asks for.
		for (ClusterInstance survivor : List.of(hot, second)) {
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(survivor.status().lease()).as(this::describe)
					.isGreaterThanOrEqualTo(Math.min(LIMIT / 2, survivor.status().instances().get(0).demand())));
		}
		assertThat(freedAfter).isLessThan(WINDOW.multipliedBy(LEASE_HEARTBEATS + 1).plusSeconds(3));
		// Redis stops: both keep serving within their fallback shares, then rejoin.
		long completedBefore = hot.completed.sum() + second.completed.sum();
		this.redis.stop();
		await().atMost(Duration.ofSeconds(10)).until(() -> hot.status().fallback() && second.status().fallback());
		assertThat(hot.status().state()).isEqualTo(ClusterState.DEGRADED);
		assertThat(hot.context.getBean(ClusterHealthIndicator.class).health().getDetails()).containsEntry("state",
				"degraded");
		assertThat(hot.context.getBean(ClusterHealthIndicator.class).health().getStatus()).isEqualTo(Status.UP);
		assertThat(gauge(hot, "executor.cluster.degraded")).isEqualTo(1);
		assertThat(hot.context.getBean(MeterRegistry.class)
			.get("executor.cluster.fallbacks")
			.tag("name", "talk")
			.counter()
			.count()).isGreaterThanOrEqualTo(1);
		await().atMost(Duration.ofSeconds(10))
			.until(() -> hot.status().lease() == LIMIT / 2 && second.status().lease() == LIMIT / 2);
		// Nor can a person grow a pool above its lease through the endpoint.
		assertThatExceptionOfType(InvalidPoolSizeException.class)
			.isThrownBy(() -> hot.context.getBean(ThreadPoolsEndpoint.class)
				.updateThreadPool(SecurityContext.NONE, "talk", null, LIMIT / 2 + 1, null))
			.withMessageContaining("above its lease of the cluster-wide limit (allowed: at most " + LIMIT / 2 + ")");
		assertThat(hot.talk.getMaxPoolSize()).isLessThanOrEqualTo(LIMIT / 2);
		long completedDuringOutage = hot.completed.sum() + second.completed.sum();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> hot.completed.sum() + second.completed.sum() > completedDuringOutage + 20);
		assertThat(completedDuringOutage).isGreaterThan(completedBefore);
		this.redis.resume();
		await().atMost(Duration.ofSeconds(20))
			.until(() -> hot.status().state() == ClusterState.OK && second.status().state() == ClusterState.OK);
		await().atMost(Duration.ofSeconds(10))
			.until(() -> hot.status().instances().size() == 2 && second.status().instances().size() == 2);
		assertThat(hot.context.getBean(ClusterHealthIndicator.class).health().getDetails()).containsEntry("state",
				"ok");
		ClusterDescriptor cluster = hot.context.getBean(ThreadPoolsEndpoint.class).threadPool("talk").cluster();
		assertThat(cluster.limit()).isEqualTo(LIMIT);
		assertThat(cluster.state()).isEqualTo("ok");
		assertThat(cluster.instances()).hasSize(2).first().satisfies((self) -> assertThat(self.self()).isTrue());
		// Nothing lost: every accepted call ends.
		this.running.set(false);
		for (Thread thread : this.threads) {
			thread.join(10_000);
		}
		for (ClusterInstance instance : List.of(hot, second)) {
			await().atMost(Duration.ofSeconds(20)).until(() -> instance.completed.sum() == instance.accepted.sum());
		}
		assertThat(this.excess).as("samples of calls in flight above the limit of " + LIMIT).isEmpty();
	}

	/**
	 * Append a line to the run's record in {@code target/}, out of the test log.
	 */
	private static void record(String line) throws IOException {
		Files.writeString(Path.of("target", "cluster-limit-redis.txt"), Instant.now() + " " + line + "\n",
				StandardOpenOption.CREATE, StandardOpenOption.APPEND);
	}

	private static int ownDemand(ClusterInstance instance) {
		return instance.status()
			.instances()
			.stream()
			.filter(ClusterStatus.Instance::self)
			.mapToInt(ClusterStatus.Instance::demand)
			.findFirst()
			.orElse(0);
	}

	private String describe() {
		StringBuilder description = new StringBuilder();
		for (ClusterInstance instance : this.instances) {
			ClusterStatus status = instance.status();
			var decision = instance.context.getBean(Tuner.class).state("talk").getLastDecision();
			description.append("\n")
				.append(status)
				.append(" size ")
				.append(instance.talk.getMaxPoolSize())
				.append(" active ")
				.append(instance.talk.getActiveCount())
				.append(" last decision ")
				.append((decision != null) ? decision.reason() : null);
		}
		return description.toString();
	}

	private void load(ClusterInstance instance) {
		loop("load-" + this.threads.size(), 2, () -> {
			if (instance.alive.get() && instance.talk.getThreadPoolExecutor().getQueue().size() < 40) {
				for (int i = 0; i < 5; i++) {
					instance.call(this::callDownstream);
				}
			}
		});
	}

	private void callDownstream() {
		this.peak.accumulateAndGet(this.inFlight.incrementAndGet(), Math::max);
		try {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
		}
		finally {
			this.inFlight.decrementAndGet();
		}
	}

	private void loop(String name, long everyMillis, Runnable step) {
		Thread thread = new Thread(() -> {
			while (this.running.get()) {
				step.run();
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(everyMillis));
			}
		}, name);
		thread.setDaemon(true);
		thread.start();
		this.threads.add(thread);
	}

	private static double gauge(ClusterInstance instance, String name) {
		return instance.context.getBean(MeterRegistry.class).get(name).tag("name", "talk").gauge().value();
	}

}
