package io.github.poolpilot.tuning;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.core.NanoClock;
import io.github.poolpilot.core.PoolBounds;
import io.github.poolpilot.core.PoolSnapshot;
import io.github.poolpilot.core.PoolSnapshot.Latency;
import io.github.poolpilot.core.PoolSnapshot.LittlesLaw;
import io.github.poolpilot.core.PoolSnapshot.Sizes;
import io.github.poolpilot.core.PoolSnapshot.TaskCounts;
import io.github.poolpilot.tuning.PoolController.Decision;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link PoolController}, fed windows whose figures are chosen by hand.
 *
 * @author poolpilot authors
 */
class PoolControllerTests {

	private static final PoolBounds BOUNDS = new PoolBounds(1, 64);

	private final AtomicLong nanos = new AtomicLong();

	private final NanoClock clock = this.nanos::get;

	private final PoolController controller = new PoolController(this.clock);

	@Test
	void anIdlePoolShrinksAfterThreeWindowsByAQuarterAtMost() {
		// 10 tasks/s of 100 ms keep one thread of 20 busy.
		assertThat(decide(10, 10, 100, 20, 0).changed()).isFalse();
		assertThat(decide(10, 10, 100, 20, 0).changed()).isFalse();
		Decision third = decide(10, 10, 100, 20, 0);
		assertThat(third.threads()).isEqualTo(15);
		assertThat(third.reason()).isEqualTo("shrink 20→15: idle (busy 1.0 of 20 for 3 windows)");
	}

	@Test
	void aSaturatedPoolGrowsByAQuarterAndKeepsTheStepWhenThroughputRises() {
		// 120/s offered, 80/s served by 8 threads of 100 ms, tasks queueing.
		Decision grow = decide(120, 80, 100, 8, 50);
		assertThat(grow.threads()).isEqualTo(10);
		assertThat(grow.reason()).isEqualTo("grow 8→10: queueing, busy 8.0 of 8, model 15");
		assertThat(decide(120, 100, 100, 10, 30).reason()).isEqualTo("hold: measuring 8→10");
		Decision keep = decide(120, 100, 100, 10, 20);
		assertThat(keep.changed()).isFalse();
		assertThat(keep.reason()).startsWith("keep 8→10: throughput +");
	}

	@Test
	void aStepThatDoesNotRaiseThroughputIsRevertedAndGrowthBlockedWithBackoff() {
		decide(120, 80, 100, 8, 50);
		decide(120, 80, 125, 10, 50);
		Decision revert = decide(120, 80, 125, 10, 50);
		assertThat(revert.threads()).isEqualTo(8);
		assertThat(revert.reason()).isEqualTo("revert 10→8: throughput +0%, growth blocked for 30 s");
		assertThat(revert.mayBorrow()).isFalse();
		assertThat(decide(120, 80, 100, 8, 50).reason()).startsWith("hold: growth blocked for 30 s");
		this.nanos.addAndGet(Duration.ofSeconds(31).toNanos());
		assertThat(decide(120, 80, 100, 8, 50).reason()).startsWith("grow 8→10");
		decide(120, 80, 125, 10, 50);
		assertThat(decide(120, 80, 125, 10, 50).reason()).endsWith("growth blocked for 60 s");
	}

	@Test
	void aStepAfterWhichTheQueueDrainedIsKept() {
		decide(120, 80, 100, 8, 50);
		decide(90, 90, 100, 10, 0);
		Decision keep = decide(90, 90, 100, 10, 0);
		assertThat(keep.changed()).isFalse();
		assertThat(keep.reason()).isEqualTo("keep 8→10: the queue drained");
	}

	@Test
	void noGrowthWhileTheCpuIsBusy() {
		Decision decision = this.controller.decide(window(120, 80, 100, 8, 50, null), 8, BOUNDS, 0.95);
		assertThat(decision.changed()).isFalse();
		assertThat(decision.reason()).isEqualTo("hold: CPU 95%");
	}

	@Test
	void aSlowerDownstreamWithoutMoreThroughputShrinksThePool() {
		decide(400, 400, 25, 10, 0);
		decide(400, 400, 25, 10, 0);
		Decision decision = decide(500, 400, 60, 10, 40);
		assertThat(decision.threads()).isEqualTo(9);
		assertThat(decision.reason()).startsWith("shrink 10→9: service time 2.2× its usual without more throughput");
	}

	@Test
	void aPoolWithNoWorkStaysAtItsMinimum() {
		for (int i = 0; i < 20; i++) {
			Decision decision = this.controller.decide(window(0, 0, 0, 1, 0, null), 1, BOUNDS, 0);
			assertThat(decision.changed()).isFalse();
		}
	}

	@Test
	void theModelIsLittlesLawWithHeadroomCappedByGoetz() {
		assertThat(PoolController.modelSize(window(100, 100, 100, 8, 0, null).littlesLaw())).isEqualTo(12);
		assertThat(PoolController.modelSize(window(100, 100, 100, 8, 0, 8).littlesLaw())).isEqualTo(8);
	}

	private Decision decide(double arrivalRate, double throughput, double serviceMs, int size, int queued) {
		return this.controller.decide(window(arrivalRate, throughput, serviceMs, size, queued, null), size, BOUNDS,
				0.2);
	}

	static PoolSnapshot window(double arrivalRate, double throughput, double serviceMs, int size, int queued,
			Integer goetz) {
		double busy = throughput * serviceMs / 1000;
		Latency service = new Latency(serviceMs, serviceMs, serviceMs, serviceMs, serviceMs);
		LittlesLaw law = new LittlesLaw(arrivalRate, throughput, serviceMs, 0, serviceMs, serviceMs, busy, busy, 0,
				busy / 2, null, goetz);
		return new PoolSnapshot("talk", 1, new Sizes(size, size, size, (int) Math.round(busy), queued, 100, 1, 64),
				new TaskCounts(0, 0, 0, 0, 0), (long) arrivalRate, (long) throughput, Latency.NONE, service, service,
				law);
	}

}
