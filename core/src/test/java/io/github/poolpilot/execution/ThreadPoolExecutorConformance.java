package io.github.poolpilot.execution;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.testsupport.Blocking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * {@link ThreadPoolExecutor}'s contract, written once and run against every executor that
 * answers to it: a plain {@code ThreadPoolExecutor} (the reference,
 * {@link ThreadPoolExecutorConformanceTests}), the {@link ManagedExecutor}
 * ({@link ManagedExecutorConformanceTests}) and the {@code ThreadPoolExecutor} view of
 * the {@link VirtualManagedExecutor} ({@link VirtualManagedExecutorConformanceTests}). A
 * deliberate difference is a test of the same name overridden in the executor's class,
 * which pins what that executor does instead; docs/guarantees.md lists them.
 * <p>
 * Nothing here depends on the machine's speed: tasks block on latches, and what happens
 * later is awaited with wide bounds.
 *
 * @author poolpilot authors
 */
abstract class ThreadPoolExecutorConformance {

	static final Duration WAIT = Duration.ofSeconds(10);

	private final List<ThreadPoolExecutor> executors = new ArrayList<>();

	final CountDownLatch release = new CountDownLatch(1);

	final Hooks hooks = new Hooks();

	/**
	 * Make an executor from the settings whose {@code beforeExecute},
	 * {@code afterExecute} and {@code terminated} hooks report to {@link #hooks}.
	 * @param settings the settings
	 * @return the executor, as a {@code ThreadPoolExecutor}
	 */
	abstract ThreadPoolExecutor newExecutor(Settings settings);

