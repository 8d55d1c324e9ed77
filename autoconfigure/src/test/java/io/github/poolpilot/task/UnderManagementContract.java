package io.github.poolpilot.task;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.measure.RejectionReason;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRejectedException;
import io.github.poolpilot.testsupport.Blocking;

import org.springframework.core.task.TaskRejectedException;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * The contract run against an executor under management, a declared pool or an
 * application's own executor: the tests overridden here pin the deliberate differences
 * they all share; docs/guarantees.md lists them with their reasons.
 *
 * @author poolpilot authors
 */
abstract class UnderManagementContract extends ThreadPoolTaskExecutorContract {

	/**
	 * A refusal names the pool, what is wrong and what is allowed.
	 */
	@Override
	void explains(IllegalArgumentException refusal) {
		assertThat(refusal.getMessage()).containsPattern(" of pool '[^']+'").contains("allowed");
	}

	@Test
	void aRefusalIsATaskRejectedExceptionCausedByThePoolsRejection() {
		ThreadPoolTaskExecutor executor = executor((settings) -> settings.setQueueCapacity(1));
		occupy(executor);
		executor.execute(new Task());
		Task refused = new Task();
		assertThatExceptionOfType(TaskRejectedException.class).isThrownBy(() -> executor.execute(refused))
			.havingCause()
			.isInstanceOfSatisfying(PoolRejectedException.class,
					(rejection) -> assertThat(rejection.getReason()).isEqualTo(RejectionReason.QUEUE_FULL));
		assertThatExceptionOfType(TaskRejectedException.class).isThrownBy(() -> executor.submit(refused))
			.withCauseInstanceOf(PoolRejectedException.class);
		assertThatExceptionOfType(TaskRejectedException.class).isThrownBy(() -> executor.submitCompletable(refused))
			.withCauseInstanceOf(PoolRejectedException.class);
	}

	/**
	 * Difference: the running pool's queue keeps the capacity it was made with, and so
	 * does Spring's, whose getter then reads a capacity the queue does not have: a
	 * different one is refused, naming the pool and what is allowed, and the getter still
	 * reads the live queue's.
	 */
	@Override
	@Test
	void aQueueCapacitySetWhileRunningKeepsTheLiveQueue() {
		ThreadPoolTaskExecutor executor = executor((settings) -> settings.setQueueCapacity(5));
		assertThatIllegalArgumentException().isThrownBy(() -> executor.setQueueCapacity(6))
			.satisfies(this::explains)
			.withMessageContaining("cannot be set while the pool runs, its queue was made for 5 tasks (allowed: 5;");
		assertThat(executor.getQueueCapacity()).isEqualTo(5);
		assertThat(executor.getThreadPoolExecutor().getQueue().remainingCapacity()).isEqualTo(5);
		executor.setQueueCapacity(5);
		assertThat(executor.getQueueCapacity()).isEqualTo(5);
	}

	/**
	 * Difference: the bean's size setters keep core ≤ max by moving the other size, as
	 * the endpoint does: the tuner changes a pool's sizes under the application's feet,
	 * so a setter checked against the other size's current value would succeed or fail by
	 * what the tuner last did. The {@code ThreadPoolExecutor}'s own setters keep its
	 * contract and refuse.
	 */
	@Override
	@Test
	void aCoreSizeAboveTheMaximumIsRefused() {
		ThreadPoolTaskExecutor executor = executor((settings) -> settings.setMaxPoolSize(2));
		executor.setCorePoolSize(3);
		assertThat(executor.getCorePoolSize()).isEqualTo(3);
		assertThat(executor.getMaxPoolSize()).isEqualTo(3);
		assertThat(executor.getThreadPoolExecutor().getMaximumPoolSize()).isEqualTo(3);
	}

