package io.github.poolpilot.tuning;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolExecutor;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.testsupport.FakeClock;
import io.github.poolpilot.tuning.Decision.Action;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Tuner} when a pool's executor refuses a resize: the failure is counted, the pool
 * keeps its size, no listener hears of a resize that did not happen, and the pool's
 * controller goes on from the size the pool really has.
 *
 * @author poolpilot authors
 */
class TunerFailedResizeTests {

	private final FakeClock clock = new FakeClock();

	private final PoolRegistry registry = new PoolRegistry(100);

	private final RefusingExecutor executor = new RefusingExecutor();

	private final ManagedPool pool = new ManagedPool("talk", this.executor, this.executor,
			PoolRecorder.builder().clock(this.clock).build(), new PoolBounds(1, 40));

	@Test
	void aResizeTheExecutorRefusesIsCountedAndThePoolKeepsItsSize() {
		this.registry.register(this.pool);
		Tuner tuner = new Tuner(this.registry, this.clock, () -> 0.1, (pool, decision) -> {
			throw new AssertionError("told of a resize that did not happen: " + decision.reason());
		});
		// Idle for ten windows: the tuner shrinks it to 1, which the executor refuses.
		for (int i = 0; i < PoolController.SHRINK_WINDOWS; i++) {
			this.clock.advanceMillis(1000);
			this.pool.takeSnapshot();
			tuner.tick();
		}
		assertThat(tuner.failedTicks()).isOne();
		assertThat(this.pool.maxPoolSize()).isEqualTo(20);
		assertThat(tuner.state("talk").getLastDecision().action()).isEqualTo(Action.HOLD);
		// Its controller knows the pool still has 20 threads: between windows it still
		// asks to give back what it does not need.
		Map<String, Decision> pulse = tuner.planPulse(List.of(new PoolPulse("talk", new PoolBounds(1, 40), 1,
				TuningMode.AUTO, 20, 20, 0, 0, 0, 0, this.clock.nanoTime())), this.registry.budget());
		assertThat(pulse.get("talk").action()).isEqualTo(Action.SHRINK);
		assertThat(pulse.get("talk").to()).isEqualTo(1);
	}

	/**
	 * An executor of 20 threads, all idle, that refuses to be resized.
	 */
	private static final class RefusingExecutor implements PoolExecutor, ManagedPool.SizeControl {

		@Override
		public void setCorePoolSize(int corePoolSize) {
			throw new IllegalStateException("this executor keeps its size");
		}

		@Override
		public void setMaximumPoolSize(int maxPoolSize) {
			throw new IllegalStateException("this executor keeps its size");
		}

		@Override
		public int getCorePoolSize() {
			return 20;
		}

		@Override
		public int getMaximumPoolSize() {
			return 20;
		}

		@Override
		public int getPoolSize() {
			return 0;
		}

		@Override
		public int getActiveCount() {
			return 0;
		}

		@Override
		public int getQueueSize() {
			return 0;
		}

		@Override
		public int getQueueCapacity() {
			return 50;
		}

		@Override
		public boolean isShutdown() {
			return false;
		}

	}

}
