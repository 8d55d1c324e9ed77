package io.github.poolpilot.pool;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.budget.BudgetMember;
import io.github.poolpilot.budget.ThreadBudget;
import io.github.poolpilot.budget.ThreadBudget.Loan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link QueueOverflow}: a pool whose queue is full adds a thread while it is
 * below its cap, the least of its max-threads, its ceiling, what its tuner allows and the
 * budget's room, and refuses the task only at that cap.
 *
 * @author poolpilot authors
 */
class QueueOverflowTests {

	private static final int NO_CEILING = Integer.MAX_VALUE;

	@Test
	void aPoolBelowItsCapAddsOneThread() {
		Member pool = new Member("a", 4, 8);
		assertThat(QueueOverflow.grownSize(pool, 8, NO_CEILING, budget(null, pool))).isEqualTo(5);
	}

	@Test
	void aPoolAtItsMaxThreadsRefuses() {
		Member pool = new Member("a", 8, 8);
		assertThat(QueueOverflow.grownSize(pool, 20, NO_CEILING, budget(null, pool))).isEqualTo(-1);
	}

	@Test
	void aPoolAtWhatItsTunerAllowsRefuses() {
		// A knee of 6 seen: its tuner allows half beyond it, 9, below max-threads 20.
		Member pool = new Member("a", 9, 20);
		assertThat(QueueOverflow.grownSize(pool, 9, NO_CEILING, budget(null, pool))).isEqualTo(-1);
		pool.size = 8;
		assertThat(QueueOverflow.grownSize(pool, 9, NO_CEILING, budget(null, pool))).isEqualTo(9);
	}

	@Test
	void aPoolNoTunerSizesRefusesAtItsSize() {
		Member pool = new Member("a", 4, 8);
		assertThat(QueueOverflow.grownSize(pool, QueueOverflow.NONE, NO_CEILING, budget(null, pool))).isEqualTo(-1);
	}

	@Test
	void aPoolAtItsCeilingRefuses() {
		Member pool = new Member("a", 5, 8);
		assertThat(QueueOverflow.grownSize(pool, 8, 5, budget(null, pool))).isEqualTo(-1);
		assertThat(QueueOverflow.grownSize(pool, 8, 6, budget(null, pool))).isEqualTo(6);
	}

	@Test
	void aPoolGrowsIntoTheBudgetsFreeRoom() {
		Member pool = new Member("a", 4, 8);
		Member other = new Member("b", 5, 8);
		assertThat(QueueOverflow.grownSize(pool, 8, NO_CEILING, budget(10, pool, other))).isEqualTo(5);
	}

	@Test
	void aPoolRefusesWhenTheBudgetHasNoRoom() {
		Member pool = new Member("a", 4, 8);
		Member other = new Member("b", 6, 8);
		assertThat(QueueOverflow.grownSize(pool, 8, NO_CEILING, budget(10, pool, other))).isEqualTo(-1);
	}

	@Test
	void threadsStillFinishingTheirTasksInAnotherPoolLeaveNoRoom() {
		Member pool = new Member("a", 4, 8);
		Member other = new Member("b", 4, 8);
		other.live = 6;
		assertThat(QueueOverflow.grownSize(pool, 8, NO_CEILING, budget(10, pool, other))).isEqualTo(-1);
	}

	@Test
	void badInputIsRefusedNamingThePool() {
		Member pool = new Member("orders", 4, 8);
		ThreadBudget budget = budget(null, pool);
		assertThatIllegalArgumentException().isThrownBy(() -> QueueOverflow.grownSize(pool, -1, NO_CEILING, budget))
			.withMessageContaining("'orders'");
		assertThatIllegalArgumentException().isThrownBy(() -> QueueOverflow.grownSize(pool, 8, 0, budget))
			.withMessageContaining("'orders'");
	}

	private static ThreadBudget budget(Integer maxThreads, Member... members) {
		List<BudgetMember> all = new ArrayList<>(List.of(members));
		return new ThreadBudget(maxThreads, () -> all);
	}

	/**
	 * A pool at a size (core and maximum alike), its threads alive at that size.
	 */
	private static final class Member implements BudgetMember {

		private final String name;

		private final int maxThreads;

		int size;

		int live;

		Member(String name, int size, int maxThreads) {
			this.name = name;
			this.size = size;
			this.live = size;
			this.maxThreads = maxThreads;
		}

		@Override
		public String getName() {
			return this.name;
		}

		@Override
		public int getWeight() {
			return 1;
		}

		@Override
		public int minThreads() {
			return 1;
		}

		@Override
		public int maxThreads() {
			return this.maxThreads;
		}

		@Override
		public int corePoolSize() {
			return this.size;
		}

		@Override
		public int maxPoolSize() {
			return this.size;
		}

		@Override
		public int liveThreads() {
			return this.live;
		}

		@Override
		public List<Loan> resize(int corePoolSize, int maxPoolSize) {
			throw new UnsupportedOperationException("nothing lends here");
		}

	}

}