	/**
	 * Difference: as above, a maximum below the core size lowers the core size with it.
	 */
	@Override
	@Test
	void aMaximumBelowTheCoreSizeIsRefused() {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
			settings.setCorePoolSize(2);
			settings.setMaxPoolSize(2);
		});
		executor.setMaxPoolSize(1);
		assertThat(executor.getCorePoolSize()).isOne();
		assertThat(executor.getMaxPoolSize()).isOne();
		assertThat(executor.getThreadPoolExecutor().getCorePoolSize()).isOne();
	}

	/**
	 * Difference: the bean answers the live pool's sizes, whoever changed them (its
	 * {@code ThreadPoolExecutor}, the tuner, the endpoint).
	 */
	@Override
	@Test
	void sizesChangedOnTheThreadPoolExecutorAreReadFromIt() {
		ThreadPoolTaskExecutor executor = executor((settings) -> settings.setMaxPoolSize(2));
		executor.getThreadPoolExecutor().setMaximumPoolSize(4);
		executor.getThreadPoolExecutor().setCorePoolSize(3);
		assertThat(executor.getMaxPoolSize()).isEqualTo(4);
		assertThat(executor.getCorePoolSize()).isEqualTo(3);
	}

	/**
	 * Difference: a {@code CompletableFuture} is handed to the executor inside a task of
	 * the pool's that is a {@code Future} too, so Spring cancels a queued one: its caller
	 * learns that it will never run instead of waiting forever.
	 */
	@Override
	@Test
	void aQueuedCompletableIsLeftIncompleteWhenTheExecutorIsDestroyedWithoutWaiting() throws Exception {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
		});
		occupy(executor);
		Task queuedTask = new Task();
		CompletableFuture<String> queued = executor.submitCompletable(queuedTask.asCallable());
		executor.destroy();
		assertThat(executor.getThreadPoolExecutor().awaitTermination(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		assertThat(queued).isCancelled();
		assertThat(queuedTask.ran()).isFalse();
	}

	/**
	 * Return the managed pool behind an executor under management.
	 * @param executor the executor, initialized
	 * @return its pool
	 */
	abstract ManagedPool pool(ThreadPoolTaskExecutor executor);

	/**
	 * The bean's size setters read the size they keep under the budget's lock, as the
	 * endpoint does: one set while the tuner resizes the pool keeps the other size the
	 * tuner gave it, rather than the one it had before.
	 */
	@Test
	void aSizeSetWhileThePoolIsResizedKeepsTheOtherSizeItWasGiven() throws Exception {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
			settings.setMaxPoolSize(8);
			settings.setCorePoolSize(2);
		});
		ManagedPool pool = pool(executor);
		whileResizedTo(pool, 2, 4, () -> executor.setCorePoolSize(3));
		assertThat(executor.getCorePoolSize()).isEqualTo(3);
		assertThat(executor.getMaxPoolSize()).as("the maximum size the tuner gave it").isEqualTo(4);
		whileResizedTo(pool, 1, 6, () -> executor.setMaxPoolSize(7));
		assertThat(executor.getMaxPoolSize()).isEqualTo(7);
		assertThat(executor.getCorePoolSize()).as("the core size the tuner gave it").isEqualTo(1);
	}

	/**
	 * The setters of the bean's {@code ThreadPoolExecutor} read the size they keep under
	 * the budget's lock too: one set while the tuner resizes the pool keeps the other
	 * size the tuner gave it.
	 */
	@Test
	void aSizeSetOnTheThreadPoolExecutorWhileThePoolIsResizedKeepsTheOtherSizeItWasGiven() throws Exception {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
			settings.setMaxPoolSize(8);
			settings.setCorePoolSize(2);
		});
		ManagedPool pool = pool(executor);
		ThreadPoolExecutor live = executor.getThreadPoolExecutor();
		whileResizedTo(pool, 2, 4, () -> live.setCorePoolSize(3));
		assertThat(live.getCorePoolSize()).isEqualTo(3);
		assertThat(live.getMaximumPoolSize()).as("the maximum size the tuner gave it").isEqualTo(4);
		whileResizedTo(pool, 1, 6, () -> live.setMaximumPoolSize(7));
		assertThat(live.getMaximumPoolSize()).isEqualTo(7);
		assertThat(live.getCorePoolSize()).as("the core size the tuner gave it").isEqualTo(1);
	}

	/**
	 * Run a setter while a resize, as the tuner's, holds the budget's lock, the resize
	 * made once the setter waits for the lock.
	 */
	private static void whileResizedTo(ManagedPool pool, int core, int max, Runnable setter)
			throws InterruptedException {
		CountDownLatch resizing = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Thread tuner = new Thread(() -> pool.getBudget().change(() -> {
			resizing.countDown();
			Blocking.await(release);
			pool.resize(core, max);
		}));
		tuner.start();
		resizing.await();
		Thread setting = new Thread(setter);
		setting.start();
		await().atMost(WAIT).until(() -> setting.getState() == Thread.State.BLOCKED);
		release.countDown();
		tuner.join(WAIT.toMillis());
		setting.join(WAIT.toMillis());
		assertThat(setting.isAlive()).isFalse();
	}

}
