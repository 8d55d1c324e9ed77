package io.github.poolpilot.task;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import io.github.poolpilot.pool.InvalidPoolSizeException;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;

import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.core.task.TaskRejectedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * The contract run against a {@link ManagedSimpleAsyncTaskExecutor}, the managed pool
 * Spring Boot's virtual-thread {@code applicationTaskExecutor} becomes, its concurrency
 * limit its max-threads and registered as an application's pools are. The tests
 * overridden here pin its deliberate differences; docs/guarantees.md lists them with
 * their reasons.
 *
 * @author poolpilot authors
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class VirtualManagedSimpleAsyncTaskExecutorContractTests extends SimpleAsyncTaskExecutorContract {

	private static final AtomicInteger names = new AtomicInteger();

	private final PoolRegistry registry = new PoolRegistry(null);

	@Override
	SimpleAsyncTaskExecutor newExecutor() {
		ManagedSimpleAsyncTaskExecutor executor = new ManagedSimpleAsyncTaskExecutor();
		executor.setPoolName("contract-" + names.incrementAndGet());
		executor.setRegistry(this.registry);
		return executor;
	}

	@Override
	void initialize(SimpleAsyncTaskExecutor executor) {
		((ManagedSimpleAsyncTaskExecutor) executor).afterPropertiesSet();
	}

	/**
	 * Difference: a caller is never blocked: a task beyond the limit waits in the pool's
	 * bounded queue, and is refused once the queue is full.
	 */
	@Override
	@Test
	void aTaskBeyondTheConcurrencyLimitWaitsForARunningOneToEnd() {
		ManagedSimpleAsyncTaskExecutor executor = managed((settings) -> {
			settings.setConcurrencyLimit(1);
			settings.setQueueCapacity(1);
		});
		occupy(executor);
		Task beyond = new Task();
		executor.execute(beyond);
		assertThat(executor.getManagedExecutor().getQueueSize()).isOne();
		assertThatExceptionOfType(TaskRejectedException.class).isThrownBy(() -> executor.execute(new Task()));
		assertThat(beyond.ran()).isFalse();
		this.release.countDown();
		await().atMost(WAIT).until(beyond::ran);
	}

	/**
	 * Difference: a task beyond the limit waits in the pool's bounded queue whatever
	 * {@code reject-tasks-when-limit-reached} says; the queue's capacity
	 * ({@code poolpilot.existing-executors.queue-capacity}) says how many may wait.
	 */
	@Override
	@Test
	void aTaskBeyondTheConcurrencyLimitIsRefusedWhenTheExecutorIsToldTo() {
		ManagedSimpleAsyncTaskExecutor executor = managed((settings) -> {
			settings.setConcurrencyLimit(1);
			settings.setRejectTasksWhenLimitReached(true);
		});
		occupy(executor);
		Task beyond = new Task();
		executor.execute(beyond);
		assertThat(executor.getManagedExecutor().getQueueSize()).isOne();
		this.release.countDown();
		await().atMost(WAIT).until(beyond::ran);
	}

	/**
	 * Difference: a managed pool runs at least one task at a time: a limit of 0, which
	 * makes Spring's executor refuse every task, is refused when the pool starts, naming
	 * what is allowed. (Spring Boot's {@code applicationTaskExecutor} with such a limit
	 * is left unmanaged.)
	 */
	@Override
	@Test
	void aConcurrencyLimitOfZeroRefusesEveryTask() {
		ManagedSimpleAsyncTaskExecutor executor = (ManagedSimpleAsyncTaskExecutor) newExecutor();
		executor.setConcurrencyLimit(SimpleAsyncTaskExecutor.NO_CONCURRENCY);
		assertThatIllegalStateException().isThrownBy(executor::afterPropertiesSet)
			.withMessageMatching("concurrency limit 0 of pool 'contract-\\d+' would refuse every task "
					+ "\\(allowed: 1 or more, or the pool's bounds\\)");
	}

	/**
	 * A concurrency limit set while the pool runs resizes it through its checks: within
	 * its bounds (by default from 1 to the limit it started with), refused beyond them
	 * naming what is allowed, changing nothing.
	 */
	@Test
	void aConcurrencyLimitSetWhileRunningResizesThePoolThroughItsChecks() {
		ManagedSimpleAsyncTaskExecutor executor = managed((settings) -> settings.setConcurrencyLimit(4));
		executor.setConcurrencyLimit(2);
		assertThat(executor.getManagedExecutor().getPool().maxPoolSize()).isEqualTo(2);
		assertThat(executor.getConcurrencyLimit()).isEqualTo(2);
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> executor.setConcurrencyLimit(5))
			.withMessageContaining("above its max-threads 4 (allowed: 1 to 4)");
		assertThat(executor.getConcurrencyLimit()).isEqualTo(2);
		occupy(executor);
		occupy(executor);
		Task third = new Task();
		executor.execute(third);
		assertThat(executor.getManagedExecutor().getQueueSize()).isOne();
		assertThat(third.ran()).isFalse();
		this.release.countDown();
		await().atMost(WAIT).until(third::ran);
	}

	/**
	 * A concurrency limit within the pool's bounds is refused when the thread budget has
	 * no room for it, naming what is allowed, and nothing changes: the budget counts a
	 * virtual pool's limit as threads.
	 */
	@Test
	void aConcurrencyLimitOverTheThreadBudgetIsRefused() {
		ManagedSimpleAsyncTaskExecutor executor = (ManagedSimpleAsyncTaskExecutor) newExecutor();
		executor.setRegistry(new PoolRegistry(3));
		executor.setConcurrencyLimit(2);
		executor.afterPropertiesSet();
		stopAfterTest(executor::close);
		executor.setBounds(new PoolBounds(1, 8));
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> executor.setConcurrencyLimit(5))
			.withMessageContaining("over the budget of 3 threads (allowed: at most 3)");
		assertThat(executor.getConcurrencyLimit()).isEqualTo(2);
		assertThat(executor.getManagedExecutor().getPool().maxPoolSize()).isEqualTo(2);
		executor.setConcurrencyLimit(3);
		assertThat(executor.getManagedExecutor().getPool().maxPoolSize()).isEqualTo(3);
	}

	/**
	 * A pool whose min-threads do not fit what the budget has left when it starts is
	 * refused, and leaves no pool behind to take tasks outside the budget: it stays not
	 * started, and starting it again is refused again.
	 */
	@Test
	void aPoolTheBudgetRefusesAtStartTakesNoTask() {
		PoolRegistry budgetOfTwo = new PoolRegistry(2);
		ManagedSimpleAsyncTaskExecutor first = (ManagedSimpleAsyncTaskExecutor) newExecutor();
		first.setRegistry(budgetOfTwo);
		first.setConcurrencyLimit(2);
		first.afterPropertiesSet();
		stopAfterTest(first::close);
		budgetOfTwo.budget().fit();
		ManagedSimpleAsyncTaskExecutor late = (ManagedSimpleAsyncTaskExecutor) newExecutor();
		late.setRegistry(budgetOfTwo);
		late.setBounds(new PoolBounds(2, 2));
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(late::afterPropertiesSet)
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("minThreads"));
		stopAfterTest(late::close);
		assertThatIllegalStateException().isThrownBy(() -> late.execute(new Task()));
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(late::afterPropertiesSet);
		assertThat(budgetOfTwo.pools()).hasSize(1);
	}

	/**
	 * The running pool's queue keeps the capacity it was made with: a different one is
	 * refused, naming the pool and what is allowed, and the queue still holds as many
	 * tasks as before.
	 */
	@Test
	void aQueueCapacitySetWhileRunningIsRefusedUnlessUnchanged() {
		ManagedSimpleAsyncTaskExecutor executor = managed((settings) -> {
			settings.setConcurrencyLimit(1);
			settings.setQueueCapacity(1);
		});
		assertThatIllegalArgumentException().isThrownBy(() -> executor.setQueueCapacity(2))
			.withMessageMatching("queue capacity 2 of pool 'contract-\\d+' cannot be set while the pool runs, "
					+ "its queue was made for 1 tasks \\(allowed: 1; set it before the pool starts\\)");
		executor.setQueueCapacity(1);
		occupy(executor);
		executor.execute(new Task());
		assertThatExceptionOfType(TaskRejectedException.class).isThrownBy(() -> executor.execute(new Task()));
		assertThat(executor.getManagedExecutor().getQueueCapacity()).isOne();
	}

	private ManagedSimpleAsyncTaskExecutor managed(Consumer<ManagedSimpleAsyncTaskExecutor> settings) {
		return (ManagedSimpleAsyncTaskExecutor) executor(
				(executor) -> settings.accept((ManagedSimpleAsyncTaskExecutor) executor));
	}

}