	@AfterEach
	void stopExecutors() throws InterruptedException {
		this.release.countDown();
		for (ThreadPoolExecutor executor : this.executors) {
			executor.shutdownNow();
			assertThat(executor.awaitTermination(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		}
	}

	@Test
	void sizesAreReadAndChangedWithTheCoreSizeAtMostTheMaximum() {
		ThreadPoolExecutor executor = executor(2, 4, 10);
		assertThat(executor.getCorePoolSize()).isEqualTo(2);
		assertThat(executor.getMaximumPoolSize()).isEqualTo(4);
		executor.setMaximumPoolSize(6);
		executor.setCorePoolSize(5);
		assertThat(executor.getCorePoolSize()).isEqualTo(5);
		assertThat(executor.getMaximumPoolSize()).isEqualTo(6);
		assertThatIllegalArgumentException().isThrownBy(() -> executor.setCorePoolSize(7));
		assertThatIllegalArgumentException().isThrownBy(() -> executor.setMaximumPoolSize(4));
		assertThatIllegalArgumentException().isThrownBy(() -> executor.setCorePoolSize(-1));
		assertThat(executor.getCorePoolSize()).isEqualTo(5);
		assertThat(executor.getMaximumPoolSize()).isEqualTo(6);
	}

	@Test
	void aTaskStartsACoreThreadThenWaitsInTheQueueThenGrowsThePoolToItsMaximum() {
		ThreadPoolExecutor executor = executor(1, 2, 1);
		executor.execute(this::awaitRelease);
		await().atMost(WAIT).until(() -> executor.getActiveCount() == 1);
		assertThat(executor.getPoolSize()).isEqualTo(1);
		Task queued = new Task();
		executor.execute(queued);
		assertThat(executor.getQueue()).hasSize(1);
		assertThat(executor.getPoolSize()).isEqualTo(1);
		executor.execute(this::awaitRelease);
		await().atMost(WAIT).until(() -> executor.getActiveCount() == 2);
		assertThat(executor.getPoolSize()).isEqualTo(2);
		assertThat(executor.getLargestPoolSize()).isEqualTo(2);
		assertThat(executor.getTaskCount()).isEqualTo(3);
		assertThatExceptionOfType(RejectedExecutionException.class).isThrownBy(() -> executor.execute(new Task()));
		this.release.countDown();
		await().atMost(WAIT).until(() -> executor.getCompletedTaskCount() == 3);
		assertThat(queued.ran()).isTrue();
		assertThat(executor.getTaskCount()).isEqualTo(3);
	}

	@Test
	void prestartingStartsCoreThreadsBeforeAnyTask() {
		ThreadPoolExecutor executor = executor(2, 3, 10);
		assertThat(executor.getPoolSize()).isZero();
		assertThat(executor.prestartCoreThread()).isTrue();
		assertThat(executor.getPoolSize()).isEqualTo(1);
		assertThat(executor.prestartAllCoreThreads()).isEqualTo(1);
		assertThat(executor.getPoolSize()).isEqualTo(2);
		assertThat(executor.prestartCoreThread()).isFalse();
		await().atMost(WAIT).until(() -> executor.getActiveCount() == 0);
		assertThat(executor.getPoolSize()).isEqualTo(2);
	}

	@Test
	void threadsAboveTheCoreSizeEndOnceIdleForTheKeepAliveTime() {
		ThreadPoolExecutor executor = newTracked(new Settings(1, 2, 1).keepAlive(Duration.ofMillis(100)));
		assertThat(executor.getKeepAliveTime(TimeUnit.MILLISECONDS)).isEqualTo(100);
		fillTwoThreads(executor);
		this.release.countDown();
		await().atMost(WAIT).until(() -> executor.getCompletedTaskCount() == 3);
		await().atMost(WAIT).until(() -> executor.getPoolSize() == 1);
		assertThat(executor.allowsCoreThreadTimeOut()).isFalse();
	}

	@Test
	void coreThreadsTimeOutOnlyWhenAllowed() {
		ThreadPoolExecutor executor = newTracked(new Settings(1, 1, 1).keepAlive(Duration.ofMillis(100)));
		executor.allowCoreThreadTimeOut(true);
		assertThat(executor.allowsCoreThreadTimeOut()).isTrue();
		Task task = new Task();
		executor.execute(task);
		await().atMost(WAIT).until(task::ran);
		await().atMost(WAIT).until(() -> executor.getPoolSize() == 0);
		ThreadPoolExecutor noKeepAlive = newTracked(new Settings(1, 1, 1).keepAlive(Duration.ZERO));
		assertThatIllegalArgumentException().isThrownBy(() -> noKeepAlive.allowCoreThreadTimeOut(true));
		assertThat(noKeepAlive.allowsCoreThreadTimeOut()).isFalse();
	}

	@Test
	void aKeepAliveIsNeverNegativeNorZeroWhileCoreThreadsTimeOut() {
		ThreadPoolExecutor executor = newTracked(new Settings(1, 2, 1).keepAlive(Duration.ofSeconds(5)));
		assertThatIllegalArgumentException().isThrownBy(() -> executor.setKeepAliveTime(-1, TimeUnit.SECONDS));
		assertThat(executor.getKeepAliveTime(TimeUnit.SECONDS)).isEqualTo(5);
		executor.allowCoreThreadTimeOut(true);
		assertThatIllegalArgumentException().isThrownBy(() -> executor.setKeepAliveTime(0, TimeUnit.SECONDS));
		assertThat(executor.getKeepAliveTime(TimeUnit.SECONDS)).isEqualTo(5);
		assertThat(executor.allowsCoreThreadTimeOut()).isTrue();
		executor.allowCoreThreadTimeOut(false);
		executor.setKeepAliveTime(0, TimeUnit.SECONDS);
		assertThatIllegalArgumentException().isThrownBy(() -> executor.allowCoreThreadTimeOut(true));
		assertThat(executor.allowsCoreThreadTimeOut()).isFalse();
		assertThat(executor.getKeepAliveTime(TimeUnit.NANOSECONDS)).isZero();
	}

	@Test
	void executeRunsTheTaskOnAPoolThread() {
		ThreadPoolExecutor executor = executor(1, 1, 1);
		Task task = new Task();
		executor.execute(task);
		await().atMost(WAIT).until(task::ran);
		assertThat(task.thread()).isNotSameAs(Thread.currentThread());
		assertThatExceptionOfType(NullPointerException.class).isThrownBy(() -> executor.execute(null));
	}

	@Test
	void submitReturnsAFutureOfTheTasksResultOrFailure() throws Exception {
		ThreadPoolExecutor executor = executor(1, 1, 5);
		assertThat(executor.submit(() -> "called").get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("called");
		assertThat(executor.submit(new Task(), "given").get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("given");
		assertThat(executor.submit(new Task()).get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isNull();
		Future<Object> failing = executor.submit(() -> {
			throw new IllegalStateException("downstream down");
		});
		assertThatExceptionOfType(ExecutionException.class)
			.isThrownBy(() -> failing.get(WAIT.toMillis(), TimeUnit.MILLISECONDS))
			.withCauseInstanceOf(IllegalStateException.class);
	}

	@Test
	void invokeAllWaitsForEveryTaskAndKeepsTheirOrder() throws Exception {
		ThreadPoolExecutor executor = executor(2, 2, 5);
		List<Callable<String>> tasks = List.of(() -> "a", () -> {
			throw new IllegalStateException("b failed");
		}, () -> "c");
		List<Future<String>> futures = executor.invokeAll(tasks);
		assertThat(futures).hasSize(3).allMatch(Future::isDone);
		assertThat(futures.get(0).get()).isEqualTo("a");
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> futures.get(1).get())
			.withCauseInstanceOf(IllegalStateException.class);
		assertThat(futures.get(2).get()).isEqualTo("c");
	}

	@Test
	void invokeAllWithATimeoutCancelsTheTasksNotDoneInTime() throws Exception {
		ThreadPoolExecutor executor = executor(2, 2, 5);
		CountDownLatch quickDone = new CountDownLatch(1);
		List<Callable<String>> tasks = List.of(() -> {
			quickDone.countDown();
			return "quick";
		}, () -> {
			awaitRelease();
			return "slow";
		});
		// The quick task has the whole timeout to end, a wide bound; the slow one never
		// ends before it.
		List<Future<String>> futures = executor.invokeAll(tasks, 1, TimeUnit.SECONDS);
		assertThat(quickDone.getCount()).isZero();
		assertThat(futures.get(0).get()).isEqualTo("quick");
		assertThat(futures.get(1).isCancelled()).isTrue();
		assertThatExceptionOfType(CancellationException.class).isThrownBy(() -> futures.get(1).get());
	}

	@Test
	void invokeAnyReturnsTheResultOfATaskThatSucceeded() throws Exception {
		ThreadPoolExecutor executor = executor(2, 2, 5);
		List<Callable<String>> oneSucceeds = List.of(() -> {
			throw new IllegalStateException("first failed");
		}, () -> "second");
		String result = executor.invokeAny(oneSucceeds);
		assertThat(result).isEqualTo("second");
		List<Callable<String>> allFail = List.of(() -> {
			throw new IllegalStateException("all failed");
		});
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> executor.invokeAny(allFail))
			.withCauseInstanceOf(IllegalStateException.class);
		List<Callable<String>> quick = List.of(() -> "in time");
		String inTime = executor.invokeAny(quick, WAIT.toMillis(), TimeUnit.MILLISECONDS);
		assertThat(inTime).isEqualTo("in time");
	}

	@Test
	void theAbortPolicyThrowsAndTheTaskNeverRuns() throws InterruptedException {
		ThreadPoolExecutor executor = newTracked(new Settings(1, 1, 1).policy(new ThreadPoolExecutor.AbortPolicy()));
		fillOneThreadAndTheQueue(executor);
		Task refused = new Task();
		assertThatExceptionOfType(RejectedExecutionException.class).isThrownBy(() -> executor.execute(refused));
		assertThatExceptionOfType(RejectedExecutionException.class).isThrownBy(() -> executor.submit(refused));
		stopGracefully(executor);
		assertThat(refused.ran()).isFalse();
	}

	@Test
	void theCallerRunsPolicyRunsTheRefusedTaskInTheCallerUnlessShutDown() throws InterruptedException {
		ThreadPoolExecutor executor = newTracked(
				new Settings(1, 1, 1).policy(new ThreadPoolExecutor.CallerRunsPolicy()));
		fillOneThreadAndTheQueue(executor);
		Task refused = new Task();
		executor.execute(refused);
		assertThat(refused.thread()).isSameAs(Thread.currentThread());
		executor.shutdown();
		Task afterShutdown = new Task();
		executor.execute(afterShutdown);
		stopGracefully(executor);
		assertThat(afterShutdown.ran()).isFalse();
	}

	@Test
	void theDiscardPolicyDropsTheRefusedTaskSilently() throws InterruptedException {
		ThreadPoolExecutor executor = newTracked(new Settings(1, 1, 1).policy(new ThreadPoolExecutor.DiscardPolicy()));
		fillOneThreadAndTheQueue(executor);
		Task refused = new Task();
		executor.execute(refused);
		stopGracefully(executor);
		assertThat(refused.ran()).isFalse();
		assertThat(executor.getCompletedTaskCount()).isEqualTo(2);
	}

	@Test
	void theDiscardOldestPolicyDropsTheOldestQueuedTaskForTheNewOne() throws InterruptedException {
		ThreadPoolExecutor executor = newTracked(
				new Settings(1, 1, 1).policy(new ThreadPoolExecutor.DiscardOldestPolicy()));
		executor.execute(this::awaitRelease);
		await().atMost(WAIT).until(() -> executor.getActiveCount() == 1);
		Task oldest = new Task();
		executor.execute(oldest);
		Task newest = new Task();
		executor.execute(newest);
		assertThat(executor.getQueue()).hasSize(1);
		stopGracefully(executor);
		assertThat(oldest.ran()).isFalse();
		assertThat(newest.ran()).isTrue();
	}

	@Test
	void theRejectionPolicyIsToldTheTaskAsSubmittedAndTheExecutor() {
		AtomicReference<Runnable> refusedTask = new AtomicReference<>();
		AtomicReference<ThreadPoolExecutor> refusedBy = new AtomicReference<>();
		ThreadPoolExecutor executor = newTracked(new Settings(1, 1, 1).policy((task, pool) -> {
			refusedTask.set(task);
			refusedBy.set(pool);
		}));
		fillOneThreadAndTheQueue(executor);
		Task refused = new Task();
		executor.execute(refused);
		assertThat(refusedTask.get()).isSameAs(refused);
		assertThat(refusedBy.get()).isSameAs(executor);
		RejectedExecutionHandler policy = executor.getRejectedExecutionHandler();
		executor.setRejectedExecutionHandler(new ThreadPoolExecutor.DiscardPolicy());
		assertThat(executor.getRejectedExecutionHandler()).isNotSameAs(policy)
			.isInstanceOf(ThreadPoolExecutor.DiscardPolicy.class);
	}

	@Test
	void shutdownLetsQueuedTasksRunRefusesNewOnesAndTerminatesOnce() throws InterruptedException {
		ThreadPoolExecutor executor = executor(1, 1, 5);
		Task queued = fillOneThreadAndQueueOne(executor);
		executor.shutdown();
		assertThat(executor.isShutdown()).isTrue();
		assertThat(executor.isTerminating()).isTrue();
		assertThatExceptionOfType(RejectedExecutionException.class).isThrownBy(() -> executor.execute(new Task()));
		// The running task waits for the latch: the pool cannot have terminated.
		assertThat(executor.awaitTermination(10, TimeUnit.MILLISECONDS)).isFalse();
		assertThat(this.hooks.terminated).hasValue(0);
		this.release.countDown();
		assertThat(executor.awaitTermination(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		assertThat(executor.isTerminated()).isTrue();
		assertThat(executor.isTerminating()).isFalse();
		assertThat(queued.ran()).isTrue();
		assertThat(this.hooks.terminated).hasValue(1);
		executor.shutdown();
		assertThat(this.hooks.terminated).hasValue(1);
	}

	@Test
	void shutdownNowInterruptsRunningTasksAndHandsBackQueuedOnesAsSubmitted() throws InterruptedException {
		ThreadPoolExecutor executor = executor(1, 1, 5);
		CountDownLatch interrupted = new CountDownLatch(1);
		executor.execute(() -> {
			awaitRelease();
			if (Thread.currentThread().isInterrupted()) {
				interrupted.countDown();
			}
		});
		await().atMost(WAIT).until(() -> executor.getActiveCount() == 1);
		Task queued = new Task();
		executor.execute(queued);
		Future<?> queuedFuture = executor.submit(new Task());
		assertThat(executor.shutdownNow()).containsExactly(queued, (Runnable) queuedFuture);
		assertThat(interrupted.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		assertThat(executor.awaitTermination(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		assertThat(queued.ran()).isFalse();
		assertThat(queuedFuture.isDone()).isFalse();
		assertThat(this.hooks.terminated).hasValue(1);
	}

	@Test
	void removeTakesAQueuedTaskOutSoThatItNeverRuns() throws InterruptedException {
		ThreadPoolExecutor executor = executor(1, 1, 5);
		Task queued = fillOneThreadAndQueueOne(executor);
		Task other = new Task();
		executor.execute(other);
		assertThat(executor.remove(queued)).isTrue();
		assertThat(executor.remove(queued)).isFalse();
		assertThat(executor.remove(new Task())).isFalse();
		assertThat(executor.getQueue()).hasSize(1);
		stopGracefully(executor);
		assertThat(queued.ran()).isFalse();
		assertThat(other.ran()).isTrue();
	}

	@Test
	void removeAfterShutdownStillTakesAQueuedTaskOut() throws InterruptedException {
		ThreadPoolExecutor executor = executor(1, 1, 5);
		Task queued = fillOneThreadAndQueueOne(executor);
		executor.shutdown();
		assertThat(executor.remove(queued)).isTrue();
		assertThat(executor.remove(queued)).isFalse();
		stopGracefully(executor);
		assertThat(queued.ran()).isFalse();
	}

	@Test
	void purgeTakesCancelledFuturesOutOfTheQueue() throws InterruptedException {
		ThreadPoolExecutor executor = executor(1, 1, 5);
		executor.execute(this::awaitRelease);
		await().atMost(WAIT).until(() -> executor.getActiveCount() == 1);
		Task cancelledTask = new Task();
		Future<?> cancelled = executor.submit(cancelledTask);
		Task kept = new Task();
		executor.submit(kept);
		assertThat(executor.getQueue()).hasSize(2);
		cancelled.cancel(false);
		executor.purge();
		assertThat(executor.getQueue()).hasSize(1);
		stopGracefully(executor);
		assertThat(cancelledTask.ran()).isFalse();
		assertThat(kept.ran()).isTrue();
	}

	@Test
	void theQueueHoldsTheQueuedTasksAsSubmitted() {
		ThreadPoolExecutor executor = executor(1, 1, 5);
		Task queued = fillOneThreadAndQueueOne(executor);
		assertThat(executor.getQueue()).hasSize(1);
		assertThat(executor.getQueue().remainingCapacity()).isEqualTo(4);
		assertThat(executor.getQueue().contains(queued)).isTrue();
	}

	@Test
	void theHooksSeeEachTaskAsSubmittedOnTheThreadThatRunsIt() throws Exception {
		ThreadPoolExecutor executor = executor(1, 1, 5);
		Task task = new Task();
		executor.execute(task);
		await().atMost(WAIT).until(() -> this.hooks.after.size() == 1);
		assertThat(this.hooks.before).containsExactly(task);
		assertThat(this.hooks.beforeThreads).containsExactly(task.thread());
		assertThat(this.hooks.after).containsExactly(task);
		assertThat(this.hooks.thrown).containsExactly((Throwable) null);
		Future<?> future = executor.submit(new Task());
		future.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
		await().atMost(WAIT).until(() -> this.hooks.after.size() == 2);
		assertThat(this.hooks.before.get(1)).isSameAs(future);
		assertThat(this.hooks.after.get(1)).isSameAs(future);
	}

	@Test
	void afterExecuteIsToldWhatATaskThrew() {
		ThreadPoolExecutor executor = executor(1, 1, 5);
		IllegalStateException failure = new IllegalStateException("planned failure");
		executor.execute(() -> {
			throw failure;
		});
		await().atMost(WAIT).until(() -> this.hooks.after.size() == 1);
		assertThat(this.hooks.thrown).containsExactly(failure);
	}

	ThreadPoolExecutor executor(int core, int max, int queueCapacity) {
		return newTracked(new Settings(core, max, queueCapacity));
	}

	ThreadPoolExecutor newTracked(Settings settings) {
		ThreadPoolExecutor executor = newExecutor(settings);
		this.executors.add(executor);
		return executor;
	}

	/**
	 * Keep the one thread busy until the release and queue a task behind it.
	 * @return the queued task
	 */
	Task fillOneThreadAndQueueOne(ThreadPoolExecutor executor) {
		executor.execute(this::awaitRelease);
		await().atMost(WAIT).until(() -> executor.getActiveCount() == 1);
		Task queued = new Task();
		executor.execute(queued);
		return queued;
	}

	void fillOneThreadAndTheQueue(ThreadPoolExecutor executor) {
		fillOneThreadAndQueueOne(executor);
		assertThat(executor.getQueue().remainingCapacity()).isZero();
	}

	/**
	 * With core 1, max 2 and a queue of 1: two threads busy until the release, one task
	 * queued.
	 */
	void fillTwoThreads(ThreadPoolExecutor executor) {
		executor.execute(this::awaitRelease);
		executor.execute(this::awaitRelease);
		executor.execute(this::awaitRelease);
		await().atMost(WAIT).until(() -> executor.getActiveCount() == 2);
		assertThat(executor.getPoolSize()).isEqualTo(2);
	}

	void stopGracefully(ThreadPoolExecutor executor) throws InterruptedException {
		this.release.countDown();
		executor.shutdown();
		assertThat(executor.awaitTermination(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
	}

	void awaitRelease() {
		Blocking.await(this.release);
	}

	/**
	 * Platform threads that keep a task's uncaught exception out of the test's output.
	 */
	static ThreadFactory quietPlatformThreads() {
		AtomicInteger count = new AtomicInteger();
		return (task) -> {
			Thread thread = new Thread(task, "conformance-" + count.incrementAndGet());
			thread.setUncaughtExceptionHandler((t, ex) -> {
			});
			return thread;
		};
	}

	/**
	 * What an executor is made with.
	 *
	 * @param corePoolSize the core size
	 * @param maxPoolSize the maximum size
	 * @param queueCapacity the capacity of its bounded queue
	 * @param keepAlive how long an idle thread above the core size lives
	 * @param policy the rejection policy, or {@code null} for the executor's default
	 */
	record Settings(int corePoolSize, int maxPoolSize, int queueCapacity, Duration keepAlive,
			@Nullable RejectedExecutionHandler policy) {

		Settings(int corePoolSize, int maxPoolSize, int queueCapacity) {
			this(corePoolSize, maxPoolSize, queueCapacity, Duration.ofSeconds(60), null);
		}

		Settings keepAlive(Duration keepAlive) {
			return new Settings(this.corePoolSize, this.maxPoolSize, this.queueCapacity, keepAlive, this.policy);
		}

		Settings policy(RejectedExecutionHandler policy) {
			return new Settings(this.corePoolSize, this.maxPoolSize, this.queueCapacity, this.keepAlive, policy);
		}

		RejectedExecutionHandler policyOrAbort() {
			return (this.policy != null) ? this.policy : new ThreadPoolExecutor.AbortPolicy();
		}

	}

	/**
	 * What an executor's subclass hooks were told.
	 */
	static final class Hooks {

		final List<Runnable> before = new CopyOnWriteArrayList<>();

		final List<Thread> beforeThreads = new CopyOnWriteArrayList<>();

		final List<Runnable> after = new CopyOnWriteArrayList<>();

		final List<@Nullable Throwable> thrown = new CopyOnWriteArrayList<>();

		final AtomicInteger terminated = new AtomicInteger();

		void beforeExecute(Thread thread, Runnable task) {
			this.beforeThreads.add(thread);
			this.before.add(task);
		}

		void afterExecute(Runnable task, @Nullable Throwable thrown) {
			this.thrown.add(thrown);
			this.after.add(task);
		}

		void terminated() {
			this.terminated.incrementAndGet();
		}

	}

	/**
	 * A task that says whether and where it ran.
	 */
	static final class Task implements Runnable {

		private final CountDownLatch ran = new CountDownLatch(1);

		private volatile @Nullable Thread thread;

		@Override
		public void run() {
			this.thread = Thread.currentThread();
			this.ran.countDown();
		}

		boolean ran() {
			return this.ran.getCount() == 0;
		}

		@Nullable Thread thread() {
			return this.thread;
		}

	}

}
