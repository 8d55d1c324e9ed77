package io.github.poolpilot.task;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.poolpilot.pool.InvalidPoolSizeException;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * The contract run against a declared pool, a {@link ManagedTaskExecutor}, with bounds
 * wide enough for every size the contract sets (0 to 16 threads) and registered as an
 * application's pools are. The tests overridden here pin the deliberate differences of
 * every {@code ManagedTaskExecutor}, on platform or virtual threads, beyond those of
 * every executor under management ({@link UnderManagementContract}); docs/guarantees.md
 * lists them with their reasons.
 *
 * @author poolpilot authors
 */
@ExtendWith(OutputCaptureExtension.class)
abstract class ManagedTaskExecutorContract extends UnderManagementContract {

	private static final AtomicInteger names = new AtomicInteger();

	final PoolRegistry registry = new PoolRegistry(null);

	/**
	 * Set what a kind of managed executor needs beyond a declared pool's settings.
	 * @param executor the executor, not yet initialized
	 */
	void configure(ManagedTaskExecutor executor) {
	}

	@Override
	ThreadPoolTaskExecutor newExecutor() {
		ManagedTaskExecutor executor = new ManagedTaskExecutor();
		executor.setPoolName("contract-" + names.incrementAndGet());
		executor.setBounds(new PoolBounds(0, 16));
		executor.setRegistry(this.registry);
		configure(executor);
		return executor;
	}

	@Override
	ThreadPoolTaskExecutor initialize(ThreadPoolTaskExecutor executor) {
		executor.initialize();
		return executor;
	}

	@Override
	ManagedPool pool(ThreadPoolTaskExecutor executor) {
		return ((ManagedTaskExecutor) executor).getManagedExecutor().getPool();
	}

