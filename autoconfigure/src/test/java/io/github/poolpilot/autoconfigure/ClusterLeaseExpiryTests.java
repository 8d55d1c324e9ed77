package io.github.poolpilot.autoconfigure;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.cluster.ClusterState;
import io.github.poolpilot.cluster.ClusterStatus;
import io.github.poolpilot.cluster.ClusterStore.Exchange;
import io.github.poolpilot.cluster.ClusterStore.Publication;
import io.github.poolpilot.cluster.InstanceDemand;
import io.github.poolpilot.redis.RedisClusterStore;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An instance cut off from Redis while another reaches it stops relying on its lease
 * before the other can take it, however its checks of the lease fall, on a
 * {@code redis-server} of the test's own: the instance is cut off by taking its Redis
 * user's permissions away.
 *
 * @author poolpilot authors
 */
class ClusterLeaseExpiryTests {

	private static final Duration WINDOW = Duration.ofMillis(800);

	private static final long TTL_MILLIS = WINDOW.toMillis() * 2;

	private RedisServer redis;

	private LettuceConnectionFactory connections;

	private ClusterInstance instance;

	@AfterEach
	void stop() throws InterruptedException {
		if (this.instance != null) {
			this.instance.context.close();
		}
		if (this.connections != null) {
			this.connections.destroy();
		}
		if (this.redis != null) {
			this.redis.close();
		}
	}

	@Test
	void anInstanceCutOffFallsBackBeforeTheOthersCanTakeItsLease() throws Exception {
		this.redis = RedisServer.start();
		this.connections = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", this.redis.port()));
		this.connections.afterPropertiesSet();
		this.connections.start();
		StringRedisTemplate template = new StringRedisTemplate(this.connections);
		acl(template, "on", ">secret", "~*", "+@all");
		RedisClusterStore other = new RedisClusterStore(template, "expiry");
		other.exchange("talk", publication());
		this.instance = new ClusterInstance("expiry", this.redis.port(),
				Map.of("poolpilot.measurement.window", WINDOW, "poolpilot.cluster.lease-heartbeats", 2,
						"spring.data.redis.username", "a", "spring.data.redis.password", "secret"));
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			other.exchange("talk", publication());
			ClusterStatus status = this.instance.status();
			assertThat(status.state()).isEqualTo(ClusterState.OK);
			assertThat(status.instances()).hasSize(2);
		});
		String id = this.instance.status().instances().get(0).id();
		acl(template, "-@all");
		AtomicReference<ClusterStatus> whenTaken = new AtomicReference<>();
		await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(1)).until(() -> {
			Exchange exchange = other.exchange("talk", publication());
			if (exchange.others().stream().anyMatch((entry) -> entry.id().equals(id))) {
				return false;
			}
			whenTaken.set(this.instance.status());
			return true;
		});
		assertThat(whenTaken.get().fallback()).as("fell back when the other could take its lease").isTrue();
	}

	private static void acl(StringRedisTemplate template, String... rules) {
		template.execute((RedisCallback<Object>) (connection) -> {
			byte[][] args = new byte[rules.length + 2][];
			args[0] = "SETUSER".getBytes();
			args[1] = "a".getBytes();
			for (int i = 0; i < rules.length; i++) {
				args[i + 2] = rules[i].getBytes();
			}
			return connection.execute("ACL", args);
		});
	}

	private static Publication publication() {
		return new Publication("other", new InstanceDemand(1, 1), 1, 1, TTL_MILLIS, ClusterInstance.LIMIT);
	}

}
