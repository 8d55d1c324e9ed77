package io.github.poolpilot.tuning;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.core.ManagedExecutor;
import io.github.poolpilot.core.ManagedPool;
import io.github.poolpilot.core.NanoClock;
import io.github.poolpilot.core.PoolBounds;
import io.github.poolpilot.core.PoolRegistry;
import io.github.poolpilot.core.TuningMode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Tuner} on real pools with idle windows.
 *
 * @author poolpilot authors
 */
class TunerTests {

	private final List<ManagedExecutor> executors = new ArrayList<>();

	private final List<String> resizes = new ArrayList<>();

	private final PoolRegistry registry = new PoolRegistry(100);

	@AfterEach
	void shutDown() throws InterruptedException {
		for (ManagedExecutor executor : this.executors) {
			executor.shutdownNow();
			executor.awaitTermination(10, TimeUnit.SECONDS);
		}
	}

	@Test
	void anIdlePoolInAutoModeShrinksAndOneInManualModeIsLeftAlone() {
		ManagedPool auto = pool("auto", TuningMode.AUTO);
		ManagedPool manual = pool("manual", TuningMode.MANUAL);
		Tuner tuner = new Tuner(this.registry, NanoClock.SYSTEM, () -> 0.1,
				(pool, from, to, reason) -> this.resizes.add(pool.getName() + " " + reason));
		for (int i = 0; i < 3; i++) {
			this.registry.pools().forEach(ManagedPool::takeSnapshot);
			tuner.tick();
		}
		assertThat(auto.getExecutor().getMaximumPoolSize()).isEqualTo(15);
		assertThat(auto.getExecutor().getCorePoolSize()).isEqualTo(15);
		assertThat(auto.getLastDecision()).startsWith("shrink 20→15: idle");
		assertThat(this.resizes).singleElement().asString().startsWith("auto shrink 20→15: idle");
		assertThat(manual.getExecutor().getMaximumPoolSize()).isEqualTo(20);
		assertThat(tuner.failedTicks()).isZero();
	}

	@Test
	void aFailingTickIsCountedAndThePoolsKeepTheirSizes() {
		ManagedPool auto = pool("auto", TuningMode.AUTO);
		Tuner tuner = new Tuner(this.registry, NanoClock.SYSTEM, () -> {
			throw new IllegalStateException("no CPU figure");
		}, (pool, from, to, reason) -> this.resizes.add(reason));
		auto.takeSnapshot();
		tuner.tick();
		assertThat(tuner.failedTicks()).isEqualTo(1);
		assertThat(auto.getExecutor().getMaximumPoolSize()).isEqualTo(20);
		assertThat(this.resizes).isEmpty();
	}

	private ManagedPool pool(String name, TuningMode mode) {
		ManagedExecutor executor = ManagedExecutor.builder(name, new PoolBounds(1, 40), 10).sizes(20, 20).build();
		this.executors.add(executor);
		executor.getPool().setTuningMode(mode);
		this.registry.register(executor.getPool());
		return executor.getPool();
	}

}
