package io.github.poolpilot.tuning;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.budget.ThreadBudget;
import io.github.poolpilot.budget.ThreadBudget.Cut;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolExecutor;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.testsupport.FakeClock;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.AtMaxThreads;
import io.github.poolpilot.tuning.Decision.Cause.BudgetExceeded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for what the {@link Tuner} keeps per pool: its mode as tuning is switched off and
 * on, its last decision and whether it is limited, on pools whose windows a fake clock
 * makes.
 *
 * @author poolpilot authors
 */
class TunerSwitchesTests {

	private final FakeClock clock = new FakeClock();

	private final PoolRegistry registry = new PoolRegistry(100);

	private final List<String> resized = new ArrayList<>();

	private final Tuner tuner = new Tuner(this.registry, this.clock, () -> 0.1,
			(pool, decision) -> this.resized.add(pool.getName()));

	@Test
	void switchingTuningOffTurnsAutoPoolsOffAndSwitchingItOnTurnsThemBack() {
		assertThat(this.tuner.isEnabled()).isTrue();
		assertThat(this.tuner.state("auto").getMode()).isEqualTo(TuningMode.AUTO);
		this.tuner.setMode("manual", TuningMode.MANUAL);
		this.tuner.setEnabled(false);
		assertThat(this.tuner.isEnabled()).isFalse();
		assertThat(this.tuner.state("auto").getMode()).isEqualTo(TuningMode.OFF);
		assertThat(this.tuner.state("manual").getMode()).isEqualTo(TuningMode.MANUAL);
		assertThat(this.tuner.state("new").getMode()).isEqualTo(TuningMode.OFF);
		assertThatIllegalStateException().isThrownBy(() -> this.tuner.setMode("manual", TuningMode.AUTO))
			.withMessage("Self-tuning is off (poolpilot.tuning.enabled=false)");
		assertThat(this.tuner.state("manual").getMode()).isEqualTo(TuningMode.MANUAL);
		this.tuner.setMode("auto", TuningMode.MANUAL);
		assertThat(this.tuner.state("auto").getMode()).isEqualTo(TuningMode.MANUAL);
		this.tuner.setEnabled(true);
		assertThat(this.tuner.state("new").getMode()).isEqualTo(TuningMode.AUTO);
		assertThat(this.tuner.state("manual").getMode()).isEqualTo(TuningMode.MANUAL);
		this.tuner.setMode("manual", TuningMode.AUTO);
		assertThat(this.tuner.state("manual").getMode()).isEqualTo(TuningMode.AUTO);
	}

	@Test
	void theCutsThatFitThePoolsToTheBudgetAreTheirDecisions() {
		this.tuner.record(new ThreadBudget.Fit(List.of(new Cut("talk", 50, 30, 40)), 0, 40));
		Decision decision = this.tuner.state("talk").getLastDecision();
		assertThat(decision.action()).isEqualTo(Action.SHRINK);
		assertThat(decision.from()).isEqualTo(50);
		assertThat(decision.to()).isEqualTo(30);
		assertThat(decision.cause()).isEqualTo(new BudgetExceeded(40));
		assertThat(this.tuner.state("other").getLastDecision()).isNull();
		Decision manual = decision;
		this.tuner.record("other", manual);
		assertThat(this.tuner.state("other").getLastDecision()).isSameAs(manual);
	}

	@Test
	void aSaturatedPoolAtItsMaxThreadsIsHeldLimitedUntilItLeavesAutoMode() {
		SaturatedExecutor executor = new SaturatedExecutor(2);
		PoolRecorder recorder = PoolRecorder.builder().clock(this.clock).build();
		ManagedPool pool = new ManagedPool("full", executor, executor, recorder, new PoolBounds(1, 2));
		this.registry.register(pool);
		// 100 arrivals in a second, 20 of 100 ms served by 2 busy threads, 10 queued.
		for (int i = 0; i < 100; i++) {
			recorder.taskSubmitted();
		}
		this.clock.advanceMillis(1000);
		for (int i = 0; i < 20; i++) {
			long now = recorder.now();
			recorder.timedTaskFinished(now - 200_000_000, now - 100_000_000, recorder.cpuSampleStart(), false);
		}
		pool.takeSnapshot();
		this.tuner.tick();
		TuningState state = this.tuner.state("full");
		assertThat(state.isLimited()).isTrue();
		assertThat(state.getLastDecision().action()).isEqualTo(Action.HOLD);
		assertThat(state.getLastDecision().cause()).isEqualTo(new AtMaxThreads(2));
		assertThat(this.resized).isEmpty();
		assertThat(this.tuner.failedTicks()).isZero();
		this.tuner.setMode("full", TuningMode.MANUAL);
		this.tuner.tick();
		assertThat(state.isLimited()).isFalse();
	}

	/**
	 * An executor every one of whose threads is busy, with tasks queued.
	 */
	private static final class SaturatedExecutor implements PoolExecutor, ManagedPool.SizeControl {

		private int size;

		SaturatedExecutor(int size) {
			this.size = size;
		}

		@Override
		public void setCorePoolSize(int corePoolSize) {
		}

		@Override
		public void setMaximumPoolSize(int maxPoolSize) {
			this.size = maxPoolSize;
		}

		@Override
		public int getCorePoolSize() {
			return this.size;
		}

		@Override
		public int getMaximumPoolSize() {
			return this.size;
		}

		@Override
		public int getPoolSize() {
			return this.size;
		}

		@Override
		public int getActiveCount() {
			return this.size;
		}

		@Override
		public int getQueueSize() {
			return 10;
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
