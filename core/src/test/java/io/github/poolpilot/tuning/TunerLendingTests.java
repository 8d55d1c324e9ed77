package io.github.poolpilot.tuning;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.budget.ThreadBudget;
import io.github.poolpilot.budget.ThreadBudget.Loan;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.testsupport.FakeClock;
import io.github.poolpilot.testsupport.SizedExecutor;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.Lent;
import io.github.poolpilot.tuning.Decision.Cause.Repaid;
import io.github.poolpilot.tuning.PoolState;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the tuner's part in the budget's lending: the pools it sizes lend their idle
 * threads to a pool that grows, each loan is their decision, and a pool sized by hand
 * gives back what it borrowed beyond its share when a pool below its share has work.
 *
 * @author poolpilot authors
 */
class TunerLendingTests {

	private final FakeClock clock = new FakeClock();

	private final PoolRegistry registry = new PoolRegistry(40);

	private final List<String> resized = new ArrayList<>();

	private final Tuner tuner = new Tuner(this.registry, this.clock, () -> 0.1,
			(pool, decision) -> this.resized.add(pool.getName() + " " + decision.reason()));

	@Test
	void theIdlePoolsTheTunerSizesLendToAPoolResizedByHand() {
		SizedExecutor a = pool("a", 6, 30, 3);
		SizedExecutor b = pool("b", 1, 5, 0);
		SizedExecutor c = pool("c", 1, 5, 0);
		this.tuner.setMode("b", TuningMode.MANUAL);
		List<Loan> loans = this.registry.get("b").resize(5, 20);
		// 15 more for b: a has 27 idle threads to lend for 6 of weight, c 4 for 1; the
		// one with the most per unit of weight lends each thread.
		assertThat(loans).containsExactly(new Loan("a", "b", 30, 17), new Loan("c", "b", 5, 3));
		assertThat(a.max).isEqualTo(17);
		assertThat(a.core).isEqualTo(17);
		assertThat(c.max).isEqualTo(3);
		assertThat(b.max).isEqualTo(20);
		Decision lent = this.tuner.state("a").getLastDecision();
		assertThat(lent.action()).isEqualTo(Action.SHRINK);
		assertThat(lent.cause()).isEqualTo(new Lent("b"));
		assertThat(this.resized).containsExactly("a shrink 30→17: lent idle threads to pool 'b'",
				"c shrink 5→3: lent idle threads to pool 'b'");
		// A pool sized by hand lends nothing: b keeps its 20 when c grows.
		this.tuner.setMode("c", TuningMode.MANUAL);
		assertThat(this.registry.budget().lendableThreads(this.registry.get("b"))).isZero();
		assertThat(this.registry.budget().lendableThreads(this.registry.get("a"))).isEqualTo(14);
	}

	@Test
	void aPoolSizedByHandGivesBackWhatItBorrowedWhenAPoolBelowItsShareHasWork() {
		PoolBounds bounds = new PoolBounds(1, 40);
		// b, set to 20 by hand, borrowed from a (weight 6, guaranteed 34 of 40), which
		// has work again at 20 threads and grows half again.
		PoolState a = new PoolState("a", bounds, 6, TuningMode.AUTO, 20, 20,
				PoolControllerTests.window(1200, 1000, 20, 20, 300, null));
		PoolState b = new PoolState("b", bounds, 1, TuningMode.MANUAL, 20, 2, null);
		Map<String, Decision> plan = this.tuner.plan(List.of(a, b), new ThreadBudget(40, List::of), 0.1);
		assertThat(plan.get("a").threads()).isEqualTo(30);
		assertThat(plan.get("a").limited()).isFalse();
		Decision repaid = plan.get("b");
		assertThat(repaid.action()).isEqualTo(Action.SHRINK);
		assertThat(repaid.cause()).isEqualTo(new Repaid());
		assertThat(repaid.threads()).isEqualTo(10);
		// Asking for more than its share, a gets it all but b's guaranteed 40 / 7 = 5.
		PoolState more = new PoolState("a", bounds, 6, TuningMode.AUTO, 30, 30,
				PoolControllerTests.window(1800, 1500, 20, 30, 300, null));
		PoolState lent = new PoolState("b", bounds, 1, TuningMode.MANUAL, 10, 2, null);
		plan = this.tuner.plan(List.of(more, lent), new ThreadBudget(40, List::of), 0.1);
		assertThat(plan.get("b").threads()).isEqualTo(5);
		assertThat(plan.get("a").threads()).isEqualTo(35);
		// Without work for a, b keeps what it borrowed.
		PoolState idle = new PoolState("a", bounds, 6, TuningMode.AUTO, 7, 0,
				PoolControllerTests.window(0, 0, 0, 7, 0, null));
		Tuner another = new Tuner(new PoolRegistry(40), this.clock, () -> 0.1, (pool, decision) -> {
		});
		assertThat(another.plan(List.of(idle, b), new ThreadBudget(40, List::of), 0.1)).doesNotContainKey("b");
	}

	private SizedExecutor pool(String name, int weight, int size, int live) {
		SizedExecutor executor = new SizedExecutor(size, 10);
		executor.live = live;
		ManagedPool pool = new ManagedPool(name, executor, executor, PoolRecorder.builder().clock(this.clock).build(),
				new PoolBounds(1, 40));
		pool.setWeight(weight);
		this.registry.register(pool);
		return executor;
	}

}
