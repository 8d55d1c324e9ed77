package io.github.poolpilot.tuning;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.testsupport.FakeClock;
import io.github.poolpilot.testsupport.SizedExecutor;
import io.github.poolpilot.tuning.Decision.Action;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Tuner} on pools whose executors only hold their sizes and whose recorders are
 * told what their tasks did, on a fake clock: what a tick and a pulse read and the order
 * in which they resize.
 *
 * @author poolpilot authors
 */
class TunerOnRecordedPoolsTests {

	private final FakeClock clock = new FakeClock();

	private final List<String> resizes = new ArrayList<>();

	@Test
	void aPoolThatShrinksInATickGivesItsThreadsToOneThatGrowsInTheSameTick() {
		// 24 threads: "idle" has 20 and needs none, "busy" has 4 and needs more.
		PoolRegistry registry = new PoolRegistry(24);
		Pool idle = new Pool("idle", 20);
		Pool busy = new Pool("busy", 4);
		registry.register(idle.pool);
		registry.register(busy.pool);
		Tuner tuner = new Tuner(registry, this.clock, () -> 0.1, (pool, decision) -> this.resizes
			.add(pool.getName() + " " + decision.action() + " " + decision.from() + "→" + decision.to()));
		for (int i = 1; i < PoolController.SHRINK_WINDOWS; i++) {
			window(idle, busy, 0);
			tuner.tick();
		}
		assertThat(this.resizes).isEmpty();
		// The tenth window: "idle" shrinks to 1, and "busy" is saturated (100 tasks of
		// 40 ms a second keep its 4 threads busy, 50 queued, 120 offered).
		busy.executor.active = 4;
		busy.executor.queued = 50;
		window(idle, busy, 120);
		tuner.tick();
		assertThat(tuner.failedTicks()).isZero();
		assertThat(this.resizes).containsExactly("idle SHRINK 20→1", "busy GROW 4→6");
		assertThat(busy.executor.max).isEqualTo(6);
	}

	@Test
	void tasksThatFailedCountAsServedBetweenWindows() {
		PoolRegistry registry = new PoolRegistry(100);
		Pool pool = new Pool("talk", 4);
		registry.register(pool.pool);
		Tuner tuner = new Tuner(registry, this.clock, () -> 0.1, (managed, decision) -> this.resizes
			.add(decision.action() + " " + decision.from() + "→" + decision.to()));
		// 10 tasks of 100 ms a second: the pool keeps up.
		this.clock.advanceMillis(1000);
		pool.served(10, 10, 0, 100);
		pool.pool.takeSnapshot();
		tuner.tick();
		tuner.pulse();
		// 40 offered in 100 ms while every thread is busy and tasks queue, but as many
		// ended, half of them failing: a pool that keeps up, not a surge.
		pool.executor.active = 4;
		pool.executor.queued = 10;
		this.clock.advanceMillis(100);
		pool.served(40, 20, 20, 100);
		tuner.pulse();
		assertThat(this.resizes).isEmpty();
		assertThat(pool.executor.max).isEqualTo(4);
		// The same with none ending is a surge.
		this.clock.advanceMillis(100);
		pool.served(40, 0, 0, 100);
		tuner.pulse();
		assertThat(this.resizes).singleElement().asString().startsWith(Action.GROW + " 4→");
	}

	@Test
	void aHoldForAnotherReasonIsTheNewLastDecisionAndOneForTheSameReasonKeepsTheFirst() {
		PoolRegistry registry = new PoolRegistry(100);
		Pool pool = new Pool("talk", 4);
		registry.register(pool.pool);
		Tuner tuner = new Tuner(registry, this.clock, () -> 0.1, (managed, decision) -> {
		});
		this.clock.advanceMillis(1000);
		pool.pool.takeSnapshot();
		tuner.tick();
		Decision idle = tuner.state("talk").getLastDecision();
		assertThat(idle.action()).isEqualTo(Action.HOLD);
		// 10 tasks of 100 ms a second: still held, now for its load.
		this.clock.advanceMillis(1000);
		pool.served(10, 10, 0, 100);
		pool.pool.takeSnapshot();
		tuner.tick();
		Decision busy = tuner.state("talk").getLastDecision();
		assertThat(busy.action()).isEqualTo(Action.HOLD);
		assertThat(busy.reason()).isNotEqualTo(idle.reason());
		this.clock.advanceMillis(1000);
		pool.served(10, 10, 0, 100);
		pool.pool.takeSnapshot();
		tuner.tick();
		assertThat(tuner.state("talk").getLastDecision()).isSameAs(busy);
	}

	/**
	 * Close a window of a second on both pools: "busy" served 100 tasks of 40 ms and was
	 * offered {@code busyArrivals}; "idle" nothing.
	 */
	private void window(Pool idle, Pool busy, int busyArrivals) {
		this.clock.advanceMillis(1000);
		busy.served(busyArrivals, (busyArrivals > 0) ? 100 : 0, 0, 40);
		idle.pool.takeSnapshot();
		busy.pool.takeSnapshot();
	}

	/**
	 * A pool whose executor only holds its sizes and whose recorder is told what its
	 * tasks did.
	 */
	private final class Pool {

		final SizedExecutor executor;

		final PoolRecorder recorder = PoolRecorder.builder().clock(TunerOnRecordedPoolsTests.this.clock).build();

		final ManagedPool pool;

		Pool(String name, int size) {
			this.executor = new SizedExecutor(size, 100);
			this.pool = new ManagedPool(name, this.executor, this.executor, this.recorder, new PoolBounds(1, 40));
		}

		/**
		 * Record tasks offered, and tasks that ended now after running for
		 * {@code serviceMs}, some of them failing.
		 */
		void served(int arrivals, int completed, int failed, long serviceMs) {
			for (int i = 0; i < arrivals; i++) {
				this.recorder.taskSubmitted();
			}
			long startedAt = this.recorder.now() - serviceMs * 1_000_000;
			for (int i = 0; i < completed + failed; i++) {
				this.recorder.timedTaskFinished(startedAt, startedAt, -1, i >= completed);
			}
		}

	}

}
