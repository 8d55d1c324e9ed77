package io.github.poolpilot.pool;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.budget.ThreadBudget;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.measure.PoolSnapshot.Sizes;
import io.github.poolpilot.measure.RejectionReason;
import io.github.poolpilot.testsupport.FakeClock;
import io.github.poolpilot.testsupport.SizedExecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

/**
 * Tests for {@link ManagedPool}'s door, bounds and weight, on an executor that only holds
 * its sizes.
 *
 * @author poolpilot authors
 */
class ManagedPoolTests {

	private final SizedExecutor executor = new SizedExecutor(0, 50);

	private final FakeClock clock = new FakeClock();

	private final PoolRecorder recorder = PoolRecorder.builder().clock(this.clock).build();

	private final ManagedPool pool = new ManagedPool("talk", this.executor, this.executor, this.recorder,
			new PoolBounds(2, 20));

	@Test
	void growingSetsTheMaximumFirstAndShrinkingTheCoreFirst() {
		this.executor.set(4, 6);
		this.pool.resize(8, 10);
		this.pool.resize(8, 10);
		this.pool.resize(3, 5);
		assertThat(this.executor.calls).containsExactly("max 10", "core 8", "max 10", "core 8", "core 3", "max 5");
		assertThat(this.pool.sizes().corePoolSize()).isEqualTo(3);
		assertThat(this.pool.maxPoolSize()).isEqualTo(5);
	}

	@Test
	void newBoundsMoveTheSizesIntoThem() {
		this.executor.set(4, 6);
		assertThat(this.pool.sizesWithin(new PoolBounds(5, 20))).containsExactly(5, 6);
		assertThat(this.pool.sizesWithin(new PoolBounds(1, 3))).containsExactly(3, 3);
		assertThat(this.pool.sizesWithin(new PoolBounds(7, 20))).containsExactly(7, 7);
		assertThat(this.pool.sizesWithin(new PoolBounds(1, 20))).containsExactly(4, 6);
		this.pool.setBounds(new PoolBounds(1, 3));
		assertThat(this.pool.getBounds()).isEqualTo(new PoolBounds(1, 3));
		assertThat(this.pool.minThreads()).isEqualTo(1);
		assertThat(this.pool.maxThreads()).isEqualTo(3);
		assertThat(this.executor.core).isEqualTo(3);
		assertThat(this.executor.max).isEqualTo(3);
	}

	@Test
	void newBoundsOverTheBudgetChangeNothing() {
		PoolRegistry registry = new PoolRegistry(10);
		this.executor.set(2, 6);
		registry.register(this.pool);
		assertThatExceptionOfType(InvalidPoolSizeException.class)
			.isThrownBy(() -> this.pool.setBounds(new PoolBounds(11, 20)))
			.withMessage("maxPoolSize 11 of pool 'talk' would bring the pools' threads to 11, over the budget of 10"
					+ " threads (allowed: at most 10)");
		assertThat(this.pool.getBounds()).isEqualTo(new PoolBounds(2, 20));
		assertThat(this.executor.core).isEqualTo(2);
		assertThat(this.executor.max).isEqualTo(6);
		assertThat(this.pool.getBudget()).isSameAs(registry.budget());
		this.pool.resize(2, 10);
		assertThat(this.executor.max).isEqualTo(10);
	}

