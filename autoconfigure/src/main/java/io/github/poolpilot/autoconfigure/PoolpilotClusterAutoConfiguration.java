package io.github.poolpilot.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;

import io.github.poolpilot.actuate.ClusterHealthIndicator;
import io.github.poolpilot.cluster.ClusterCoordinator;
import io.github.poolpilot.cluster.ClusterListener;
import io.github.poolpilot.cluster.InstanceDemand;
import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.measure.PoolSnapshot.Sizes;
import io.github.poolpilot.metrics.ClusterMetrics;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.redis.RedisClusterStore;
import io.github.poolpilot.tuning.Decision;
import io.github.poolpilot.tuning.Tuner;
import io.github.poolpilot.tuning.TuningMode;
import io.github.poolpilot.tuning.TuningState;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} for limits shared by the instances of an application through Redis
 * ({@code poolpilot.cluster.enabled=true}), over the application's own
 * {@link RedisConnectionFactory} as Spring Boot configures it.
 *
 * @author poolpilot authors
 */
@AutoConfiguration(after = PoolpilotAutoConfiguration.class,
		afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnBooleanProperty(name = "poolpilot.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty("poolpilot.cluster.enabled")
@EnableConfigurationProperties(PoolpilotClusterProperties.class)
public final class PoolpilotClusterAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ClusterControlLoop poolpilotClusterControlLoop(ClusterCoordinator coordinator, PoolRegistry registry,
			PoolpilotProperties properties, PoolpilotClusterProperties cluster) {
		Map<String, PoolProperties.Cluster> limits = new LinkedHashMap<>();
		properties.getPools().forEach((name, pool) -> limits.put(name, pool.getCluster()));
		return new ClusterControlLoop(coordinator, registry, limits, properties.getMeasurement().getWindow(),
				cluster.getLeaseHeartbeats());
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingClass("org.springframework.data.redis.core.StringRedisTemplate")
	static class MissingRedisConfiguration {

		@Bean
		ClusterCoordinator poolpilotClusterCoordinator() {
			throw new InvalidPoolpilotPropertyException("poolpilot.cluster.enabled", true,
					"needs Spring Data Redis: add spring-boot-starter-data-redis and configure spring.data.redis.* "
							+ "(or leave clustering off)");
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ StringRedisTemplate.class, RedisConnectionFactory.class })
	static class RedisClusterConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ClusterCoordinator poolpilotClusterCoordinator(PoolpilotClusterProperties cluster,
				PoolpilotProperties properties, Environment environment,
				ObjectProvider<RedisConnectionFactory> connectionFactory, Tuner tuner,
				ObjectProvider<ClusterListener> listeners) {
			String group = ClusterPropertiesValidator.validate(cluster,
					environment.getProperty("spring.application.name"), properties.getPools());
			RedisConnectionFactory redis = connectionFactory.getIfAvailable();
			if (redis == null) {
				throw new InvalidPoolpilotPropertyException("poolpilot.cluster.enabled", true,
						"needs a RedisConnectionFactory: add spring-boot-starter-data-redis and configure "
								+ "spring.data.redis.* (or leave clustering off)");
			}
			StringRedisTemplate template = new StringRedisTemplate(redis);
			return new ClusterCoordinator(UUID.randomUUID().toString(), new RedisClusterStore(template, group),
					(pool) -> demand(pool, tuner), new ClusterEventLog(group, listeners.orderedStream().toList()));
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ HealthIndicator.class, Endpoint.class })
	static class ClusterHealthConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "poolpilotClusterHealthIndicator")
		ClusterHealthIndicator poolpilotClusterHealthIndicator(ClusterCoordinator coordinator) {
			return new ClusterHealthIndicator(coordinator);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	static class ClusterMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ClusterMetrics poolpilotClusterMetrics(ObjectProvider<ClusterCoordinator> coordinator) {
			return new ClusterMetrics(coordinator::getObject);
		}

	}

	/**
	 * What a pool asks of its cluster-wide limit: the size its tuner wants now, even
	 * where its lease or the budget held it back (a pool out of the tuner's hands: its
	 * size); and of those, what its load needs: all of them while tasks wait in its
	 * queue, else the threads busy now or in the last window, so that an idle instance
	 * lends its share.
	 */
	static InstanceDemand demand(ManagedPool pool, Tuner tuner) {
		TuningState state = tuner.state(pool.getName());
		Decision decision = state.getLastDecision();
		int threads = (state.getMode() != TuningMode.AUTO || decision == null) ? pool.maxPoolSize()
				: Math.max(decision.threads(), decision.needed());
		Sizes sizes = pool.sizes();
		if (sizes.queueSize() > 0) {
			return new InstanceDemand(threads, threads);
		}
		PoolSnapshot snapshot = pool.lastSnapshot();
		int busy = (snapshot != null) ? (int) Math.ceil(snapshot.littlesLaw().busyThreads()) : threads;
		return new InstanceDemand(threads, Math.min(threads, Math.max(sizes.activeCount(), busy)));
	}

}
