package io.github.poolpilot.task;

import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.core.task.TaskDecorator;
import org.springframework.core.task.TaskRejectedException;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * {@link ThreadPoolTaskExecutor}'s contract as Spring Framework's tests of it
 * ({@code ThreadPoolTaskExecutorTests}, {@code DecoratedThreadPoolTaskExecutorTests}) and
 * Spring Boot's task-execution tests check it, with what
 * {@link AsyncTaskExecutorContract} checks of every executor: its settings before and
 * after initialization and the getters that read them back, what a refused setter leaves,
 * its threads, keep-alive and queue, its rejection policies, how it shuts down, and how
 * its lifecycle pauses it. Run against a plain {@code ThreadPoolTaskExecutor} (the
 * reference, {@link ThreadPoolTaskExecutorContractTests}) and the managed ones.
 *
 * @author poolpilot authors
 */
abstract class ThreadPoolTaskExecutorContract extends AsyncTaskExecutorContract {

	/**
	 * Return a new executor of this kind, not yet initialized.
	 * @return the executor
	 */
	abstract ThreadPoolTaskExecutor newExecutor();

	/**
	 * Initialize an executor as an application context does.
	 * @param executor the executor, configured
	 * @return the executor as the application holds it once initialized
	 */
	abstract ThreadPoolTaskExecutor initialize(ThreadPoolTaskExecutor executor);

	/**
	 * Return an initialized executor of one thread, its threads named with
	 * {@link #prefix}, configured further by the given settings. It is destroyed after
	 * the test.
	 * @param settings the settings applied before initialization
	 * @return the executor as the application holds it
	 */
	ThreadPoolTaskExecutor executor(Consumer<ThreadPoolTaskExecutor> settings) {
		ThreadPoolTaskExecutor executor = newExecutor();
		executor.setThreadNamePrefix(this.prefix);
		executor.setCorePoolSize(1);
		executor.setMaxPoolSize(1);
		settings.accept(executor);
		ThreadPoolTaskExecutor initialized = initialize(executor);
		stopAfterTest(initialized::destroy);
		return initialized;
	}

	@Override
	AsyncTaskExecutor oneTaskAtATime(@Nullable TaskDecorator decorator) {
		return executor((executor) -> {
			if (decorator != null) {
				executor.setTaskDecorator(decorator);
			}
		});
	}

	/**
	 * Check what a refused change says, beyond its type.
	 * @param refusal the exception
	 */
	void explains(IllegalArgumentException refusal) {
	}