	/**
	 * Difference: a pool's queue is bounded, an {@code ArrayBlockingQueue} of 1000 tasks
	 * unless told otherwise, so that overload is refused rather than left to wait without
	 * bound.
	 */
	@Override
	@Test
	void theQueueIsUnboundedByDefault() {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
		});
		assertThat(executor.getQueueCapacity()).isEqualTo(ManagedTaskExecutor.DEFAULT_QUEUE_CAPACITY);
		assertThat(executor.getThreadPoolExecutor().getQueue()).isInstanceOf(ArrayBlockingQueue.class);
		assertThat(executor.getThreadPoolExecutor().getQueue().remainingCapacity())
			.isEqualTo(ManagedTaskExecutor.DEFAULT_QUEUE_CAPACITY);
	}

	/**
	 * Difference: a pool has a queue, of at least one task; a capacity of 0 is refused,
	 * naming what is allowed.
	 */
	@Override
	@Test
	void aQueueCapacityOfZeroHandsEachTaskStraightToAThread() {
		ThreadPoolTaskExecutor executor = newExecutor();
		assertThatIllegalArgumentException().isThrownBy(() -> executor.setQueueCapacity(0))
			.withMessage("queueCapacity of a managed pool must be at least 1 but was 0 "
					+ "(allowed: 1 or more; a managed pool's queue is bounded, with no hand-off)");
		assertThat(executor.getQueueCapacity()).isEqualTo(ManagedTaskExecutor.DEFAULT_QUEUE_CAPACITY);
	}

	/**
	 * Difference: core thread time-out is applied to the live pool, as keep-alive is, and
	 * so refused, changing nothing, where the live pool refuses it (without a
	 * keep-alive).
	 */
	@Override
	@Test
	void allowCoreThreadTimeOutTakesEffectAtInitialization() {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
		});
		executor.setAllowCoreThreadTimeOut(true);
		assertThat(executor.getThreadPoolExecutor().allowsCoreThreadTimeOut()).isTrue();
		executor.setAllowCoreThreadTimeOut(false);
		assertThat(executor.getThreadPoolExecutor().allowsCoreThreadTimeOut()).isFalse();
		ThreadPoolTaskExecutor noKeepAlive = executor((settings) -> settings.setKeepAliveSeconds(0));
		assertThatIllegalArgumentException().isThrownBy(() -> noKeepAlive.setAllowCoreThreadTimeOut(true))
			.satisfies(this::explains);
		assertThat(noKeepAlive.getThreadPoolExecutor().allowsCoreThreadTimeOut()).isFalse();
		assertThat(noKeepAlive).hasFieldOrPropertyWithValue("allowCoreThreadTimeOut", false);
	}

	/**
	 * Difference: the pools' threads together stay within the thread budget: a size
	 * within the pool's bounds is refused when the budget has no room for it, naming what
	 * is allowed, and nothing changes.
	 */
	@Test
	void aSizeOverTheThreadBudgetIsRefused() {
		ManagedTaskExecutor executor = (ManagedTaskExecutor) newExecutor();
		PoolRegistry budgetOfThree = new PoolRegistry(3);
		executor.setRegistry(budgetOfThree);
		executor.setCorePoolSize(1);
		executor.setMaxPoolSize(2);
		executor.initialize();
		stopAfterTest(executor::destroy);
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> executor.setMaxPoolSize(5))
			.withMessageContaining("over the budget of 3 threads (allowed: at most 3)");
		assertThat(executor.getMaxPoolSize()).isEqualTo(2);
		assertThat(executor.getThreadPoolExecutor().getMaximumPoolSize()).isEqualTo(2);
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> executor.setCorePoolSize(5))
			.withMessageContaining("over the budget of 3 threads (allowed: at most 3)");
		assertThatExceptionOfType(InvalidPoolSizeException.class)
			.isThrownBy(() -> executor.getThreadPoolExecutor().setMaximumPoolSize(5))
			.withMessageContaining("over the budget of 3 threads (allowed: at most 3)");
		assertThat(executor.getCorePoolSize()).isOne();
		assertThat(executor.getMaxPoolSize()).isEqualTo(2);
		assertThat(executor.getThreadPoolExecutor().getCorePoolSize()).isOne();
		assertThat(executor.getThreadPoolExecutor().getMaximumPoolSize()).isEqualTo(2);
		executor.setMaxPoolSize(3);
		assertThat(executor.getMaxPoolSize()).isEqualTo(3);
	}

	/**
	 * A pool shut down while its tasks still run leaves the registry at once, but its
	 * threads count against the budget until they have finished: another pool grows into
	 * them only then.
	 */
	@Test
	void threadsOfAPoolShutDownCountAgainstTheBudgetUntilTheirTasksEnd() {
		PoolRegistry budgetOfThree = new PoolRegistry(3);
		ManagedTaskExecutor first = (ManagedTaskExecutor) newExecutor();
		first.setRegistry(budgetOfThree);
		first.setCorePoolSize(2);
		first.setMaxPoolSize(2);
		first.setWaitForTasksToCompleteOnShutdown(true);
		first.initialize();
		stopAfterTest(first::destroy);
		ManagedTaskExecutor second = (ManagedTaskExecutor) newExecutor();
		second.setRegistry(budgetOfThree);
		second.setCorePoolSize(1);
		second.setMaxPoolSize(1);
		second.initialize();
		stopAfterTest(second::destroy);
		occupy(first);
		occupy(first);
		first.destroy();
		assertThat(budgetOfThree.pools()).containsExactly(pool(second));
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> second.setMaxPoolSize(3))
			.withMessageContaining(
					"would bring the pools' threads to 5, over the budget of 3 threads (allowed: at most 1)");
		assertThat(second.getMaxPoolSize()).isOne();
		this.release.countDown();
		await().atMost(WAIT).until(() -> first.getThreadPoolExecutor().isTerminated());
		second.setMaxPoolSize(3);
		assertThat(second.getThreadPoolExecutor().getMaximumPoolSize()).isEqualTo(3);
	}

	/**
	 * A pool whose min-threads do not fit what the budget has left when it starts is
	 * refused, and leaves nothing behind: no thread, not even a prestarted core thread,
	 * and no pool to take tasks outside the budget.
	 */
	@Test
	void aPoolTheBudgetRefusesAtStartLeavesNoThreadAndTakesNoTask() {
		PoolRegistry budgetOfTwo = new PoolRegistry(2);
		ManagedTaskExecutor first = (ManagedTaskExecutor) newExecutor();
		first.setRegistry(budgetOfTwo);
		first.setCorePoolSize(2);
		first.setMaxPoolSize(2);
		first.initialize();
		stopAfterTest(first::destroy);
		budgetOfTwo.budget().fit();
		ManagedTaskExecutor late = (ManagedTaskExecutor) newExecutor();
		String prefix = "refused-" + names.incrementAndGet() + "-";
		late.setThreadNamePrefix(prefix);
		late.setRegistry(budgetOfTwo);
		late.setBounds(new PoolBounds(2, 2));
		late.setCorePoolSize(2);
		late.setMaxPoolSize(2);
		late.setPrestartAllCoreThreads(true);
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(late::initialize)
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("minThreads"));
		stopAfterTest(() -> {
			try {
				late.getManagedExecutor().shutdownNow();
			}
			catch (IllegalStateException ex) {
				// Not initialized: nothing to stop.
			}
		});
		assertThat(budgetOfTwo.pools()).hasSize(1);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(Thread.getAllStackTraces().keySet())
				.noneMatch((thread) -> thread.getName().startsWith(prefix) && thread.isAlive()));
		assertThatIllegalStateException().isThrownBy(() -> late.execute(() -> {
		}));
	}

	/**
	 * A setting refused when the pool starts names the pool, what is wrong and what is
	 * allowed.
	 */
	@Override
	void explainsAtStart(IllegalArgumentException refusal) {
		explains(refusal);
	}

	/**
	 * Difference: what is left when the await-termination runs out is cancelled (queued
	 * tasks) and interrupted (running ones), counted as abandoned and logged, so that
	 * nothing runs on unseen after the application closed.
	 */
	@Override
	@Test
	void whenTheAwaitTerminationRunsOutDestroyReturnsAndTheTasksRunOn() throws Exception {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
			settings.setWaitForTasksToCompleteOnShutdown(true);
			settings.setAwaitTerminationMillis(1);
		});
		CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
		CountDownLatch started = new CountDownLatch(1);
		executor.execute(() -> {
			started.countDown();
			awaitRelease();
			interrupted.complete(Thread.currentThread().isInterrupted());
		});
		Task queued = new Task();
		executor.execute(queued);
		assertThat(started.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		executor.destroy();
		assertThat(interrupted.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		await().atMost(WAIT).until(() -> executor.getThreadPoolExecutor().isTerminated());
		assertThat(queued.ran()).isFalse();
	}

	/**
	 * What the await-termination leaves is told: each queued task's future cancelled, the
	 * queued tasks counted as abandoned, and the log saying how many were cancelled and
	 * interrupted.
	 */
	@Test
	void whatTheAwaitTerminationLeavesIsCancelledCountedAndLogged(CapturedOutput output) throws Exception {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
			settings.setCorePoolSize(1);
			settings.setMaxPoolSize(1);
			settings.setWaitForTasksToCompleteOnShutdown(true);
			settings.setAwaitTerminationMillis(1);
		});
		CountDownLatch started = new CountDownLatch(1);
		executor.execute(() -> {
			started.countDown();
			awaitRelease();
		});
		List<Future<?>> queued = List.of(executor.submit(new Task()), executor.submit(new Task()));
		assertThat(started.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		executor.destroy();
		assertThat(queued).allMatch(Future::isCancelled);
		await().atMost(WAIT).until(() -> executor.getThreadPoolExecutor().isTerminated());
		ManagedPool pool = ((ManagedTaskExecutor) executor).getManagedExecutor().getPool();
		assertThat(pool.getRecorder().taskCounts().abandoned()).isEqualTo(2);
		assertThat(output).contains("Pool '" + pool.getName() + "'")
			.contains("cancelled 2 queued and interrupted 1 running tasks");
	}

	/**
	 * A weight below 1 is refused as it is set, naming what is allowed, and the pool
	 * starts with the weight it had.
	 */
	@Test
	void aWeightBelowOneIsRefusedAtOnceAndChangesNothing() {
		ManagedTaskExecutor executor = (ManagedTaskExecutor) executor((settings) -> assertThatIllegalArgumentException()
			.isThrownBy(() -> ((ManagedTaskExecutor) settings).setWeight(0))
			.withMessageMatching(
					"weight of pool 'contract-\\d+' must be at least 1 but was 0 \\(allowed: 1 or more\\)"));
		assertThat(executor.getManagedExecutor().getPool().getWeight()).isOne();
	}

	/**
	 * The bounds and the weight set on a running pool apply to it, the bounds moving its
	 * sizes into them; a weight refused changes nothing.
	 */
	@Test
	void boundsAndWeightSetWhileRunningApplyToThePool() {
		ManagedTaskExecutor executor = (ManagedTaskExecutor) executor((settings) -> {
			settings.setCorePoolSize(3);
			settings.setMaxPoolSize(4);
		});
		ManagedPool pool = executor.getManagedExecutor().getPool();
		executor.setWeight(3);
		assertThat(pool.getWeight()).isEqualTo(3);
		assertThatIllegalArgumentException().isThrownBy(() -> executor.setWeight(0));
		assertThat(pool.getWeight()).isEqualTo(3);
		executor.setBounds(new PoolBounds(1, 2));
		assertThat(pool.getBounds()).isEqualTo(new PoolBounds(1, 2));
		assertThat(executor.getCorePoolSize()).isEqualTo(2);
		assertThat(executor.getMaxPoolSize()).isEqualTo(2);
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> executor.setMaxPoolSize(3));
	}

	/**
	 * Difference: a pool's sizes stay within its bounds, by default from 1 (0 for a core
	 * size of 0) to the maximum size it was made with; an application that sets wider
	 * bounds ({@code min-threads}, {@code max-threads}) can move them further.
	 */
	@Test
	void byDefaultItsSizesStayWithinTheSizesItWasMadeWith() {
		ManagedTaskExecutor executor = new ManagedTaskExecutor();
		executor.setPoolName("bounded");
		configure(executor);
		executor.setCorePoolSize(1);
		executor.setMaxPoolSize(2);
		executor.initialize();
		stopAfterTest(executor::destroy);
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> executor.setMaxPoolSize(5))
			.withMessage("maxPoolSize 5 of pool 'bounded' is above its max-threads 2 (allowed: 1 to 2)");
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> executor.setCorePoolSize(0))
			.withMessage("corePoolSize 0 of pool 'bounded' is below its min-threads 1 (allowed: 1 to 2)");
		assertThat(executor.getCorePoolSize()).isOne();
		assertThat(executor.getMaxPoolSize()).isEqualTo(2);
	}

}
