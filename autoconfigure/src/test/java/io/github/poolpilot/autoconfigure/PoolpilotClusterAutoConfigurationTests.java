package io.github.poolpilot.autoconfigure;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.cluster.ClusterCoordinator;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link PoolpilotClusterAutoConfiguration}: when it applies and how it refuses
 * bad cluster keys. No Redis is needed: a refused configuration never reaches it.
 *
 * @author poolpilot authors
 */
class PoolpilotClusterAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(PoolpilotAutoConfiguration.class, PoolpilotClusterAutoConfiguration.class))
		.withPropertyValues("poolpilot.existing-executors.enabled=false", "poolpilot.pools.talk.max-threads=20");

	@Test
	void clusteringIsOffUnlessEnabled() {
		this.runner.withPropertyValues("poolpilot.pools.talk.cluster.max-threads=60")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ClusterCoordinator.class));
	}

	@Test
	void aClusterNeedsSpringDataRedis() {
		this.runner.withClassLoader(new FilteredClassLoader(StringRedisTemplate.class))
			.withPropertyValues("poolpilot.cluster.enabled=true", "spring.application.name=shop",
					"poolpilot.pools.talk.cluster.max-threads=60")
			.run((context) -> assertRefused(context, "poolpilot.cluster.enabled", "needs Spring Data Redis"));
	}

	@Test
	void aClusterNeedsARedisConnectionFactory() {
		assertRefused("poolpilot.cluster.enabled", "needs a RedisConnectionFactory", "poolpilot.cluster.enabled=true",
				"spring.application.name=shop", "poolpilot.pools.talk.cluster.max-threads=60");
	}

	@Test
	void aClusterNeedsAGroup() {
		assertRefused("poolpilot.cluster.group", "set poolpilot.cluster.group or spring.application.name",
				"poolpilot.cluster.enabled=true", "poolpilot.pools.talk.cluster.max-threads=60");
	}

	@Test
	void aClusterNeedsAPoolWithAClusterLimit() {
		assertRefused("poolpilot.cluster.enabled", "poolpilot.pools.<name>.cluster.max-threads",
				"poolpilot.cluster.enabled=true", "spring.application.name=shop");
	}

	@Test
	void aLeaseLivesAtLeastTwoHeartbeats() {
		assertRefused("poolpilot.cluster.lease-heartbeats", "must be at least 2", "poolpilot.cluster.enabled=true",
				"spring.application.name=shop", "poolpilot.cluster.lease-heartbeats=1",
				"poolpilot.pools.talk.cluster.max-threads=60");
	}

	@Test
	void aClusterLimitIsAtLeastOne() {
		assertRefused("poolpilot.pools.talk.cluster.max-threads", "must be at least 1",
				"poolpilot.pools.talk.cluster.max-threads=0");
	}

	@Test
	void aLocalShareIsWithinTheClusterLimit() {
		assertRefused("poolpilot.pools.talk.cluster.local-share", "between 1 and",
				"poolpilot.pools.talk.cluster.max-threads=60", "poolpilot.pools.talk.cluster.local-share=61");
	}

	@Test
	void aLocalShareNeedsAClusterLimit() {
		assertRefused("poolpilot.pools.talk.cluster.local-share", "needs poolpilot.pools.talk.cluster.max-threads",
				"poolpilot.pools.talk.cluster.local-share=5");
	}

	private void assertRefused(String key, String allowed, String... properties) {
		this.runner.withPropertyValues(properties).run((context) -> assertRefused(context, key, allowed));
	}

	private static void assertRefused(AssertableApplicationContext context, String key, String allowed) {
		assertThat(context).hasFailed();
		FailureAnalysis analysis = new InvalidPoolpilotPropertyFailureAnalyzer().analyze(context.getStartupFailure());
		assertThat(analysis).isNotNull();
		assertThat(analysis.getDescription()).contains("'" + key + "'");
		assertThat(analysis.getDescription() + analysis.getAction()).contains(allowed);
	}

}