	@Test
	void aNullTaskIsRefusedAtOnce() {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
		});
		assertThatExceptionOfType(NullPointerException.class).isThrownBy(() -> executor.execute(null));
		assertThatExceptionOfType(NullPointerException.class).isThrownBy(() -> executor.submit((Runnable) null));
		assertThatExceptionOfType(NullPointerException.class).isThrownBy(() -> executor.submit((Callable<?>) null));
		assertThatExceptionOfType(NullPointerException.class)
			.isThrownBy(() -> executor.submitCompletable((Runnable) null));
		assertThatIllegalArgumentException().isThrownBy(() -> executor.submitCompletable((Callable<?>) null));
	}

	@Test
	void beforeInitializationTheGettersAnswerTheSettings() {
		ThreadPoolTaskExecutor executor = newExecutor();
		executor.setCorePoolSize(2);
		executor.setMaxPoolSize(3);
		executor.setKeepAliveSeconds(7);
		executor.setQueueCapacity(5);
		assertThat(executor.getCorePoolSize()).isEqualTo(2);
		assertThat(executor.getMaxPoolSize()).isEqualTo(3);
		assertThat(executor.getKeepAliveSeconds()).isEqualTo(7);
		assertThat(executor.getQueueCapacity()).isEqualTo(5);
		// Spring assumes the core size until the pool exists.
		assertThat(executor.getPoolSize()).isEqualTo(2);
		assertThat(executor.getActiveCount()).isZero();
		assertThat(executor.getQueueSize()).isZero();
		assertThatIllegalStateException().isThrownBy(executor::getThreadPoolExecutor);
	}

	@Test
	void aQueueCapacitySetWhileRunningKeepsTheLiveQueue() {
		ThreadPoolTaskExecutor executor = executor((settings) -> settings.setQueueCapacity(5));
		executor.setQueueCapacity(6);
		assertThat(executor.getQueueCapacity()).isEqualTo(6);
		assertThat(executor.getThreadPoolExecutor().getQueue().remainingCapacity()).isEqualTo(5);
	}

	@Test
	void theSettingsGivenBeforeInitializationReachTheLiveExecutor() {
		RejectedExecutionHandler policy = new ThreadPoolExecutor.DiscardPolicy();
		ThreadPoolTaskExecutor executor = executor((settings) -> {
			settings.setCorePoolSize(2);
			settings.setMaxPoolSize(3);
			settings.setKeepAliveSeconds(7);
			settings.setAllowCoreThreadTimeOut(true);
			settings.setQueueCapacity(5);
			settings.setRejectedExecutionHandler(policy);
		});
		assertThat(executor.getCorePoolSize()).isEqualTo(2);
		assertThat(executor.getMaxPoolSize()).isEqualTo(3);
		assertThat(executor.getKeepAliveSeconds()).isEqualTo(7);
		assertThat(executor.getQueueCapacity()).isEqualTo(5);
		assertThat(executor.getQueueSize()).isZero();
		assertThat(executor.getActiveCount()).isZero();
		ThreadPoolExecutor live = executor.getThreadPoolExecutor();
		assertThat(live.getCorePoolSize()).isEqualTo(2);
		assertThat(live.getMaximumPoolSize()).isEqualTo(3);
		assertThat(live.getKeepAliveTime(TimeUnit.SECONDS)).isEqualTo(7);
		assertThat(live.allowsCoreThreadTimeOut()).isTrue();
		assertThat(live.getQueue()).isEmpty();
		assertThat(live.getQueue().remainingCapacity()).isEqualTo(5);
		assertThat(live.getRejectedExecutionHandler()).isSameAs(policy);
	}

	/**
	 * Spring takes any setting before initialization; what its pool refuses fails the
	 * initialization.
	 */
	@ParameterizedTest(name = "{0}")
	@MethodSource("settingsRefusedAtStart")
	void aSettingThePoolRefusesFailsItsInitialization(String setting, Consumer<ThreadPoolTaskExecutor> settings) {
		ThreadPoolTaskExecutor executor = newExecutor();
		executor.setThreadNamePrefix(this.prefix);
		settings.accept(executor);
		assertThatIllegalArgumentException().isThrownBy(() -> initialize(executor)).satisfies(this::explainsAtStart);
	}

	static Stream<Arguments> settingsRefusedAtStart() {
		return Stream.of(Arguments.of("a negative keep-alive", (Consumer<ThreadPoolTaskExecutor>) (executor) -> {
			executor.setMaxPoolSize(2);
			executor.setKeepAliveSeconds(-10);
		}), Arguments.of("a core size above the maximum", (Consumer<ThreadPoolTaskExecutor>) (executor) -> {
			executor.setCorePoolSize(3);
			executor.setMaxPoolSize(2);
		}), Arguments.of("a maximum size of 0", (Consumer<ThreadPoolTaskExecutor>) (executor) -> {
			executor.setCorePoolSize(0);
			executor.setMaxPoolSize(0);
		}), Arguments.of("core thread time-out without a keep-alive", (Consumer<ThreadPoolTaskExecutor>) (executor) -> {
			executor.setMaxPoolSize(2);
			executor.setKeepAliveSeconds(0);
			executor.setAllowCoreThreadTimeOut(true);
		}));
	}

	/**
	 * Check what a setting refused when the pool starts says, beyond its type.
	 * @param refusal the exception
	 */
	void explainsAtStart(IllegalArgumentException refusal) {
	}

	@Test
	void sizesAndKeepAliveChangedWhileRunningAreReadBackFromTheBeanAndItsExecutor() {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
		});
		ThreadPoolExecutor live = executor.getThreadPoolExecutor();
		executor.setMaxPoolSize(5);
		assertThat(executor.getMaxPoolSize()).isEqualTo(5);
		assertThat(live.getMaximumPoolSize()).isEqualTo(5);
		executor.setCorePoolSize(0);
		assertThat(executor.getCorePoolSize()).isZero();
		assertThat(live.getCorePoolSize()).isZero();
		executor.setCorePoolSize(4);
		assertThat(executor.getCorePoolSize()).isEqualTo(4);
		assertThat(live.getCorePoolSize()).isEqualTo(4);
		executor.setKeepAliveSeconds(10);
		assertThat(executor.getKeepAliveSeconds()).isEqualTo(10);
		assertThat(live.getKeepAliveTime(TimeUnit.SECONDS)).isEqualTo(10);
	}

	/**
	 * Spring's bean keeps its own copy of the sizes, which a change made on its
	 * {@code ThreadPoolExecutor} does not reach.
	 */
	@Test
	void sizesChangedOnTheThreadPoolExecutorAreReadFromIt() {
		ThreadPoolTaskExecutor executor = executor((settings) -> settings.setMaxPoolSize(2));
		ThreadPoolExecutor live = executor.getThreadPoolExecutor();
		live.setMaximumPoolSize(4);
		live.setCorePoolSize(3);
		assertThat(live.getMaximumPoolSize()).isEqualTo(4);
		assertThat(live.getCorePoolSize()).isEqualTo(3);
		assertThat(executor.getMaxPoolSize()).isEqualTo(2);
		assertThat(executor.getCorePoolSize()).isEqualTo(1);
	}

	/**
	 * Whatever is refused, through the bean or its {@code ThreadPoolExecutor}, is refused
	 * with an {@link IllegalArgumentException} and changes nothing that any getter reads.
	 */
	@ParameterizedTest(name = "{0}")
	@MethodSource("refusedChanges")
	void aRefusedChangeLeavesEveryGetterAsItWas(String change, Consumer<ThreadPoolTaskExecutor> settings,
			Consumer<ThreadPoolTaskExecutor> refused) {
		ThreadPoolTaskExecutor executor = executor((configured) -> {
			configured.setCorePoolSize(2);
			configured.setMaxPoolSize(3);
			configured.setQueueCapacity(5);
			settings.accept(configured);
		});
		Readings before = Readings.of(executor);
		assertThatIllegalArgumentException().isThrownBy(() -> refused.accept(executor)).satisfies(this::explains);
		assertThat(Readings.of(executor)).isEqualTo(before);
	}

	static Stream<Arguments> refusedChanges() {
		Consumer<ThreadPoolTaskExecutor> none = (executor) -> {
		};
		Consumer<ThreadPoolTaskExecutor> coreThreadsTimeOut = (executor) -> executor.setAllowCoreThreadTimeOut(true);
		Consumer<ThreadPoolTaskExecutor> noKeepAlive = (executor) -> executor.setKeepAliveSeconds(0);
		return Stream.of(refused("the bean's setCorePoolSize(-1)", none, (executor) -> executor.setCorePoolSize(-1)),
				refused("the bean's setMaxPoolSize(0)", none, (executor) -> executor.setMaxPoolSize(0)),
				refused("setCorePoolSize(-1)", none,
						(executor) -> executor.getThreadPoolExecutor().setCorePoolSize(-1)),
				refused("setCorePoolSize(4) above the maximum", none,
						(executor) -> executor.getThreadPoolExecutor().setCorePoolSize(4)),
				refused("setMaximumPoolSize(0)", none,
						(executor) -> executor.getThreadPoolExecutor().setMaximumPoolSize(0)),
				refused("setMaximumPoolSize(1) below the core size", none,
						(executor) -> executor.getThreadPoolExecutor().setMaximumPoolSize(1)),
				refused("the bean's setKeepAliveSeconds(-10)", none, (executor) -> executor.setKeepAliveSeconds(-10)),
				refused("the bean's setKeepAliveSeconds(0) while core threads time out", coreThreadsTimeOut,
						(executor) -> executor.setKeepAliveSeconds(0)),
				refused("setKeepAliveTime(-10 s)", none,
						(executor) -> executor.getThreadPoolExecutor().setKeepAliveTime(-10, TimeUnit.SECONDS)),
				refused("setKeepAliveTime(0) while core threads time out", coreThreadsTimeOut,
						(executor) -> executor.getThreadPoolExecutor().setKeepAliveTime(0, TimeUnit.SECONDS)),
				refused("allowCoreThreadTimeOut(true) without a keep-alive", noKeepAlive,
						(executor) -> executor.getThreadPoolExecutor().allowCoreThreadTimeOut(true)));
	}

	private static Arguments refused(String change, Consumer<ThreadPoolTaskExecutor> settings,
			Consumer<ThreadPoolTaskExecutor> refused) {
		return Arguments.of(change, settings, refused);
	}

	@Test
	void aCoreSizeAboveTheMaximumIsRefused() {
		ThreadPoolTaskExecutor executor = executor((settings) -> settings.setMaxPoolSize(2));
		assertThatIllegalArgumentException().isThrownBy(() -> executor.setCorePoolSize(3));
		assertThat(executor.getCorePoolSize()).isEqualTo(1);
		assertThat(executor.getMaxPoolSize()).isEqualTo(2);
		assertThat(executor.getThreadPoolExecutor().getMaximumPoolSize()).isEqualTo(2);
	}

	@Test
	void aMaximumBelowTheCoreSizeIsRefused() {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
			settings.setCorePoolSize(2);
			settings.setMaxPoolSize(2);
		});
		assertThatIllegalArgumentException().isThrownBy(() -> executor.setMaxPoolSize(1));
		assertThat(executor.getCorePoolSize()).isEqualTo(2);
		assertThat(executor.getMaxPoolSize()).isEqualTo(2);
		assertThat(executor.getThreadPoolExecutor().getCorePoolSize()).isEqualTo(2);
	}

	/**
	 * Spring applies core thread time-out when the pool starts only.
	 */
	@Test
	void allowCoreThreadTimeOutTakesEffectAtInitialization() {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
		});
		executor.setAllowCoreThreadTimeOut(true);
		assertThat(executor.getThreadPoolExecutor().allowsCoreThreadTimeOut()).isFalse();
	}

	@Test
	void tasksBeyondTheThreadsWaitInTheQueueAndTheGettersCountThem() {
		ThreadPoolTaskExecutor executor = executor((settings) -> settings.setQueueCapacity(2));
		occupy(executor);
		assertThat(executor.getActiveCount()).isOne();
		assertThat(executor.getPoolSize()).isOne();
		Task first = new Task();
		Task second = new Task();
		executor.execute(first);
		executor.submit(second);
		assertThat(executor.getQueueSize()).isEqualTo(2);
		assertThat(executor.getThreadPoolExecutor().getQueue()).hasSize(2);
		this.release.countDown();
		await().atMost(WAIT).until(() -> first.ran() && second.ran());
		await().atMost(WAIT).until(() -> executor.getActiveCount() == 0 && executor.getQueueSize() == 0);
		assertThat(first.thread().getName()).startsWith(this.prefix);
		assertThat(executor.getPoolSize()).isEqualTo(idlePoolSize(1));
	}

	/**
	 * Return how many threads a pool of the given core size keeps once idle.
	 */
	int idlePoolSize(int corePoolSize) {
		return corePoolSize;
	}

	@Test
	void aTaskBeyondTheQueueIsRefusedWithATaskRejectedException() {
		ThreadPoolTaskExecutor executor = executor((settings) -> settings.setQueueCapacity(1));
		occupy(executor);
		executor.execute(new Task());
		Task refused = new Task();
		assertThatExceptionOfType(TaskRejectedException.class).isThrownBy(() -> executor.execute(refused))
			.withCauseInstanceOf(RejectedExecutionException.class);
		assertThatExceptionOfType(TaskRejectedException.class).isThrownBy(() -> executor.submit(refused))
			.withCauseInstanceOf(RejectedExecutionException.class);
		assertThatExceptionOfType(TaskRejectedException.class).isThrownBy(() -> executor.submit(refused.asCallable()))
			.withCauseInstanceOf(RejectedExecutionException.class);
		assertThatExceptionOfType(TaskRejectedException.class).isThrownBy(() -> executor.submitCompletable(refused))
			.withCauseInstanceOf(RejectedExecutionException.class);
		assertThatExceptionOfType(TaskRejectedException.class)
			.isThrownBy(() -> executor.submitCompletable(refused.asCallable()))
			.withCauseInstanceOf(RejectedExecutionException.class);
		stopGracefully(executor);
		assertThat(refused.ran()).isFalse();
	}

	@Test
	void theCallerRunsPolicyRunsARefusedTaskOnTheCallersThread() {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
			settings.setQueueCapacity(1);
			settings.setRejectedExecutionHandler(new ThreadPoolExecutor.CallerRunsPolicy());
		});
		occupy(executor);
		executor.execute(new Task());
		Task refused = new Task();
		executor.execute(refused);
		assertThat(refused.thread()).isSameAs(Thread.currentThread());
	}

	@Test
	void theCallerRunsPolicyRunsARefusedTaskThroughTheTaskDecorator() {
		Thread caller = Thread.currentThread();
		AtomicReference<Thread> decoratedOn = new AtomicReference<>();
		ThreadPoolTaskExecutor executor = executor((settings) -> {
			settings.setQueueCapacity(1);
			settings.setRejectedExecutionHandler(new ThreadPoolExecutor.CallerRunsPolicy());
			settings.setTaskDecorator((task) -> () -> {
				if (Thread.currentThread() == caller) {
					decoratedOn.set(caller);
				}
				task.run();
			});
		});
		occupy(executor);
		executor.execute(new Task());
		Task refused = new Task();
		executor.execute(refused);
		assertThat(refused.thread()).isSameAs(caller);
		assertThat(decoratedOn.get()).isSameAs(caller);
	}

	@Test
	void theDiscardPolicyDropsARefusedTaskSilently() {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
			settings.setQueueCapacity(1);
			settings.setRejectedExecutionHandler(new ThreadPoolExecutor.DiscardPolicy());
		});
		occupy(executor);
		Task queued = new Task();
		executor.execute(queued);
		Task refused = new Task();
		executor.execute(refused);
		stopGracefully(executor);
		assertThat(queued.ran()).isTrue();
		assertThat(refused.ran()).isFalse();
	}

	@Test
	void theDiscardOldestPolicyDropsTheOldestQueuedTaskForTheNewOne() {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
			settings.setQueueCapacity(1);
			settings.setRejectedExecutionHandler(new ThreadPoolExecutor.DiscardOldestPolicy());
		});
		occupy(executor);
		Task oldest = new Task();
		executor.execute(oldest);
		Task newest = new Task();
		executor.execute(newest);
		stopGracefully(executor);
		assertThat(oldest.ran()).isFalse();
		assertThat(newest.ran()).isTrue();
	}

	@Test
	void aRejectionPolicyIsHandedTheTaskAndTheExecutorTheBeanHandsOut() {
		AtomicReference<Runnable> refusedTask = new AtomicReference<>();
		AtomicReference<ThreadPoolExecutor> refusedBy = new AtomicReference<>();
		ThreadPoolTaskExecutor executor = executor((settings) -> {
			settings.setQueueCapacity(1);
			settings.setRejectedExecutionHandler((task, pool) -> {
				refusedTask.set(task);
				refusedBy.set(pool);
			});
		});
		occupy(executor);
		executor.execute(new Task());
		Task refused = new Task();
		executor.execute(refused);
		assertThat(refusedTask.get()).isSameAs(refused);
		assertThat(refusedBy.get()).isSameAs(executor.getThreadPoolExecutor());
	}

	@Test
	void theQueueIsUnboundedByDefault() {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
		});
		assertThat(executor.getQueueCapacity()).isEqualTo(Integer.MAX_VALUE);
		assertThat(executor.getThreadPoolExecutor().getQueue().remainingCapacity()).isEqualTo(Integer.MAX_VALUE);
	}

	@Test
	void aQueueCapacityOfZeroHandsEachTaskStraightToAThread() {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
			settings.setMaxPoolSize(2);
			settings.setQueueCapacity(0);
		});
		assertThat(executor.getQueueCapacity()).isZero();
		occupy(executor);
		occupy(executor);
		assertThat(executor.getPoolSize()).isEqualTo(2);
		assertThatExceptionOfType(TaskRejectedException.class).isThrownBy(() -> executor.execute(new Task()));
	}

	@Test
	void threadsAboveTheCoreSizeEndOnceIdleForTheKeepAlive() {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
			settings.setMaxPoolSize(2);
			settings.setQueueCapacity(1);
			settings.setKeepAliveSeconds(1);
		});
		occupy(executor);
		executor.execute(new Task());
		occupy(executor);
		assertThat(executor.getPoolSize()).isEqualTo(2);
		this.release.countDown();
		await().atMost(WAIT).until(() -> executor.getActiveCount() == 0);
		await().atMost(WAIT).until(() -> executor.getPoolSize() == idlePoolSize(1));
	}

	/**
	 * A core thread ends once idle for the keep-alive only when core threads may time
	 * out; until then it stays.
	 */
	@Test
	void coreThreadsEndOnceIdleOnlyWhenAllowedToTimeOut() throws Exception {
		ThreadPoolTaskExecutor kept = executor((settings) -> settings.setKeepAliveSeconds(1));
		ThreadPoolTaskExecutor timingOut = executor((settings) -> {
			settings.setKeepAliveSeconds(1);
			settings.setAllowCoreThreadTimeOut(true);
		});
		kept.submit(new Task()).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
		timingOut.submit(new Task()).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
		await().atMost(WAIT).until(() -> timingOut.getPoolSize() == 0);
		// The kept thread was idle for at least as long, and never times out.
		assertThat(kept.getPoolSize()).isEqualTo(idlePoolSize(1));
	}

	@Test
	void prestartingStartsTheCoreThreadsAtInitialization() {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
			settings.setCorePoolSize(2);
			settings.setMaxPoolSize(2);
			settings.setPrestartAllCoreThreads(true);
		});
		assertThat(executor.getPoolSize()).isEqualTo(2);
		// A worker counts as active for a moment as it starts.
		await().atMost(WAIT).until(() -> executor.getActiveCount() == 0);
		assertThat(executor.getPoolSize()).isEqualTo(2);
	}

	/**
	 * Spring's Javadoc: without waiting for its tasks, the pool is stopped at once: the
	 * running task is interrupted, the queued ones never run and their futures are
	 * cancelled, with or without a task decorator.
	 */
	@ParameterizedTest(name = "decorated: {0}")
	@ValueSource(booleans = { false, true })
	void destroyedWithoutWaitingItInterruptsTheRunningTaskAndCancelsTheQueuedOnes(boolean decorated) throws Exception {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
			if (decorated) {
				settings.setTaskDecorator((task) -> task::run);
			}
		});
		CountDownLatch started = new CountDownLatch(1);
		CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
		executor.execute(() -> {
			started.countDown();
			awaitRelease();
			interrupted.complete(Thread.currentThread().isInterrupted());
		});
		assertThat(started.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		Task queuedTask = new Task();
		Future<?> queued = executor.submit(queuedTask);
		Future<String> queuedCall = executor.submit(queuedTask.asCallable());
		executor.destroy();
		assertThat(interrupted.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		assertThatExceptionOfType(CancellationException.class)
			.isThrownBy(() -> queued.get(WAIT.toMillis(), TimeUnit.MILLISECONDS));
		assertThatExceptionOfType(CancellationException.class)
			.isThrownBy(() -> queuedCall.get(WAIT.toMillis(), TimeUnit.MILLISECONDS));
		assertThat(executor.getThreadPoolExecutor().awaitTermination(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		assertThat(queuedTask.ran()).isFalse();
		assertThatExceptionOfType(TaskRejectedException.class).isThrownBy(() -> executor.execute(new Task()));
	}

	/**
	 * A {@code CompletableFuture} made by {@code supplyAsync} is not a task the pool
	 * hands back: Spring cannot cancel it, and it never completes.
	 */
	@Test
	void aQueuedCompletableIsLeftIncompleteWhenTheExecutorIsDestroyedWithoutWaiting() throws Exception {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
		});
		occupy(executor);
		Task queuedTask = new Task();
		CompletableFuture<String> queued = executor.submitCompletable(queuedTask.asCallable());
		executor.destroy();
		assertThat(executor.getThreadPoolExecutor().awaitTermination(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		assertThat(queued).isNotDone();
		assertThat(queuedTask.ran()).isFalse();
	}

	@Test
	void aQueuedTaskWhoseFutureWasCancelledNeverRuns() throws Exception {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
		});
		occupy(executor);
		Task cancelledTask = new Task();
		Future<?> cancelled = executor.submit(cancelledTask);
		Task cancelledCall = new Task();
		CompletableFuture<String> cancelledCompletable = executor.submitCompletable(cancelledCall.asCallable());
		Future<String> after = executor.submit(() -> "after");
		assertThat(cancelled.cancel(false)).isTrue();
		assertThat(cancelledCompletable.cancel(false)).isTrue();
		this.release.countDown();
		assertThat(after.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("after");
		assertThat(cancelledTask.ran()).isFalse();
		assertThat(cancelledCall.ran()).isFalse();
		assertThat(cancelledCompletable).isCancelled();
	}

	@Test
	void destroyedWhileWaitingForItsTasksItRefusesNewOnesAndRunsTheQueuedOnes() {
		ThreadPoolTaskExecutor executor = executor((settings) -> settings.setWaitForTasksToCompleteOnShutdown(true));
		CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
		executor.execute(() -> {
			awaitRelease();
			interrupted.complete(Thread.currentThread().isInterrupted());
		});
		Task queued = new Task();
		executor.execute(queued);
		executor.destroy();
		assertThat(executor.getThreadPoolExecutor().isShutdown()).isTrue();
		assertThatExceptionOfType(TaskRejectedException.class).isThrownBy(() -> executor.execute(new Task()));
		this.release.countDown();
		await().atMost(WAIT).until(queued::ran);
		assertThat(interrupted).isCompletedWithValue(false);
	}

	@Test
	void destroyWaitsForTheTasksUpToTheAwaitTermination() throws Exception {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
			settings.setWaitForTasksToCompleteOnShutdown(true);
			settings.setAwaitTerminationMillis(WAIT.toMillis());
		});
		occupy(executor);
		Task queued = new Task();
		executor.execute(queued);
		Thread destroying = new Thread(executor::destroy, this.prefix + "destroying");
		destroying.start();
		await().atMost(WAIT).until(() -> executor.getThreadPoolExecutor().isShutdown());
		// Its running task waits for the release: destroy cannot have returned.
		assertThat(destroying.isAlive()).isTrue();
		this.release.countDown();
		destroying.join(WAIT.toMillis());
		assertThat(destroying.isAlive()).isFalse();
		assertThat(queued.ran()).isTrue();
		assertThat(executor.getThreadPoolExecutor().isTerminated()).isTrue();
	}

	/**
	 * Spring logs that the pool did not terminate in time, and its tasks run on.
	 */
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
		assertThat(executor.getThreadPoolExecutor().isTerminated()).isFalse();
		this.release.countDown();
		assertThat(interrupted.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isFalse();
		await().atMost(WAIT).until(queued::ran);
	}

	@Test
	void stoppingItsLifecyclePausesTheTasksUntilItStartsAgain() {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
		});
		assertThat(executor.isRunning()).isTrue();
		executor.stop();
		assertThat(executor.isRunning()).isFalse();
		Task paused = new Task();
		executor.execute(paused);
		// Its thread took the task and waits in Spring's hook before running it.
		await().atMost(WAIT).until(() -> executor.getActiveCount() == 1);
		assertThat(paused.ran()).isFalse();
		executor.start();
		assertThat(executor.isRunning()).isTrue();
		await().atMost(WAIT).until(paused::ran);
	}

	@Test
	void stoppingItsLifecycleWithACallbackCallsItOnceTheRunningTasksEnded() {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
		});
		occupy(executor);
		CountDownLatch stopped = new CountDownLatch(1);
		executor.stop(stopped::countDown);
		assertThat(stopped.getCount()).isOne();
		this.release.countDown();
		await().atMost(WAIT).until(() -> stopped.getCount() == 0);
	}

	/**
	 * Shut the executor down, letting its queued tasks run, and wait for it to terminate.
	 */
	void stopGracefully(ThreadPoolTaskExecutor executor) {
		this.release.countDown();
		ThreadPoolExecutor live = executor.getThreadPoolExecutor();
		live.shutdown();
		await().atMost(WAIT).until(live::isTerminated);
	}

	/**
	 * What the getters of an executor and its {@code ThreadPoolExecutor} read.
	 */
	record Readings(int corePoolSize, int maxPoolSize, int keepAliveSeconds, int queueCapacity, int liveCorePoolSize,
			int liveMaximumPoolSize, long liveKeepAliveNanos, boolean coreThreadsTimeOut, int remainingCapacity,
			RejectedExecutionHandler policy) {

		static Readings of(ThreadPoolTaskExecutor executor) {
			ThreadPoolExecutor live = executor.getThreadPoolExecutor();
			return new Readings(executor.getCorePoolSize(), executor.getMaxPoolSize(), executor.getKeepAliveSeconds(),
					executor.getQueueCapacity(), live.getCorePoolSize(), live.getMaximumPoolSize(),
					live.getKeepAliveTime(TimeUnit.NANOSECONDS), live.allowsCoreThreadTimeOut(),
					live.getQueue().remainingCapacity(), live.getRejectedExecutionHandler());
		}

	}

}
