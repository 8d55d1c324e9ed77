package io.github.poolpilot.tuning;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.poolpilot.execution.ManagedExecutor;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.measure.NanoClock;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.pool.Settling;
import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.budget.ThreadBudget;
import io.github.poolpilot.testsupport.Blocking;
import io.github.poolpilot.testsupport.FakeClock;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.AtMaxThreads;
import io.github.poolpilot.tuning.Decision.Cause.BudgetFreed;
import io.github.poolpilot.tuning.Decision.Cause.BudgetReclaimed;
import io.github.poolpilot.tuning.Decision.Cause.LoanReturned;
import io.github.poolpilot.tuning.Decision.Cause.Surge;
import io.github.poolpilot.tuning.Decision.Cause.Surplus;
import io.github.poolpilot.tuning.PoolState;
import io.github.poolpilot.testsupport.TestPools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link Tuner} on real pools with idle windows.
 *
 * @author poolpilot authors
 */
class TunerTests {

	@RegisterExtension
	final TestPools pools = new TestPools();

	private final List<String> resizes = new ArrayList<>();

	private final PoolRegistry registry = new PoolRegistry(100);

	@Test
	void anIdlePoolInAutoModeShrinksAndOneInManualModeIsLeftAlone() {
		ManagedPool auto = pool("auto");
		ManagedPool manual = pool("manual");
		Tuner tuner = new Tuner(this.registry, NanoClock.SYSTEM, () -> 0.1,
				(pool, decision) -> this.resizes.add(pool.getName() + " " + decision.reason()));
		tuner.setMode("manual", TuningMode.MANUAL);
		for (int i = 0; i < PoolController.SHRINK_WINDOWS; i++) {
			this.registry.pools().forEach(ManagedPool::takeSnapshot);
			tuner.tick();
		}
		assertThat(auto.getExecutor().getMaximumPoolSize()).isEqualTo(1);
		assertThat(auto.getExecutor().getCorePoolSize()).isEqualTo(1);
		Decision decision = tuner.state("auto").getLastDecision();
		assertThat(decision.action()).isEqualTo(Action.SHRINK);
		assertThat(decision.from()).isEqualTo(20);
		assertThat(decision.to()).isEqualTo(1);
		assertThat(decision.cause()).isEqualTo(new Surplus(0, 10));
		assertThat(this.resizes).containsExactly("auto shrink 20→1: needed at most 0 in the last 10 windows");
		assertThat(manual.getExecutor().getMaximumPoolSize()).isEqualTo(20);
		assertThat(tuner.failedTicks()).isZero();
	}

	@Test
	void aPoolGrowsIntoThreadsAnotherGaveBackOnlyOnceTheyEnded() {
		Tuner tuner = new Tuner(this.registry, NanoClock.SYSTEM, () -> 0.1, (pool, decision) -> {
		});
		PoolBounds bounds = new PoolBounds(1, 40);
		// 40 threads: "busy" needs 12 more, "idle" gives back 15 of its 20 but all 20 are
		// still running tasks.
		PoolState busy = new PoolState("busy", bounds, 1, TuningMode.AUTO, 20, 20,
				PoolControllerTests.window(600, 400, 50, 20, 100, null));
		PoolState idle = new PoolState("idle", bounds, 1, TuningMode.MANUAL, 5, 20, null);
		Map<String, Decision> plan = tuner.plan(List.of(busy, idle), budget(40), 0.1);
		assertThat(plan.get("busy").threads()).isEqualTo(20);
		assertThat(plan.get("busy").budgetAllows()).isEqualTo(20);
		PoolState ended = new PoolState("idle", bounds, 1, TuningMode.MANUAL, 5, 5, null);
		assertThat(tuner.plan(List.of(busy, ended), budget(40), 0.1).get("busy").threads()).isEqualTo(30);
	}

