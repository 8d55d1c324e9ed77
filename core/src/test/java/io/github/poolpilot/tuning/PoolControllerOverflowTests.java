package io.github.poolpilot.tuning;

import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.measure.NanoClock;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.pool.QueueOverflow;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.QueueFull;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for what a pool's controller lets it reach for tasks that find its queue full
 * ({@link PoolController#overflowAllowed}), and how it takes the threads the pool added
 * ({@link PoolController#overflowed}), on a clock of the test's own.
 *
 * @author poolpilot authors
 */
class PoolControllerOverflowTests {

	private static final PoolBounds BOUNDS = new PoolBounds(1, 64);

	private final AtomicLong nanos = new AtomicLong();

	private final NanoClock clock = this.nanos::get;

	private final PoolController controller = new PoolController(this.clock);

	@Test
	void aPoolMayReachHalfAgainTheSizeItsWindowDecided() {
		// 10/s of 100 ms at 20 threads: nothing to change, nothing to judge.
		hold(20);
		assertThat(this.controller.overflowAllowed(20, BOUNDS)).isEqualTo(30);
		assertThat(this.controller.overflowAllowed(20, new PoolBounds(1, 24))).isEqualTo(24);
	}

	@Test
	void aKneeSeenCapsItHalfBeyondTheKnee() {
		decide(600, 300, 20, 6, 500);
		this.controller.applied(9);
		// +33 % throughput for +50 % threads: the knee is near 8, half beyond it 12.
		decide(600, 400, 22.5, 9, 500);
		this.controller.applied(12);
		// The queue drained: the step is kept, and the knee still caps the pool.
		decide(600, 400, 22.5, 12, 0);
		this.controller.applied(12);
		assertThat(this.controller.overflowAllowed(12, BOUNDS)).isEqualTo(12);
	}

	@Test
	void nothingIsAddedWhileAStepWaitsToBeJudged() {
		Decision grow = decide(600, 300, 20, 6, 500);
		assertThat(grow.threads()).isEqualTo(9);
		this.controller.applied(9);
		assertThat(this.controller.overflowAllowed(9, BOUNDS)).isEqualTo(9);
	}

	@Test
	void threadsAddedWithinWhatWasAllowedAreTheControllersOneDecisionOfTheWindow() {
		hold(20);
		this.controller.overflowAllowed(20, BOUNDS);
		assertThat(this.controller.overflowed(22)).isTrue();
		assertThat(this.controller.overflowed(25)).isTrue();
		Decision standing = this.controller.standing();
		assertThat(standing.action()).isEqualTo(Action.GROW);
		assertThat(standing.from()).isEqualTo(20);
		assertThat(standing.to()).isEqualTo(25);
		assertThat(standing.cause()).isEqualTo(new QueueFull());
		assertThat(standing.reason())
			.isEqualTo("grow 20→25: its queue was full, a thread added for each task it would have refused");
		assertThat(this.controller.appliedSize()).isEqualTo(25);
		// Half again the window's 20, not the 25 it has now.
		assertThat(this.controller.overflowAllowed(25, BOUNDS)).isEqualTo(30);
	}

	@Test
	void aSizeBeyondWhatWasAllowedIsSomeoneElsesResize() {
		hold(20);
		this.controller.overflowAllowed(20, BOUNDS);
		assertThat(this.controller.overflowed(31)).isFalse();
		assertThat(this.controller.overflowed(19)).isFalse();
		assertThat(this.controller.appliedSize()).isEqualTo(20);
	}

	@Test
	void aPoolOutOfTheTunersHandsMayAddNothing() {
		Tuner tuner = new Tuner(new PoolRegistry(null), this.clock, () -> -1, (pool, decision) -> {
		});
		assertThat(tuner.overflowAllowed("orders", TuningMode.MANUAL, 4, BOUNDS)).isEqualTo(QueueOverflow.NONE);
		assertThat(tuner.overflowAllowed("orders", TuningMode.AUTO, 4, BOUNDS)).isEqualTo(QueueOverflow.NONE);
	}

	private void hold(int size) {
		Decision hold = decide(10, 10, 100, size, 0);
		assertThat(hold.changed()).isFalse();
		this.controller.applied(size);
	}

	private Decision decide(double arrivalRate, double throughput, double serviceMs, int size, int queued) {
		return this.controller.decide(
				PoolControllerTests.window(arrivalRate, throughput, serviceMs, size, queued, null), size, BOUNDS, 0.2);
	}

}
