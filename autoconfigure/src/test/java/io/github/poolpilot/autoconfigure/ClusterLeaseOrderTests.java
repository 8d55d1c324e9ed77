package io.github.poolpilot.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.autoconfigure.ClusterInstance.ClusterApplication;
import io.github.poolpilot.cluster.ClusterCoordinator;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that a clustered pool holds its lease of the cluster-wide limit before the
 * embedded web server serves its first request, against a Redis server of the test's own.
 *
 * @author poolpilot authors
 */
class ClusterLeaseOrderTests {

	@Test
	void aClusteredPoolHoldsItsLeaseBeforeTheWebServerServes() throws Exception {
		LeaseWhenServing leaseWhenServing = new LeaseWhenServing();
		try (RedisServer redis = RedisServer.start()) {
			SpringApplicationBuilder application = new SpringApplicationBuilder(ClusterApplication.class)
				.web(WebApplicationType.SERVLET)
				.listeners(leaseWhenServing);
			ClusterInstance instance = new ClusterInstance(application, "cluster-order-" + System.nanoTime(),
					redis.port(), Map.of("server.port", 0));
			try {
				assertThat(leaseWhenServing.leased).containsExactly(true);
				assertThat(instance.status().lease()).isPositive();
			}
			finally {
				instance.context.close();
			}
		}
	}

	/**
	 * Whether the pool held its lease when the web server started serving.
	 */
	static class LeaseWhenServing implements ApplicationListener<WebServerInitializedEvent> {

		final List<Boolean> leased = new ArrayList<>();

		@Override
		public void onApplicationEvent(WebServerInitializedEvent event) {
			ClusterCoordinator coordinator = event.getApplicationContext().getBean(ClusterCoordinator.class);
			this.leased.add(coordinator.lease("talk") != null);
		}

	}

}
