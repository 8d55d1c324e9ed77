package io.github.poolpilot.tuning;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.poolpilot.budget.ThreadBudget;
import io.github.poolpilot.execution.ManagedExecutor;
import io.github.poolpilot.pool.InvalidPoolSizeException;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.testsupport.Blocking;
import io.github.poolpilot.testsupport.FakeClock;
import io.github.poolpilot.tuning.PoolState;
import io.github.poolpilot.testsupport.TestPools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link Tuner} under a pool's ceiling, such as its lease of a cluster-wide
 * limit: no path of the tuner takes a pool above it, whatever the budget leaves free.
 *
 * @author poolpilot authors
 */
class TunerCeilingTests {

	@RegisterExtension
	final TestPools pools = new TestPools();

	private final PoolRegistry registry = new PoolRegistry(100);

	@Test
	void neitherTheWindowNorThePulseThatHandsOverFreedThreadsPlansAPoolAboveItsCeiling() {
		Tuner tuner = new Tuner(this.registry, new FakeClock(), () -> 0.1, (pool, decision) -> {
		});
		PoolBounds bounds = new PoolBounds(1, 40);
		// "busy" needs 12 more than its 20 and the budget of 40 has them once "idle"'s
		// threads ended, but its ceiling is 24.
		PoolState busy = new PoolState("busy", bounds, 1, TuningMode.AUTO, 20, 20,
				PoolControllerTests.window(600, 400, 50, 20, 100, null), 24);
		PoolState idle = new PoolState("idle", bounds, 1, TuningMode.MANUAL, 5, 5, null);
		Decision window = tuner.plan(List.of(busy, idle), budget(40), 0.1).get("busy");
		assertThat(window.threads()).isEqualTo(24);
		Map<String, Decision> pulse = tuner
			.planPulse(List.of(new PoolPulse("busy", bounds, 1, TuningMode.AUTO, 24, 24, 24, 100, 1000, 800, 0, 24),
					new PoolPulse("idle", bounds, 1, TuningMode.MANUAL, 5, 5, 0, 0, 0, 0, 0)), budget(40));
		assertThat(pulse).doesNotContainKey("busy");
	}

	@Test
	void aSurgeOnARealPoolGrowsItOnlyToItsCeilingAndTheDoorRefusesMore() {
		FakeClock clock = new FakeClock();
		List<Decision> resized = new ArrayList<>();
		Tuner tuner = new Tuner(this.registry, clock, () -> 0.1, (pool, decision) -> resized.add(decision));
		ManagedExecutor executor = this.pools.executor("talk", new PoolBounds(1, 40), 100, 2);
		this.registry.register(executor.getPool());
		executor.getPool().setCeiling(3);
		executor.getPool().takeSnapshot();
		tuner.tick();
		tuner.pulse();
		CountDownLatch release = new CountDownLatch(1);
		for (int i = 0; i < 20; i++) {
			executor.execute(() -> Blocking.await(release));
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> executor.getActiveCount() == 2);
		clock.advanceMillis(100);
		tuner.pulse();
		// Without a ceiling the surge doubles the pool to 4.
		assertThat(executor.getMaximumPoolSize()).isEqualTo(3);
		assertThat(resized).singleElement().satisfies((decision) -> assertThat(decision.threads()).isEqualTo(3));
		for (int i = 0; i < 5; i++) {
			clock.advanceMillis(100);
			tuner.pulse();
			executor.getPool().takeSnapshot();
			tuner.tick();
		}
		assertThat(executor.getMaximumPoolSize()).isEqualTo(3);
		assertThat(tuner.failedTicks()).isZero();
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> executor.setMaximumPoolSize(4));
		assertThat(executor.getMaximumPoolSize()).isEqualTo(3);
		release.countDown();
	}

	private static ThreadBudget budget(int maxThreads) {
		return new ThreadBudget(maxThreads, List::of);
	}

}
