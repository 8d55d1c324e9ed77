package io.github.poolpilot.pool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.poolpilot.budget.BudgetAllocator.Demand;
import io.github.poolpilot.budget.BudgetMember;
import io.github.poolpilot.budget.Lenders;
import io.github.poolpilot.budget.ThreadBudget.Cut;
import io.github.poolpilot.budget.ThreadBudget.Fit;
import io.github.poolpilot.budget.ThreadBudget.Held;
import io.github.poolpilot.budget.ThreadBudget.Loan;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.testsupport.Blocking;
import io.github.poolpilot.testsupport.SizedExecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import io.github.poolpilot.execution.ManagedExecutor;
import io.github.poolpilot.testsupport.TestPools;

/**
 * Tests for {@link PoolRegistry} and the budget its pools share through their one door.
 *
 * @author poolpilot authors
 */
class PoolRegistryTests {

	@RegisterExtension
	final TestPools pools = new TestPools();

	@Test
	void aPoolIsRegisteredOnceByNameAndLeavesTheBudgetWhenUnregistered() {
		PoolRegistry registry = new PoolRegistry(10);
		ManagedPool talk = pool("talk", 1, 6, 4, 1);
		registry.register(talk);
		registry.register(talk);
		assertThat(registry.get("talk")).isSameAs(talk);
		assertThat(registry.get("other")).isNull();
		assertThat(talk.getBudget()).isSameAs(registry.budget());
		ManagedPool sameName = pool("talk", 1, 6, 4, 1);
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> registry.register(sameName))
			.withMessage("A pool named 'talk' is registered already");
		registry.unregister(sameName);
		assertThat(registry.get("talk")).isSameAs(talk);
		assertThat(sameName.getBudget()).isNotSameAs(registry.budget());
		registry.unregister(talk);
		assertThat(registry.get("talk")).isNull();
		assertThat(talk.getBudget()).isNotSameAs(registry.budget());
		assertThat(talk.getBudget().getConfiguredMaxThreads()).isNull();
	}

	@Test
	void aWatcherIsToldOfThePoolsThereAndOfEachThatJoinsOrLeavesOnce() {
		PoolRegistry registry = new PoolRegistry(10);
		ManagedPool talk = pool("talk", 1, 6, 4, 1);
		registry.register(talk);
		List<String> told = new ArrayList<>();
		registry.watch(telling(told));
		ManagedPool listener = pool("orders", 1, 6, 1, 1);
		registry.register(listener);
		registry.register(listener);
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> registry.register(pool("orders", 1, 6, 1, 1)));
		registry.unregister(pool("talk", 1, 6, 4, 1));
		registry.unregister(listener);
		registry.unregister(listener);
		ManagedPool restarted = pool("orders", 1, 6, 1, 1);
		registry.register(restarted);
		assertThat(told).containsExactly("+talk", "+orders", "-orders", "+orders");
	}

	@Test
	void budgetFiguresSumThePools() {
		PoolRegistry registry = new PoolRegistry(null);
		registry.register(pool("a", 1, 6, 4, 1));
		registry.register(pool("b", 1, 10, 3, 1));
		assertThat(registry.budget().maxThreads()).isEqualTo(16);
		assertThat(registry.budget().allocatedThreads()).isEqualTo(7);
		assertThat(registry.budget().liveThreads()).isZero();
	}

	@Test
	void fittingToTheBudgetShrinksThePoolsWithTheMostThreadsPerWeightFirst() {
		PoolRegistry registry = new PoolRegistry(400);
		ManagedPool start = pool("start", 10, 300, 300, 6);
		ManagedPool talk = pool("talk", 5, 50, 50, 1);
		ManagedPool existing = pool("applicationTaskExecutor", 1, 8, 8, 1);
		registry.register(start);
		registry.register(talk);
		registry.register(existing);
		assertThat(registry.budget().fit().shortBy()).isZero();
		assertThat(registry.budget().allocatedThreads()).isEqualTo(358);
		PoolRegistry tight = new PoolRegistry(30);
		tight.register(start);
		tight.register(talk);
		tight.register(existing);
		Fit fit = tight.budget().fit();
		assertThat(fit.shortBy()).isZero();
		assertThat(tight.budget().allocatedThreads()).isEqualTo(30);
		assertThat(start.getExecutor().getMaximumPoolSize()).isEqualTo(10);
		assertThat(talk.getExecutor().getMaximumPoolSize()).isEqualTo(12);
		assertThat(existing.getExecutor().getMaximumPoolSize()).isEqualTo(8);
		assertThat(fit.cuts()).containsExactly(new Cut("start", 300, 10, 30), new Cut("talk", 50, 12, 30));
	}

	@Test
	void fittingReportsHowManyThreadsTheBudgetIsShortWhenMinimumsDoNotFit() {
		PoolRegistry registry = new PoolRegistry(12);
		registry.register(pool("start", 10, 20, 20, 1));
		registry.register(pool("talk", 5, 10, 10, 1));
		assertThat(registry.budget().fit().shortBy()).isEqualTo(3);
		assertThat(registry.budget().allocatedThreads()).isEqualTo(15);
	}

	@Test
	void aPoolThatJoinsAfterTheFitGivesWayAloneDownToItsMinThreads() {
		PoolRegistry registry = new PoolRegistry(10);
		ManagedPool talk = pool("talk", 1, 10, 6, 1);
		registry.register(talk);
		registry.register(pool("early", 1, 10, 6, 1));
		// Before the fit pools join as they are, to be fitted together.
		assertThat(registry.budget().allocatedThreads()).isEqualTo(12);
		registry.budget().fit();
		assertThat(registry.budget().allocatedThreads()).isEqualTo(10);
		registry.unregister(registry.get("early"));
		ManagedPool late = pool("late", 2, 10, 8, 1);
		registry.register(late);
		assertThat(late.getExecutor().getMaximumPoolSize()).isEqualTo(4);
		assertThat(late.getExecutor().getCorePoolSize()).isEqualTo(4);
		assertThat(talk.getExecutor().getMaximumPoolSize()).isEqualTo(6);
		assertThat(registry.budget().allocatedThreads()).isEqualTo(10);
		ManagedPool fits = pool("fits", 1, 10, 1, 1);
		registry.unregister(late);
		registry.register(fits);
		assertThat(fits.getExecutor().getMaximumPoolSize()).isEqualTo(1);
	}

	@Test
	void aPoolThatJoinsAfterTheFitBorrowsIdleThreadsAsAPoolThatGrows() {
		ManagedPool talk = pool("talk", 2, 10, 8, 1);
		PoolRegistry registry = fittedTo10(talk);
		List<Loan> loans = lendingFromEveryPool(registry);
		ManagedPool late = pool("late", 1, 10, 5, 1);
		registry.register(late);
		assertThat(late.getExecutor().getMaximumPoolSize()).isEqualTo(5);
		assertThat(talk.getExecutor().getMaximumPoolSize()).isEqualTo(5);
		assertThat(loans).containsExactly(new Loan("talk", "late", 8, 5));
		ManagedPool later = pool("later", 1, 10, 9, 1);
		registry.register(later);
		// Both lend down to their min-threads, 2 and 1, and later is cut to the 7 left.
		assertThat(later.getExecutor().getMaximumPoolSize()).isEqualTo(7);
		assertThat(talk.getExecutor().getMaximumPoolSize()).isEqualTo(2);
		assertThat(late.getExecutor().getMaximumPoolSize()).isEqualTo(1);
		assertThat(registry.budget().allocatedThreads()).isEqualTo(10);
	}

	@Test
	void aPoolWhoseMinThreadsDoNotFitIsRefusedAndNothingChanges() {
		PoolRegistry registry = new PoolRegistry(10);
		ManagedPool talk = pool("talk", 1, 10, 8, 1);
		registry.register(talk);
		registry.budget().fit();
		List<String> told = new ArrayList<>();
		registry.watch(telling(told));
		told.clear();
		ManagedPool late = pool("late", 3, 10, 6, 1);
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> registry.register(late))
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("minThreads"))
			.withMessage("minThreads 3 of pool 'late' would bring the pools' threads to 11, over the budget of 10 "
					+ "threads (allowed: at most 2)");
		assertThat(registry.get("late")).isNull();
		assertThat(late.getBudget()).isNotSameAs(registry.budget());
		assertThat(late.getExecutor().getMaximumPoolSize()).isEqualTo(6);
		assertThat(talk.getExecutor().getMaximumPoolSize()).isEqualTo(8);
		assertThat(told).isEmpty();
	}

	@Test
	void aMaximumOverTheBudgetIsRefusedNamingWhatIsAllowed() {
		PoolRegistry registry = new PoolRegistry(10);
		ManagedPool talk = pool("talk", 1, 10, 4, 1);
		registry.register(talk);
		registry.register(pool("stop", 1, 10, 4, 1));
		assertThat(registry.budget().makeRoom(talk, 6).overrun()).isNull();
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> talk.resize(4, 7))
			.withMessage("maxPoolSize 7 of pool 'talk' would bring the pools' threads to 11, over the budget "
					+ "of 10 threads (allowed: at most 6)");
		assertThatIllegalArgumentException().isThrownBy(() -> registry.budget().setMaxThreads(7))
			.withMessageContaining("below the 8 threads the pools may grow to now");
	}

	@Test
	void threadsAPoolGaveBackCountUntilTheyEnded() {
		PoolRegistry registry = new PoolRegistry(10);
		ManagedPool talk = pool("talk", 1, 10, 6, 1);
		ManagedPool stop = pool("stop", 1, 10, 4, 1);
		registry.register(talk);
		registry.register(stop);
		CountDownLatch release = occupyAll(talk);
		talk.resize(2, 2);
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> stop.resize(8, 8))
			.withMessageContaining("would bring the pools' threads to 14");
		release.countDown();
		await().atMost(Duration.ofSeconds(10)).until(() -> talk.getExecutor().getPoolSize() <= 2);
		stop.resize(8, 8);
		assertThat(registry.budget().liveThreads()).isLessThanOrEqualTo(10);
	}

	@Test
	void threadsOfAPoolThatLeftCountUntilTheyEnded() {
		PoolRegistry registry = new PoolRegistry(10);
		ManagedPool talk = pool("talk", 1, 10, 6, 1);
		ManagedPool stop = pool("stop", 1, 10, 4, 1);
		registry.register(talk);
		registry.register(stop);
		CountDownLatch release = occupyAll(talk);
		executor(talk).shutdown();
		registry.unregister(talk);
		assertThat(registry.budget().liveThreads()).isEqualTo(6 + stop.liveThreads());
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> stop.resize(8, 8))
			.withMessageContaining("would bring the pools' threads to 14, over the budget of 10 threads");
		assertThat(stop.maxPoolSize()).isEqualTo(4);
		assertThat(registry.budget()
			.threadsNow(List.of(new Demand("stop", 1, 10, 1, 10, false)), List.of(new Held("stop", 4, 0))))
			.containsEntry("stop", 4);
		release.countDown();
		await().atMost(Duration.ofSeconds(10)).until(() -> executor(talk).isTerminated());
		stop.resize(8, 8);
		assertThat(registry.budget()
			.threadsNow(List.of(new Demand("stop", 1, 10, 1, 10, false)), List.of(new Held("stop", 8, 0))))
			.containsEntry("stop", 10);
	}

	@Test
	void aPoolThatJoinsWhileTasksReachItsLenderGetsWhatTheLenderStillLeaves() {
		ManagedPool lender = lenderThatGetsBusyAsItLends();
		PoolRegistry registry = fittedTo10(lender);
		List<Loan> loans = lendingFromEveryPool(registry);
		ManagedPool late = late(1);
		registry.register(late);
		assertThat(lender.maxPoolSize()).isEqualTo(6);
		assertThat(late.maxPoolSize()).isEqualTo(4);
		assertThat(loans).as("the loans told").isEmpty();
	}

	@Test
	void aPoolThatJoinsWhileTasksReachItsLenderIsRefusedWithNothingChangedWhenItsMinThreadsNoLongerFit() {
		ManagedPool lender = lenderThatGetsBusyAsItLends();
		PoolRegistry registry = fittedTo10(lender);
		List<Loan> loans = lendingFromEveryPool(registry);
		ManagedPool late = late(6);
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> registry.register(late))
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("minThreads"))
			.withMessage("minThreads 6 of pool 'late' would bring the pools' threads to 12, over the budget of 10 "
					+ "threads (allowed: at most 4)");
		assertThat(registry.get("late")).isNull();
		assertThat(lender.maxPoolSize()).isEqualTo(6);
		assertThat(late.maxPoolSize()).isEqualTo(8);
		assertThat(loans).as("the loans told").isEmpty();
	}

	@Test
	void aPoolWhoseCutFailsAsItJoinsIsNotRegisteredAndNoWatcherIsTold() {
		PoolRegistry registry = fittedTo10(pool("talk", 1, 10, 6, 1));
		List<String> told = new ArrayList<>();
		registry.watch(new PoolRegistry.Watcher() {

			@Override
			public void registered(ManagedPool pool) {
				told.add("registered " + pool.getName());
			}

			@Override
			public void unregistered(ManagedPool pool) {
				told.add("unregistered " + pool.getName());
			}

		});
		told.clear();
		SizedExecutor lateExecutor = new SizedExecutor(8, 10);
		ManagedPool late = new ManagedPool("late", lateExecutor, new ManagedPool.SizeControl() {

			@Override
			public void setCorePoolSize(int corePoolSize) {
				lateExecutor.setCorePoolSize(corePoolSize);
			}

			@Override
			public void setMaximumPoolSize(int maxPoolSize) {
				throw new IllegalStateException("The container cannot change its consumers now");
			}

		}, PoolRecorder.builder().build(), new PoolBounds(1, 10));
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> registry.register(late))
			.withMessage("The container cannot change its consumers now");
		assertThat(registry.get("late")).isNull();
		assertThat(late.getBudget()).isNotSameAs(registry.budget());
		assertThat(registry.budget().allocatedThreads()).isEqualTo(6);
		assertThat(told).isEmpty();
	}

	/**
	 * A registry with a budget of 10 threads and one pool, fitted to it: a pool that
	 * joins from now on is admitted.
	 */
	private static PoolRegistry fittedTo10(ManagedPool pool) {
		PoolRegistry registry = new PoolRegistry(10);
		registry.register(pool);
		registry.budget().fit();
		return registry;
	}

	/**
	 * A pool of 8 threads, up to 10, that joins late.
	 */
	private static ManagedPool late(int minThreads) {
		SizedExecutor executor = new SizedExecutor(8, 10);
		return new ManagedPool("late", executor, executor, PoolRecorder.builder().build(),
				new PoolBounds(minThreads, 10));
	}

	/**
	 * A pool of 6 threads, 4 of them live, so that it may lend 2; tasks reach it as it
	 * lends, so that its 6 threads stay live and the loan must go back.
	 */
	private static ManagedPool lenderThatGetsBusyAsItLends() {
		SizedExecutor executor = new SizedExecutor(6, 10);
		executor.live = 4;
		return new ManagedPool("lender", executor, new ManagedPool.SizeControl() {

			@Override
			public void setCorePoolSize(int corePoolSize) {
				executor.setCorePoolSize(corePoolSize);
			}

			@Override
			public void setMaximumPoolSize(int maxPoolSize) {
				if (maxPoolSize < executor.max) {
					executor.live = executor.max;
				}
				executor.setMaximumPoolSize(maxPoolSize);
			}

		}, PoolRecorder.builder().build(), new PoolBounds(1, 10));
	}

	/**
	 * Let every pool lend, and return the loans told.
	 */
	private static List<Loan> lendingFromEveryPool(PoolRegistry registry) {
		List<Loan> loans = new ArrayList<>();
		registry.budget().setLenders(new Lenders() {

			@Override
			public boolean mayLend(BudgetMember member) {
				return true;
			}

			@Override
			public void lent(Loan loan) {
				loans.add(loan);
			}

		});
		return loans;
	}

	private ManagedExecutor executor(ManagedPool pool) {
		return this.pools.executors()
			.stream()
			.filter((executor) -> executor.getPool() == pool)
			.findFirst()
			.orElseThrow();
	}

	/**
	 * Run a task on each of a pool's threads, each until the returned latch is released.
	 */
	private CountDownLatch occupyAll(ManagedPool pool) {
		CountDownLatch release = new CountDownLatch(1);
		int threads = pool.maxPoolSize();
		for (int i = 0; i < threads; i++) {
			executor(pool).execute(() -> Blocking.await(release));
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> pool.getExecutor().getActiveCount() == threads);
		return release;
	}

	/**
	 * A watcher that notes each pool that joins (+name) or leaves (-name).
	 */
	private static PoolRegistry.Watcher telling(List<String> told) {
		return new PoolRegistry.Watcher() {

			@Override
			public void registered(ManagedPool pool) {
				told.add("+" + pool.getName());
			}

			@Override
			public void unregistered(ManagedPool pool) {
				told.add("-" + pool.getName());
			}

		};
	}

	private ManagedPool pool(String name, int min, int max, int size, int weight) {
		ManagedPool pool = this.pools.pool(name, new PoolBounds(min, max), 10, size);
		pool.setWeight(weight);
		return pool;
	}

}