	@Test
	void aSaturatedPoolThatCannotHaveMoreThreadsIsMarkedLimited() {
		Tuner tuner = new Tuner(this.registry, NanoClock.SYSTEM, () -> 0.1, (pool, decision) -> {
		});
		PoolBounds bounds = new PoolBounds(1, 20);
		// Saturated at its max-threads; then saturated below it with room in the budget.
		PoolState atMax = new PoolState("full", bounds, 1, TuningMode.AUTO, 20, 20,
				PoolControllerTests.window(600, 400, 50, 20, 100, null));
		PoolState room = new PoolState("room", bounds, 1, TuningMode.AUTO, 8, 8,
				PoolControllerTests.window(300, 160, 50, 8, 100, null));
		Map<String, Decision> plan = tuner.plan(List.of(atMax, room), budget(100), 0.1);
		assertThat(plan.get("full").limited()).isTrue();
		assertThat(plan.get("full").action()).isEqualTo(Action.HOLD);
		assertThat(plan.get("full").cause()).isEqualTo(new AtMaxThreads(20));
		assertThat(plan.get("room").limited()).isFalse();
		assertThat(plan.get("room").threads()).isEqualTo(12);
		// The budget leaves no room: limited too.
		PoolState squeezed = new PoolState("room", bounds, 1, TuningMode.AUTO, 8, 8,
				PoolControllerTests.window(300, 160, 50, 8, 100, null));
		Tuner another = new Tuner(this.registry, NanoClock.SYSTEM, () -> 0.1, (pool, decision) -> {
		});
		Decision cut = another.plan(List.of(squeezed), budget(8), 0.1).get("room");
		assertThat(cut.threads()).isEqualTo(8);
		assertThat(cut.limited()).isTrue();
		assertThat(cut.budgetAllows()).isEqualTo(8);
	}

	@Test
	void aPoolSettlingAfterARestartKeepsItsSizeAndItsStepIsJudgedOnTheWindowsAfter() {
		PoolBounds bounds = new PoolBounds(1, 20);
		Settling settling = new Settling(Duration.ofSeconds(9), Duration.ofMillis(1500));
		// Saturated at 8: grows to 12, which restarts its consumers; the window of the
		// restart has almost no throughput.
		PoolSnapshot saturated = PoolControllerTests.window(600, 400, 20, 8, 500, null);
		PoolSnapshot restarting = PoolControllerTests.window(600, 40, 20, 12, 900, null);
		PoolSnapshot settled = PoolControllerTests.window(600, 533, 21, 12, 500, null);
		Tuner tuner = new Tuner(this.registry, new FakeClock(), () -> 0.1, (pool, decision) -> {
		});
		assertThat(tuner.plan(List.of(state(8, saturated, null)), budget(100), 0.1).get("orders").threads())
			.isEqualTo(12);
		Decision hold = tuner.plan(List.of(state(12, restarting, settling)), budget(100), 0.1).get("orders");
		assertThat(hold.action()).isEqualTo(Action.HOLD);
		assertThat(hold.threads()).isEqualTo(12);
		assertThat(hold.cause()).isEqualTo(new Decision.Cause.Settling(Duration.ofSeconds(9), Duration.ofMillis(1500)));
		assertThat(hold.reason())
			.isEqualTo("hold: settling after a resize that took 1.5 s to take effect, next change in 9.0 s");
		// No surge is met while it settles, however much is offered.
		assertThat(tuner.planPulse(List.of(new PoolPulse("orders", bounds, 1, TuningMode.AUTO, 12, 12, 12, 5000,
				100_000, 10, Duration.ofMillis(500).toNanos(), Integer.MAX_VALUE, settling)), budget(100)))
			.isEmpty();
		Decision judged = tuner.plan(List.of(state(12, settled, null)), budget(100), 0.1).get("orders");
		assertThat(judged.action()).isNotEqualTo(Action.REVERT);
		assertThat(judged.kept()).isNotNull();
		assertThat(judged.kept().from()).isEqualTo(8);
		assertThat(judged.kept().to()).isEqualTo(12);
		// Had the restart's window been judged, the step would have been undone: a flap.
		Tuner unaware = new Tuner(this.registry, new FakeClock(), () -> 0.1, (pool, decision) -> {
		});
		unaware.plan(List.of(state(8, saturated, null)), budget(100), 0.1);
		assertThat(unaware.plan(List.of(state(12, restarting, null)), budget(100), 0.1).get("orders").action())
			.isEqualTo(Action.REVERT);
	}

	private static PoolState state(int size, PoolSnapshot window, Settling settling) {
		return new PoolState("orders", new PoolBounds(1, 20), 1, TuningMode.AUTO, size, size, window, Integer.MAX_VALUE,
				settling);
	}

