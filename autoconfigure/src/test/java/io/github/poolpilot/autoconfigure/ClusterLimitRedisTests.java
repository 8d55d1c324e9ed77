package io.github.poolpilot.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.MeterRegistry;

import io.github.poolpilot.actuate.ClusterHealthIndicator;
import io.github.poolpilot.actuate.ThreadPoolsDescriptor.ClusterDescriptor;
import io.github.poolpilot.actuate.ThreadPoolsEndpoint;
import io.github.poolpilot.cluster.ClusterCoordinator;
import io.github.poolpilot.cluster.ClusterState;
import io.github.poolpilot.cluster.ClusterStatus;
import io.github.poolpilot.tuning.Tuner;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.task.TaskRejectedException;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;
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

	private static final int LIMIT = 12;

	private static final Duration WINDOW = Duration.ofMillis(200);

	private static final int LEASE_HEARTBEATS = 5;

	private final AtomicInteger inFlight = new AtomicInteger();

	private final List<Integer> excess = new CopyOnWriteArrayList<>();

	private final AtomicBoolean running = new AtomicBoolean(true);

	private final List<Instance> instances = new ArrayList<>();

	private final List<Thread> threads = new ArrayList<>();

	private RedisServer redis;

	@AfterEach
	void stop() throws InterruptedException {
		this.running.set(false);
		for (Thread thread : this.threads) {
			thread.join(10_000);
		}
		this.instances.forEach((instance) -> instance.context.close());
		if (this.redis != null) {
			this.redis.close();
		}
	}

	@Test
	void theInstancesShareTheLimitThroughStopsAndRedisOutages() throws Exception {
		this.redis = RedisServer.start();
		String group = "cluster-test-" + System.nanoTime();
		for (int i = 0; i < 3; i++) {
			this.instances.add(new Instance(group, this.redis.port()));
		}
		Instance hot = this.instances.get(0);
		Instance second = this.instances.get(1);
		Instance third = this.instances.get(2);
		loop("in-flight-sampler", 100, () -> {
			int calls = this.inFlight.get();
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
		// Load on all three: each gets close to its guaranteed share.
		load(second);
		load(third);
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(this.instances).as(this::describe)
				.allMatch((instance) -> instance.status().lease() >= 3));
		// One instance stops renewing without releasing, as if killed: its share goes to
		// the others within the lease's time to live and a window (and some slack).
		third.kill();
		long killedAt = System.nanoTime();
		await().atMost(WINDOW.multipliedBy(LEASE_HEARTBEATS + 1).plusSeconds(3))
			.until(() -> hot.status().instances().size() == 2 && second.status().instances().size() == 2);
		Duration freedAfter = Duration.ofNanos(System.nanoTime() - killedAt);
		// Each survivor may now have half the limit, up to what it asks for.
		for (Instance survivor : List.of(hot, second)) {
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
		assertThat(hot.context.getBean(MeterRegistry.class)
			.get("executor.cluster.fallbacks")
			.tag("name", "talk")
			.counter()
			.count()).isGreaterThanOrEqualTo(1);
		await().atMost(Duration.ofSeconds(10))
			.until(() -> hot.status().lease() == LIMIT / 2 && second.status().lease() == LIMIT / 2);
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
		for (Instance instance : List.of(hot, second)) {
			await().atMost(Duration.ofSeconds(20)).until(() -> instance.completed.sum() == instance.accepted.sum());
		}
		assertThat(this.excess).as("samples of calls in flight above the limit of " + LIMIT).isEmpty();
	}

	private String describe() {
		StringBuilder description = new StringBuilder();
		for (Instance instance : this.instances) {
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

	private void load(Instance instance) {
		loop("load-" + this.threads.size(), 2, () -> {
			if (instance.alive.get() && instance.talk.getThreadPoolExecutor().getQueue().size() < 40) {
				for (int i = 0; i < 5; i++) {
					instance.call(this::callDownstream);
				}
			}
		});
	}

	private void callDownstream() {
		this.inFlight.incrementAndGet();
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

	/**
	 * One instance of the application.
	 */
	static final class Instance {

		private final ConfigurableApplicationContext context;

		private final ThreadPoolTaskExecutor talk;

		private final AtomicBoolean alive = new AtomicBoolean(true);

		private final LongAdder accepted = new LongAdder();

		private final LongAdder completed = new LongAdder();

		Instance(String group, int redisPort) {
			this.context = new SpringApplicationBuilder(ClusterApplication.class).web(WebApplicationType.NONE)
				.properties(Map.of("spring.application.name", group, "spring.data.redis.port", redisPort,
						"spring.data.redis.timeout", "300ms", "spring.main.banner-mode", "off",
						"spring.main.log-startup-info", false, "poolpilot.cluster.enabled", true,
						"poolpilot.measurement.window", WINDOW))
				.properties(Map.of("poolpilot.tuning.fast-path-interval", "50ms",
						"poolpilot.existing-executors.enabled", false, "poolpilot.cluster.lease-heartbeats",
						LEASE_HEARTBEATS, "spring.jmx.enabled", true, "spring.jmx.unique-names", true,
						"management.endpoints.jmx.exposure.include", "threadpools"))
				.properties(Map.of("poolpilot.pools.talk.min-threads", 4, "poolpilot.pools.talk.max-threads", 12,
						"poolpilot.pools.talk.queue-capacity", 200, "logging.level.io.lettuce.core", "off",
						"spring.data.redis.repositories.enabled", false, "poolpilot.pools.talk.cluster.max-threads",
						LIMIT))
				.run();
			this.talk = this.context.getBean("talk", ThreadPoolTaskExecutor.class);
		}

		void call(Runnable downstream) {
			try {
				this.talk.execute(() -> {
					try {
						downstream.run();
					}
					finally {
						this.completed.increment();
					}
				});
				this.accepted.increment();
			}
			catch (TaskRejectedException ex) {
				// Refused and told so: not lost.
			}
		}

		ClusterStatus status() {
			return this.context.getBean(ClusterCoordinator.class).lease("talk").status();
		}

		/**
		 * Stop renewing without releasing and stop serving, as a killed process.
		 */
		void kill() {
			this.alive.set(false);
			this.context.getBean(ClusterControlLoop.class).halt();
			this.talk.getThreadPoolExecutor().shutdownNow();
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class ClusterApplication {

	}

}
