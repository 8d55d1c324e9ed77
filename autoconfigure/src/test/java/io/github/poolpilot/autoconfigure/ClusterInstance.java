package io.github.poolpilot.autoconfigure;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import io.github.poolpilot.cluster.ClusterCoordinator;
import io.github.poolpilot.cluster.ClusterStatus;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.task.TaskRejectedException;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

/**
 * One instance of an application whose pool {@code talk} shares a cluster-wide limit of
 * {@value #LIMIT} through a Redis server of the test's own: a context of its own with its
 * own Redis client, a window of 200 ms and a lease of {@value #LEASE_HEARTBEATS} windows.
 *
 * @author poolpilot authors
 */
final class ClusterInstance {

	static final int LIMIT = 12;

	static final Duration WINDOW = Duration.ofMillis(200);

	static final int LEASE_HEARTBEATS = 5;

	final ConfigurableApplicationContext context;

	final ThreadPoolTaskExecutor talk;

	final AtomicBoolean alive = new AtomicBoolean(true);

	final LongAdder accepted = new LongAdder();

	final LongAdder completed = new LongAdder();

	/**
	 * Start an instance.
	 * @param group the cluster group
	 * @param redisPort the port of the test's Redis
	 * @param overrides properties that replace the defaults here
	 */
	ClusterInstance(String group, int redisPort, Map<String, Object> overrides) {
		this(new SpringApplicationBuilder(ClusterApplication.class).web(WebApplicationType.NONE), group, redisPort,
				overrides);
	}

	/**
	 * Start an instance as the given builder builds it.
	 * @param application the application's builder
	 * @param group the cluster group
	 * @param redisPort the port of the test's Redis
	 * @param overrides properties that replace the defaults here
	 */
	ClusterInstance(SpringApplicationBuilder application, String group, int redisPort, Map<String, Object> overrides) {
		Map<String, Object> properties = new HashMap<>();
		properties.putAll(Map.of("spring.application.name", group, "spring.data.redis.port", redisPort,
				"spring.data.redis.timeout", "300ms", "spring.main.banner-mode", "off", "spring.main.log-startup-info",
				false, "poolpilot.cluster.enabled", true, "poolpilot.measurement.window", WINDOW));
		properties.putAll(Map.of("poolpilot.tuning.fast-path-interval", "50ms", "poolpilot.existing-executors.enabled",
				false, "poolpilot.cluster.lease-heartbeats", LEASE_HEARTBEATS, "spring.jmx.enabled", true,
				"spring.jmx.unique-names", true, "management.endpoints.jmx.exposure.include", "threadpools"));
		properties.putAll(Map.of("poolpilot.pools.talk.min-threads", 4, "poolpilot.pools.talk.max-threads", 12,
				"poolpilot.pools.talk.queue-capacity", 200, "logging.level.io.lettuce.core", "off",
				"spring.data.redis.repositories.enabled", false, "poolpilot.pools.talk.cluster.max-threads", LIMIT));
		properties.putAll(overrides);
		this.context = application.properties(properties).run();
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

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class ClusterApplication {

	}

}