	@Test
	void aFailingTickIsCountedAndThePoolsKeepTheirSizes() {
		ManagedPool auto = pool("auto");
		Tuner tuner = new Tuner(this.registry, NanoClock.SYSTEM, () -> {
			throw new IllegalStateException("no CPU figure");
		}, (pool, decision) -> this.resizes.add(decision.reason()));
		auto.takeSnapshot();
		tuner.tick();
		assertThat(tuner.failedTicks()).isEqualTo(1);
		assertThat(auto.getExecutor().getMaximumPoolSize()).isEqualTo(20);
		assertThat(this.resizes).isEmpty();
	}

	@Test
	void aFailingResizeListenerIsCountedAndTheOtherPoolsAreStillResized() {
		ManagedPool first = pool("first");
		ManagedPool second = pool("second");
		Tuner tuner = new Tuner(this.registry, NanoClock.SYSTEM, () -> 0.1, (pool, decision) -> {
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
		assertThat(tuner.state("first").getLastDecision().action()).isEqualTo(Action.SHRINK);
		assertThat(tuner.state("first").getLastDecision().to()).isEqualTo(1);
		assertThat(tuner.failedTicks()).isEqualTo(2);
	}

	@Test
	void aPoolThatMayNotBorrowGivesBackItsLoanThoughNoOtherPoolNeedsIt() {
		Tuner tuner = new Tuner(this.registry, new FakeClock(), () -> 0.95, (pool, decision) -> {
		});
		PoolBounds bounds = new PoolBounds(1, 40);
		// Weights 3 and 1: shares of 30 and 10. The lender borrowed 38 while the owner
		// idles at its min-threads of 2; saturated with the CPU at 95 %, it may not
		// borrow (more threads would not help), and nothing else asks for the threads.
		Map<String, Decision> plan = tuner.plan(List.of(
				new PoolState("lender", bounds, 3, TuningMode.AUTO, 38, 38,
						PoolControllerTests.window(1800, 1900, 20, 38, 500, null)),
				new PoolState("owner", new PoolBounds(2, 40), 1, TuningMode.AUTO, 2, 2,
						PoolControllerTests.window(0, 0, 0, 2, 0, null))),
				budget(40), 0.95);
		Decision lender = plan.get("lender");
		assertThat(lender.action()).isEqualTo(Action.SHRINK);
		assertThat(lender.threads()).isEqualTo(30);
		assertThat(lender.cause()).isInstanceOfSatisfying(LoanReturned.class, (returned) -> {
			assertThat(returned.share()).isEqualTo(30);
			assertThat(returned.wanted().mayBorrow()).isFalse();
		});
		assertThat(plan.get("owner").threads()).isEqualTo(2);
	}

	@Test
	void aPoolBelowItsShareThatSurgesGetsItOnceTheLendersThreadsEnded() {
		FakeClock clock = new FakeClock();
		Tuner tuner = new Tuner(this.registry, clock, () -> 0.1, (pool, decision) -> {
		});
		PoolBounds bounds = new PoolBounds(1, 40);
		ThreadBudget budget = budget(40);
		// Weights 3 and 1: shares of 30 and 10. The lender borrowed 38 while the owner
		// was idle at its min-threads of 2, and is saturated.
		tuner.plan(List.of(
				new PoolState("lender", bounds, 3, TuningMode.AUTO, 38, 38,
						PoolControllerTests.window(1800, 1900, 20, 38, 500, null)),
				new PoolState("owner", new PoolBounds(2, 40), 1, TuningMode.AUTO, 2, 2,
						PoolControllerTests.window(0, 0, 0, 2, 0, null))),
				budget, 0.1);
		List<PoolPulse> quiet = List.of(lenderPulse(0, 38, 0), ownerPulse(0, 0, 0, 0, 0));
		assertThat(tuner.planPulse(quiet, budget)).isEmpty();
		// 60 tasks offered to the owner in 100 ms (600/s), 8 done by its 2 threads, idle
		// at the last pulse and busy now (one busy on average: 12.5 ms each, by Little's
		// law), 50 queued: a surge, which needs ⌈7.5 + 2·√7.5⌉ = 13.
		// The lender gives back to its share at once; its threads still run their tasks.
		clock.advanceMillis(100);
		Map<String, Decision> surge = tuner.planPulse(List.of(lenderPulse(100, 38, 190), ownerPulse(100, 2, 60, 8, 50)),
				budget);
		assertThat(surge.get("lender").action()).isEqualTo(Action.SHRINK);
		assertThat(surge.get("lender").threads()).isEqualTo(30);
		assertThat(surge.get("lender").cause()).isInstanceOf(BudgetReclaimed.class);
		assertThat(surge).doesNotContainKey("owner");
		// A pulse later the lender's surplus threads ended: the owner grows into them.
		clock.advanceMillis(100);
		Map<String, Decision> handedOver = tuner.planPulse(List.of(
				new PoolPulse("lender", bounds, 3, TuningMode.AUTO, 30, 30, 30, 500, 380, 380, clock.nanoTime()),
				ownerPulse(200, 2, 120, 16, 102)), budget);
		Decision owner = handedOver.get("owner");
		assertThat(owner.action()).isEqualTo(Action.GROW);
		assertThat(owner.threads()).isEqualTo(10);
		assertThat(owner.cause()).isInstanceOf(Surge.class);
		assertThat(owner.budgetAllows()).isEqualTo(10);
	}

	@Test
	void threadsKeptFromAPoolAreGivenAtThePulseAfterTheyEnded() {
		FakeClock clock = new FakeClock();
		Tuner tuner = new Tuner(this.registry, clock, () -> 0.1, (pool, decision) -> {
		});
		PoolBounds bounds = new PoolBounds(1, 40);
		// "busy" needs 12 more; "idle" gave back 15 of its 20 but all 20 still run tasks.
		PoolState busy = new PoolState("busy", bounds, 1, TuningMode.AUTO, 20, 20,
				PoolControllerTests.window(600, 400, 50, 20, 100, null));
		PoolState idle = new PoolState("idle", bounds, 1, TuningMode.MANUAL, 5, 20, null);
		assertThat(tuner.plan(List.of(busy, idle), budget(40), 0.1).get("busy").threads()).isEqualTo(20);
		// A pulse later the idle pool's threads ended: no window needed to hand them
		// over.
		Map<String, Decision> pulse = tuner
			.planPulse(List.of(new PoolPulse("busy", bounds, 1, TuningMode.AUTO, 20, 20, 20, 100, 1000, 800, 0),
					new PoolPulse("idle", bounds, 1, TuningMode.MANUAL, 5, 5, 0, 0, 0, 0, 0)), budget(40));
		assertThat(pulse.get("busy").threads()).isEqualTo(30);
		assertThat(pulse.get("busy").cause()).isInstanceOfSatisfying(BudgetFreed.class,
				(freed) -> assertThat(freed.wanted().threads()).isEqualTo(30));
		assertThat(pulse.get("busy").budgetAllows()).isNull();
		assertThat(pulse.get("busy").limited()).isFalse();
		assertThat(pulse).doesNotContainKey("idle");
	}

	@Test
	void threadsKeptFromAPoolAreGivenAtThePulseAfterTheyEndedAsFarAsTheBudgetGoes() {
		Tuner tuner = new Tuner(this.registry, new FakeClock(), () -> 0.1, (pool, decision) -> {
		});
		PoolBounds bounds = new PoolBounds(1, 40);
		PoolState busy = new PoolState("busy", bounds, 1, TuningMode.AUTO, 20, 20,
				PoolControllerTests.window(600, 400, 50, 20, 100, null));
		PoolState idle = new PoolState("idle", bounds, 1, TuningMode.MANUAL, 5, 20, null);
		assertThat(tuner.plan(List.of(busy, idle), budget(32), 0.1).get("busy").threads()).isEqualTo(20);
		// The idle pool's threads ended: 27 of the 30 "busy" wants fit beside its 5.
		Decision grow = tuner
			.planPulse(List.of(new PoolPulse("busy", bounds, 1, TuningMode.AUTO, 20, 20, 20, 100, 1000, 800, 0),
					new PoolPulse("idle", bounds, 1, TuningMode.MANUAL, 5, 5, 0, 0, 0, 0, 0)), budget(32))
			.get("busy");
		assertThat(grow.action()).isEqualTo(Action.GROW);
		assertThat(grow.threads()).isEqualTo(27);
		assertThat(grow.budgetAllows()).isEqualTo(27);
		assertThat(grow.limited()).isTrue();
	}

	@Test
	void aWindowThatHoldsAPoolIsItsLastDecision() {
		pool("auto");
		Tuner tuner = new Tuner(this.registry, NanoClock.SYSTEM, () -> 0.1, (pool, decision) -> {
		});
		this.registry.pools().forEach(ManagedPool::takeSnapshot);
		tuner.tick();
		Decision hold = tuner.state("auto").getLastDecision();
		assertThat(hold).isNotNull();
		assertThat(hold.action()).isEqualTo(Action.HOLD);
		assertThat(hold.threads()).isEqualTo(20);
		assertThat(tuner.state("auto").isLimited()).isFalse();
	}

	@Test
	void aFailingPulseIsCountedAndThePoolsKeepTheirSizes() {
		ManagedPool auto = pool("auto");
		Tuner tuner = new Tuner(this.registry, () -> {
			throw new IllegalStateException("clock stopped");
		}, () -> 0.1, (pool, decision) -> this.resizes.add(decision.reason()));
		tuner.pulse();
		assertThat(tuner.failedTicks()).isEqualTo(1);
		assertThat(auto.getExecutor().getMaximumPoolSize()).isEqualTo(20);
		assertThat(this.resizes).isEmpty();
	}

	@Test
	void theProcessCpuLoadIsReadFromTheJvm() {
		assertThat(Tuner.processCpuLoad().getAsDouble()).isBetween(0.0, 1.0);
	}

	@Test
	void aPulseReadsTheRealPoolsQueueAndCountsAndMeetsASurge() throws InterruptedException {
		FakeClock clock = new FakeClock();
		List<Decision> resized = new ArrayList<>();
		Tuner tuner = new Tuner(this.registry, clock, () -> 0.1, (pool, decision) -> resized.add(decision));
		ManagedExecutor executor = this.pools.executor("talk", new PoolBounds(1, 40), 100, 2);
		this.registry.register(executor.getPool());
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
		// No service time measured yet: the size doubles, once.
		assertThat(executor.getMaximumPoolSize()).isEqualTo(4);
		assertThat(executor.getCorePoolSize()).isEqualTo(4);
		assertThat(resized).singleElement().satisfies((decision) -> {
			assertThat(decision.action()).isEqualTo(Action.GROW);
			assertThat(decision.cause()).isEqualTo(new Surge(200, 0, 18, 4));
		});
		assertThat(tuner.state("talk").getLastDecision()).isEqualTo(resized.get(0));
		// Still no task finished: no evidence for more, whatever the arrivals say, until
		// a
		// window measured a service time.
		for (int i = 0; i < 20; i++) {
			executor.execute(() -> Blocking.await(release));
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> executor.getActiveCount() == 4);
		clock.advanceMillis(100);
		tuner.pulse();
		assertThat(resized).hasSize(1);
		release.countDown();
	}

	@Test
	void aPoolResizedByHandAndBackToAutoBetweenTwoWindowsKeepsItsNewSizeAtThePulses() {
		Tuner tuner = new Tuner(this.registry, new FakeClock(), () -> 0.1, (pool, decision) -> {
		});
		PoolBounds bounds = new PoolBounds(1, 300);
		// An idle pool at 5 threads; then, within the same window, set to 50 by hand and
		// back to auto: the pulses must not carry out the window's decision for 5.
		tuner.plan(List.of(new PoolState("talk", bounds, 1, TuningMode.AUTO, 5, 5,
				PoolControllerTests.window(0, 0, 0, 5, 0, null))), budget(400), 0.1);
		Map<String, Decision> pulse = tuner
			.planPulse(List.of(new PoolPulse("talk", bounds, 1, TuningMode.AUTO, 50, 50, 0, 0, 0, 0, 0)), budget(400));
		assertThat(pulse).isEmpty();
		assertThat(tuner.planPulse(
				List.of(new PoolPulse("talk", bounds, 1, TuningMode.AUTO, 50, 50, 0, 0, 0, 0, 100_000_000)),
				budget(400)))
			.isEmpty();
	}

	private static PoolPulse lenderPulse(long atMillis, int size, long completions) {
		return new PoolPulse("lender", new PoolBounds(1, 40), 3, TuningMode.AUTO, size, 38, size, 500,
				190 + completions, completions, Duration.ofMillis(atMillis).toNanos());
	}

	private static PoolPulse ownerPulse(long atMillis, int active, long arrivals, long completions, int queued) {
		return new PoolPulse("owner", new PoolBounds(2, 40), 1, TuningMode.AUTO, 2, 2, active, queued, arrivals,
				completions, Duration.ofMillis(atMillis).toNanos());
	}

	private ManagedPool pool(String name) {
		ManagedPool pool = this.pools.pool(name, new PoolBounds(1, 40), 10, 20);
		this.registry.register(pool);
		return pool;
	}

	private static ThreadBudget budget(int maxThreads) {
		return new ThreadBudget(maxThreads, List::of);
	}

}