	@Test
	void aCeilingForAReasonShrinksThePoolToItAndARefusalNamesIt() {
		this.executor.set(6, 6);
		this.pool.setCeiling(3, "the 3 partitions of its topics");
		assertThat(this.pool.ceiling()).isEqualTo(3);
		assertThat(this.executor.core).isEqualTo(3);
		assertThat(this.executor.max).isEqualTo(3);
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> this.pool.resize(4, 4))
			.withMessage("maxPoolSize 4 of pool 'talk' is above the 3 partitions of its topics (allowed: at most 3)");
		assertThat(this.executor.max).isEqualTo(3);
		this.pool.resize(2, 2);
		assertThat(this.executor.max).isEqualTo(2);
		this.pool.setCeiling(Integer.MAX_VALUE, "no partitions known");
		this.pool.resize(8, 8);
		assertThat(this.executor.max).isEqualTo(8);
	}

	@Test
	void aCeilingWithoutAReasonIsRefusedAndChangesNothing() {
		this.executor.set(6, 6);
		assertThatNullPointerException().isThrownBy(() -> this.pool.setCeiling(3, null))
			.withMessage("reason must not be null");
		assertThat(this.pool.ceiling()).isEqualTo(Integer.MAX_VALUE);
		assertThat(this.executor.max).isEqualTo(6);
		this.pool.resize(8, 8);
		assertThat(this.executor.max).isEqualTo(8);
	}

	@Test
	void aPoolThatSettlesAfterARestartLendsNoThreadsMeanwhile() {
		PoolRegistry registry = new PoolRegistry(10);
		this.executor.set(6, 6);
		this.executor.settling = new Settling(Duration.ofSeconds(5), Duration.ofSeconds(1));
		SizedExecutor growing = new SizedExecutor(4, 0);
		ManagedPool other = new ManagedPool("grow", growing, growing, PoolRecorder.builder().clock(this.clock).build(),
				new PoolBounds(1, 20));
		registry.register(this.pool);
		registry.register(other);
		registry.budget().setLenders((member) -> true);
		assertThat(this.pool.isSettling()).isTrue();
		assertThat(registry.budget().lendableThreads(this.pool)).isZero();
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> other.resize(6, 6));
		assertThat(this.executor.max).isEqualTo(6);
		this.executor.settling = null;
		assertThat(registry.budget().lendableThreads(this.pool)).isEqualTo(4);
		assertThat(other.resize(6, 6)).containsExactly(new ThreadBudget.Loan("talk", "grow", 6, 4));
		assertThat(this.executor.max).isEqualTo(4);
	}

	@Test
	void theWeightIsAtLeastOne() {
		assertThat(this.pool.getWeight()).isEqualTo(1);
		this.pool.setWeight(6);
		assertThat(this.pool.getWeight()).isEqualTo(6);
		this.pool.setWeight(1);
		assertThat(this.pool.getWeight()).isEqualTo(1);
		assertThatIllegalArgumentException().isThrownBy(() -> this.pool.setWeight(0))
			.withMessage("weight of pool 'talk' must be at least 1 but was 0 (allowed: 1 or more)");
		assertThat(this.pool.getWeight()).isEqualTo(1);
	}

	@Test
	void theSizesAndTheRejectionReasonAreTheExecutors() {
		this.executor.set(3, 7);
		this.executor.live = 5;
		this.executor.active = 4;
		this.executor.queued = 9;
		assertThat(this.pool.sizes()).isEqualTo(new Sizes(3, 7, 5, 4, 9, 50, 2, 20));
		assertThat(this.pool.liveThreads()).isEqualTo(5);
		assertThat(this.pool.getExecutor()).isSameAs(this.executor);
		assertThat(this.pool.rejectionReason()).isEqualTo(RejectionReason.QUEUE_FULL);
		this.executor.shutdown = true;
		assertThat(this.pool.rejectionReason()).isEqualTo(RejectionReason.SHUTDOWN);
		assertThat(this.pool).hasToString("ManagedPool[talk]");
	}

	@Test
	void sizesAreCheckedAgainstTheBoundsInOrder() {
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> this.pool.checkSizes(1, 30))
			.withMessage("corePoolSize 1 of pool 'talk' is below its min-threads 2 (allowed: 2 to 20)");
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> this.pool.checkSizes(21, 21))
			.withMessage("corePoolSize 21 of pool 'talk' is above its max-threads 20 (allowed: 2 to 20)");
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> this.pool.checkSizes(2, 1))
			.withMessage("maxPoolSize 1 of pool 'talk' is below its min-threads 2 (allowed: 2 to 20)")
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("maxPoolSize"));
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> this.pool.checkSizes(5, 4))
			.withMessage("corePoolSize 5 of pool 'talk' must not be greater than maxPoolSize 4 (allowed: 2 to 4)")
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("corePoolSize"));
		this.pool.checkSizes(2, 2);
		this.pool.checkSizes(20, 20);
	}

	/**
	 * A min-threads of 0 lets the core size reach 0, never the maximum size: a pool
	 * without a thread would queue its tasks for ever, and {@code ThreadPoolExecutor}
	 * refuses it only after the core size was changed.
	 */
	@Test
	void theMaximumSizeIsAtLeastOneWhenTheCoreSizeMayBeZero() {
		ManagedPool pool = new ManagedPool("idle", this.executor, this.executor, this.recorder, new PoolBounds(0, 8));
		this.executor.set(2, 4);
		pool.resize(0, 4);
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> pool.resize(0, 0))
			.withMessage("maxPoolSize 0 of pool 'idle' must be at least 1 (allowed: 1 to 8)")
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("maxPoolSize"));
		assertThat(this.executor.core).isZero();
		assertThat(this.executor.max).isEqualTo(4);
		pool.resize(0, 1);
		assertThat(this.executor.max).isOne();
	}

	@Test
	void theExpectedServiceTimeIsTheLastWindowsTheBestSeenOrHowLongWorkHasBeenInFlight() {
		assertThat(this.pool.expectedServiceMs()).isZero();
		windowWithATaskOf(200);
		assertThat(this.pool.expectedServiceMs()).isEqualTo(200);
		windowWithATaskOf(100);
		windowWithATaskOf(150);
		assertThat(this.pool.expectedServiceMs()).isEqualTo(150);
		// A window with nothing offered and nothing running: the best seen.
		this.clock.advanceMillis(1000);
		this.pool.takeSnapshot();
		assertThat(this.pool.expectedServiceMs()).isEqualTo(100);
		// Work started since, nothing ended: at least as long as it has been running.
		this.executor.active = 1;
		this.clock.advanceMillis(300);
		assertThat(this.pool.expectedServiceMs()).isEqualTo(300);
		this.clock.advanceMillis(700);
		this.recorder.taskSubmitted();
		this.pool.takeSnapshot();
		this.clock.advanceMillis(500);
		// Since the start of the window that had work and no end: 1.5 s.
		assertThat(this.pool.expectedServiceMs()).isEqualTo(1500);
		this.executor.active = 0;
		windowWithATaskOf(120);
		assertThat(this.pool.expectedServiceMs()).isEqualTo(120);
		assertThat(this.pool.drainRate()).isEqualTo(0);
		this.executor.set(2, 6);
		// 6 threads of 120 ms drain 50 a second.
		assertThat(this.pool.drainRate()).isEqualTo(50);
		assertThat(this.pool.retryAfter(100)).isEqualTo(Duration.ofSeconds(2));
	}

	@Test
	void aPoolWithNothingInFlightExpectsTheBestServiceTimeHoweverLongItIsIdle() {
		windowWithATaskOf(100);
		this.clock.advanceMillis(1000);
		this.pool.takeSnapshot();
		this.clock.advanceMillis(2000);
		assertThat(this.pool.expectedServiceMs()).isEqualTo(100);
	}

	private void windowWithATaskOf(long serviceMs) {
		this.clock.advanceMillis(1000);
		long now = this.recorder.now();
		this.recorder.taskSubmitted();
		this.recorder.timedTaskFinished(now - serviceMs * 1_000_000, now - serviceMs * 1_000_000, -1, false);
		this.pool.takeSnapshot();
	}

}
