package io.github.poolpilot.tuning;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.core.ManagedExecutor;
import io.github.poolpilot.core.ManagedPool;
import io.github.poolpilot.core.NanoClock;
import io.github.poolpilot.core.PoolBounds;
import io.github.poolpilot.core.PoolRegistry;
import io.github.poolpilot.core.TuningMode;
import io.github.poolpilot.tuning.PoolController.Decision;
import io.github.poolpilot.tuning.Tuner.PoolState;

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
		for (int i = 0; i < PoolController.SHRINK_WINDOWS; i++) {
			this.registry.pools().forEach(ManagedPool::takeSnapshot);
			tuner.tick();
		}
		assertThat(auto.getExecutor().getMaximumPoolSize()).isEqualTo(1);
		assertThat(auto.getExecutor().getCorePoolSize()).isEqualTo(1);
		assertThat(auto.getLastDecision()).isEqualTo("shrink 20→1: needed at most 0 in the last 10 windows");
		assertThat(this.resizes).containsExactly("auto shrink 20→1: needed at most 0 in the last 10 windows");
		assertThat(manual.getExecutor().getMaximumPoolSize()).isEqualTo(20);
		assertThat(tuner.failedTicks()).isZero();
	}

	@Test
	void aPoolGrowsIntoThreadsAnotherGaveBackOnlyOnceTheyEnded() {
		Tuner tuner = new Tuner(this.registry, NanoClock.SYSTEM, () -> 0.1, (pool, from, to, reason) -> {
		});
		PoolBounds bounds = new PoolBounds(1, 40);
		// 40 threads: "busy" needs 12 more, "idle" gives back 15 of its 20 but all 20 are
		// still running tasks.
		PoolState busy = new PoolState("busy", bounds, 1, TuningMode.AUTO, 20, 20,
				PoolControllerTests.window(600, 400, 50, 20, 100, null));
		PoolState idle = new PoolState("idle", bounds, 1, TuningMode.MANUAL, 5, 20, null);
		Map<String, Decision> plan = tuner.plan(List.of(busy, idle), 40, 0.1);
		assertThat(plan.get("busy").threads()).isEqualTo(20);
		assertThat(plan.get("busy").reason()).endsWith("(the budget allows 20)");
		PoolState ended = new PoolState("idle", bounds, 1, TuningMode.MANUAL, 5, 5, null);
		assertThat(tuner.plan(List.of(busy, ended), 40, 0.1).get("busy").threads()).isEqualTo(30);
	}

	@Test
	void aSaturatedPoolThatCannotHaveMoreThreadsIsMarkedLimited() {
		Tuner tuner = new Tuner(this.registry, NanoClock.SYSTEM, () -> 0.1, (pool, from, to, reason) -> {
		});
		PoolBounds bounds = new PoolBounds(1, 20);
		// Saturated at its max-threads; then saturated below it with room in the budget.
		PoolState atMax = new PoolState("full", bounds, 1, TuningMode.AUTO, 20, 20,
				PoolControllerTests.window(600, 400, 50, 20, 100, null));
		PoolState room = new PoolState("room", bounds, 1, TuningMode.AUTO, 8, 8,
				PoolControllerTests.window(300, 160, 50, 8, 100, null));
		Map<String, Decision> plan = tuner.plan(List.of(atMax, room), 100, 0.1);
		assertThat(plan.get("full").limited()).isTrue();
		assertThat(plan.get("full").reason()).isEqualTo("hold: saturated at max-threads 20");
		assertThat(plan.get("room").limited()).isFalse();
		assertThat(plan.get("room").threads()).isEqualTo(12);
		// The budget leaves no room: limited too.
		PoolState squeezed = new PoolState("room", bounds, 1, TuningMode.AUTO, 8, 8,
				PoolControllerTests.window(300, 160, 50, 8, 100, null));
		Tuner another = new Tuner(this.registry, NanoClock.SYSTEM, () -> 0.1, (pool, from, to, reason) -> {
		});
		Decision cut = another.plan(List.of(squeezed), 8, 0.1).get("room");
		assertThat(cut.threads()).isEqualTo(8);
		assertThat(cut.limited()).isTrue();
		assertThat(cut.reason()).endsWith("(the budget allows 8)");
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

	@Test
	void aFailingResizeListenerIsCountedAndTheOtherPoolsAreStillResized() {
		ManagedPool first = pool("first", TuningMode.AUTO);
		ManagedPool second = pool("second", TuningMode.AUTO);
		Tuner tuner = new Tuner(this.registry, NanoClock.SYSTEM, () -> 0.1, (pool, from, to, reason) -> {
			this.resizes.add(pool.getName());
			throw new IllegalStateException("audit log unavailable");
		});
		for (int i = 0; i < PoolController.SHRINK_WINDOWS; i++) {
			this.registry.pools().forEach(ManagedPool::takeSnapshot);
			tuner.tick();
		}
		assertThat(this.resizes).containsExactlyInAnyOrder("first", "second");
		assertThat(first.getExecutor().getMaximumPoolSize()).isEqualTo(1);
		assertThat(second.getExecutor().getMaximumPoolSize()).isEqualTo(1);
		assertThat(first.getLastDecision()).startsWith("shrink 20→1");
		assertThat(tuner.failedTicks()).isEqualTo(2);
	}

	private ManagedPool pool(String name, TuningMode mode) {
		ManagedExecutor executor = ManagedExecutor.builder(name, new PoolBounds(1, 40), 10).sizes(20, 20).build();
		this.executors.add(executor);
		executor.getPool().setTuningMode(mode);
		this.registry.register(executor.getPool());
		return executor.getPool();
	}

}
