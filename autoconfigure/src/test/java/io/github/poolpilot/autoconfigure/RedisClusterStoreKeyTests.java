package io.github.poolpilot.autoconfigure;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.cluster.ClusterStore.Exchange;
import io.github.poolpilot.cluster.ClusterStore.Publication;
import io.github.poolpilot.cluster.InstanceDemand;
import io.github.poolpilot.redis.RedisClusterStore;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the keys of {@link RedisClusterStore}, on a {@code redis-server} of the
 * test's own.
 *
 * @author poolpilot authors
 */
class RedisClusterStoreKeyTests {

	private RedisServer redis;

	private LettuceConnectionFactory connections;

	@AfterEach
	void stop() throws InterruptedException {
		if (this.connections != null) {
			this.connections.destroy();
		}
		if (this.redis != null) {
			this.redis.close();
		}
	}

	@Test
	void groupsWhoseNamesRunIntoTheirPoolsNamesDoNotShareALimit() throws Exception {
		this.redis = RedisServer.start();
		this.connections = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", this.redis.port()));
		this.connections.afterPropertiesSet();
		this.connections.start();
		StringRedisTemplate template = new StringRedisTemplate(this.connections);
		// "poolpilot:cluster:" + "shop" + ":" + "eu:talk" is "poolpilot:cluster:" +
		// "shop:eu" + ":" + "talk"
		RedisClusterStore shop = new RedisClusterStore(template, "shop");
		RedisClusterStore shopEu = new RedisClusterStore(template, "shop:eu");
		Exchange first = shop.exchange("eu:talk", publication("a", 4));
		Exchange second = shopEu.exchange("talk", publication("b", 4));
		assertThat(first.granted()).isEqualTo(4);
		assertThat(second.granted()).isEqualTo(4);
		assertThat(second.others()).isEmpty();
	}

	private static Publication publication(String instanceId, int threads) {
		return new Publication(instanceId, new InstanceDemand(threads, threads), threads, 1, 10_000, 4);
	}

}
