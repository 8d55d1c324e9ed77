package io.github.poolpilot.metrics;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.poolpilot.execution.ManagedExecutor;
import io.github.poolpilot.measure.NanoClock;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.testsupport.TestPools;
import io.github.poolpilot.tuning.Tuner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link PoolMetrics}: the pools that join the registry after the meters were
 * bound, as a listener container's pool does when the container starts, and those that
 * leave it.
 *
 * @author poolpilot authors
 */
class PoolMetricsTests {

	@RegisterExtension
	final TestPools pools = new TestPools();

	private final PoolRegistry registry = new PoolRegistry(null);

	private final MeterRegistry meters = new SimpleMeterRegistry();

	@Test
	void aPoolThatJoinsLaterIsMeasuredAndAPoolThatLeavesIsNoLonger() throws Exception {
		ManagedExecutor early = this.pools.executor("early", new PoolBounds(1, 4), 4, 2);
		this.registry.register(early.getPool());
		new PoolMetrics(this.registry, tuner()).bindTo(this.meters);
		assertThat(this.meters.get("executor.tuning.target").tag("name", "early").gauge().value()).isEqualTo(2);
		ManagedExecutor late = this.pools.executor("orders", new PoolBounds(1, 4), 4, 3);
		assertThat(metersOf("orders")).isEmpty();
		this.registry.register(late.getPool());
		assertThat(this.meters.get("executor.tuning.target").tag("name", "orders").gauge().value()).isEqualTo(3);
		late.submit(() -> {
		}).get(10, TimeUnit.SECONDS);
		// Timed once it ended, which may be just after its future completed.
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(this.meters.get("executor.execution").tag("name", "orders").timer().count())
				.isEqualTo(1));
		this.registry.unregister(late.getPool());
		assertThat(metersOf("orders")).isEmpty();
		assertThat(metersOf("early")).isNotEmpty();
		// Registered again under its name, a new pool is measured afresh, not as the
		// one it replaces.
		ManagedExecutor restarted = this.pools.executor("orders", new PoolBounds(1, 4), 4, 1);
		this.registry.register(restarted.getPool());
		assertThat(this.meters.get("executor.tuning.target").tag("name", "orders").gauge().value()).isEqualTo(1);
		assertThat(this.meters.get("executor.execution").tag("name", "orders").timer().count()).isZero();
		assertThat(this.meters.get("executor.budget.max").gauge().value()).isEqualTo(8);
	}

	private List<Meter.Id> metersOf(String pool) {
		return this.meters.getMeters()
			.stream()
			.map(Meter::getId)
			.filter((id) -> pool.equals(id.getTag("name")))
			.toList();
	}

	private Tuner tuner() {
		return new Tuner(this.registry, NanoClock.SYSTEM, () -> -1, (pool, decision) -> {
		});
	}

}
