package io.github.poolpilot.task;

import java.io.IOException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.github.poolpilot.testsupport.Blocking;

import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.core.task.TaskDecorator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What Spring's tests of its task executors check of every {@link AsyncTaskExecutor}
 * (Spring Framework's {@code AbstractSchedulingTaskExecutorTests} and the tests that
 * inherit it), written once and run side by side against Spring's own executors and the
 * managed ones: how tasks run and on which threads, what their futures say when they
 * succeed, fail or are cancelled, where interrupts go, and that a {@link TaskDecorator}
 * wraps every task. The executor-specific parts are in the subclasses
 * ({@link ThreadPoolTaskExecutorContract}); a deliberate difference is a test of the same
 * name overridden in the executor's class, which says what that executor does instead,
 * and docs/guarantees.md lists them.
 * <p>
 * Real threads: tasks block on latches, and what happens later is awaited with wide
 * bounds.
 *
 * @author poolpilot authors
 */
abstract class AsyncTaskExecutorContract {

	static final Duration WAIT = Duration.ofSeconds(10);

	/**
	 * Opened at the end of each test, or earlier by the test, to end the tasks that wait
	 * for it.
	 */
	final CountDownLatch release = new CountDownLatch(1);

	private final List<Runnable> stops = new ArrayList<>();

	/**
	 * The thread name prefix of the test's executors: the test's name.
	 */
	String prefix = "";

	@BeforeEach
	void nameThreadsAfterTheTest(TestInfo test) {
		this.prefix = test.getTestMethod().map(Method::getName).orElseThrow() + "-";
	}

	@AfterEach
	void stopExecutors() {
		this.release.countDown();
		this.stops.forEach(Runnable::run);
	}

	/**
	 * Return a started executor of this kind that runs one task at a time, its threads
	 * named with {@link #prefix}, its tasks wrapped by the decorator if one is given. It
	 * is stopped after the test.
	 * @param decorator the task decorator, or {@code null} for none
	 * @return the executor
	 */
	abstract AsyncTaskExecutor oneTaskAtATime(@Nullable TaskDecorator decorator);

	/**
	 * Have an executor stopped after the test.
	 * @param stop how to stop it
	 */
	void stopAfterTest(Runnable stop) {
		this.stops.add(stop);
	}

	@Test
	void executeRunsTheTaskOnAThreadNamedWithThePrefix() throws Exception {
		AsyncTaskExecutor executor = oneTaskAtATime(null);
		CompletableFuture<Thread> ran = new CompletableFuture<>();
		executor.execute(() -> ran.complete(Thread.currentThread()));
		Thread thread = ran.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
		assertThat(thread).isNotSameAs(Thread.currentThread());
		assertThat(thread.getName()).startsWith(this.prefix);
	}

	@Test
	void whatATaskGivenToExecuteThrowsGoesToItsThreadsUncaughtExceptionHandler() throws Exception {
		AsyncTaskExecutor executor = oneTaskAtATime(null);
		IllegalStateException failure = new IllegalStateException("planned failure");
		CompletableFuture<Throwable> uncaught = new CompletableFuture<>();
		Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
		Thread.setDefaultUncaughtExceptionHandler((thread, ex) -> {
			if (thread.getName().startsWith(this.prefix)) {
				uncaught.complete(ex);
			}
		});
		try {
			executor.execute(() -> {
				throw failure;
			});
			assertThat(uncaught.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isSameAs(failure);
		}
		finally {
			Thread.setDefaultUncaughtExceptionHandler(previous);
		}
	}

	@Test
	void submitReturnsAFutureOfTheResultOnAThreadNamedWithThePrefix() throws Exception {
		AsyncTaskExecutor executor = oneTaskAtATime(null);
		AtomicReference<Thread> ranOn = new AtomicReference<>();
		Future<?> ofRunnable = executor.submit(() -> ranOn.set(Thread.currentThread()));
		assertThat(ofRunnable.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isNull();
		assertThat(ofRunnable).isDone();
		assertThat(ranOn.get().getName()).startsWith(this.prefix);
		Future<String> ofCallable = executor.submit(() -> Thread.currentThread().getName());
		assertThat(ofCallable.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).startsWith(this.prefix);
	}

	@Test
	void aSubmittedTaskThatFailsFailsItsFutureWithWhatItThrew() {
		AsyncTaskExecutor executor = oneTaskAtATime(null);
		IllegalStateException runnableFailure = new IllegalStateException("runnable failed");
		Future<?> ofRunnable = executor.submit((Runnable) () -> {
			throw runnableFailure;
		});
		assertThatExceptionOfType(ExecutionException.class)
			.isThrownBy(() -> ofRunnable.get(WAIT.toMillis(), TimeUnit.MILLISECONDS))
			.withCause(runnableFailure);
		assertThat(ofRunnable).isDone();
		IOException callableFailure = new IOException("callable failed");
		Future<String> ofCallable = executor.submit(() -> {
			throw callableFailure;
		});
		assertThatExceptionOfType(ExecutionException.class)
			.isThrownBy(() -> ofCallable.get(WAIT.toMillis(), TimeUnit.MILLISECONDS))
			.withCause(callableFailure);
	}

	@Test
	void submitCompletableCompletesWithTheResultOnAThreadNamedWithThePrefix() throws Exception {
		AsyncTaskExecutor executor = oneTaskAtATime(null);
		AtomicReference<Thread> ranOn = new AtomicReference<>();
		CompletableFuture<Void> ofRunnable = executor.submitCompletable(() -> ranOn.set(Thread.currentThread()));
		assertThat(ofRunnable.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isNull();
		assertThat(ranOn.get().getName()).startsWith(this.prefix);
		CompletableFuture<String> ofCallable = executor.submitCompletable(() -> Thread.currentThread().getName());
		assertThat(ofCallable.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).startsWith(this.prefix);
	}

	/**
	 * A failed task's future fails as {@code CompletableFuture.supplyAsync}'s does, which
	 * Spring's executors use: the stages see a {@link CompletionException} whose cause is
	 * what the task threw (unless it threw a {@code CompletionException}, seen as is),
	 * {@code join()} throws it, {@code get()} throws an {@link ExecutionException} with
	 * the cause.
	 */
	@ParameterizedTest(name = "{0}")
	@MethodSource("failures")
	void aCompletableWhoseTaskFailsCompletesWithACompletionExceptionAsSupplyAsyncDoes(String kind, Throwable failure,
			boolean callableOnly) throws Exception {
		AsyncTaskExecutor executor = oneTaskAtATime(null);
		CompletableFuture<String> ofCallable = executor.submitCompletable(() -> {
			throw sneaky(failure);
		});
		assertFailedAsSupplyAsync(ofCallable, failure);
		if (!callableOnly) {
			CompletableFuture<Void> ofRunnable = executor.submitCompletable(() -> {
				throw sneaky(failure);
			});
			assertFailedAsSupplyAsync(ofRunnable, failure);
		}
	}

	static Stream<Arguments> failures() {
		return Stream.of(Arguments.of("a runtime exception", new IllegalStateException("downstream down"), false),
				Arguments.of("a checked exception", new IOException("connection reset"), true),
				Arguments.of("an error", new AssertionError("broken invariant"), false),
				Arguments.of("a completion exception", new CompletionException(new IOException("wrapped")), false));
	}

	private static void assertFailedAsSupplyAsync(CompletableFuture<?> future, Throwable failure) throws Exception {
		Throwable seen = future.handle((result, ex) -> ex).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
		Throwable cause = (failure instanceof CompletionException) ? failure.getCause() : failure;
		assertThat(seen).isInstanceOf(CompletionException.class).hasCause(cause);
		if (failure instanceof CompletionException) {
			assertThat(seen).isSameAs(failure);
		}
		assertThat(future.exceptionally((ex) -> {
			assertThat(ex).isSameAs(seen);
			return null;
		})).succeedsWithin(WAIT);
		assertThat(future).isCompletedExceptionally();
		assertThatExceptionOfType(CompletionException.class).isThrownBy(future::join).withCause(cause);
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(future::get).withCause(cause);
	}

	@Test
	void cancellingARunningFutureInterruptsItsTask() throws Exception {
		AsyncTaskExecutor executor = oneTaskAtATime(null);
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch interrupted = new CountDownLatch(1);
		Future<?> future = executor.submit(() -> {
			started.countDown();
			awaitRelease();
			if (Thread.currentThread().isInterrupted()) {
				interrupted.countDown();
			}
		});
		assertThat(started.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		assertThat(future.cancel(true)).isTrue();
		assertThat(interrupted.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		assertThat(future).isCancelled();
		assertThatExceptionOfType(CancellationException.class).isThrownBy(future::get);
	}

	/**
	 * As with {@code supplyAsync}, cancelling a {@code CompletableFuture} completes it
	 * and leaves its running task alone.
	 */
	@Test
	void cancellingARunningCompletableLeavesItsTaskRunningUninterrupted() throws Exception {
		AsyncTaskExecutor executor = oneTaskAtATime(null);
		CountDownLatch started = new CountDownLatch(1);
		CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
		CompletableFuture<String> future = executor.submitCompletable(() -> {
			started.countDown();
			awaitRelease();
			interrupted.complete(Thread.currentThread().isInterrupted());
			return "done";
		});
		assertThat(started.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		assertThat(future.cancel(true)).isTrue();
		assertThat(future).isCancelled();
		this.release.countDown();
		assertThat(interrupted.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isFalse();
		assertThat(future).isCancelled();
	}

	@Test
	void anInterruptDoesNotReachTheNextTask() throws Exception {
		AsyncTaskExecutor executor = oneTaskAtATime(null);
		executor.submit(() -> Thread.currentThread().interrupt()).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
		Future<Boolean> next = executor.submit(() -> Thread.currentThread().isInterrupted());
		assertThat(next.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isFalse();
	}

	@Test
	void theTaskDecoratorWrapsEveryTaskOnTheSubmittingThread() throws Exception {
		ThreadLocal<String> context = new ThreadLocal<>();
		List<Thread> decoratedOn = new ArrayList<>();
		AsyncTaskExecutor executor = oneTaskAtATime((task) -> {
			decoratedOn.add(Thread.currentThread());
			String captured = context.get();
			return () -> {
				context.set(captured);
				try {
					task.run();
				}
				finally {
					context.remove();
				}
			};
		});
		context.set("caller's context");
		CompletableFuture<String> executed = new CompletableFuture<>();
		executor.execute(() -> executed.complete(context.get()));
		AtomicReference<String> seenBySubmitted = new AtomicReference<>();
		Future<?> submitted = executor.submit(() -> seenBySubmitted.set(context.get()));
		Future<String> called = executor.submit(context::get);
		AtomicReference<String> seenByCompletable = new AtomicReference<>();
		CompletableFuture<Void> completable = executor.submitCompletable(() -> seenByCompletable.set(context.get()));
		CompletableFuture<String> completableCall = executor.submitCompletable(context::get);
		assertThat(executed.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("caller's context");
		submitted.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
		assertThat(seenBySubmitted).hasValue("caller's context");
		assertThat(called.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("caller's context");
		completable.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
		assertThat(seenByCompletable).hasValue("caller's context");
		assertThat(completableCall.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("caller's context");
		assertThat(decoratedOn).hasSize(5).containsOnly(Thread.currentThread());
		context.remove();
	}

	@Test
	void aDecoratedTasksFutureStillCarriesItsResultOrFailure() throws Exception {
		AsyncTaskExecutor executor = oneTaskAtATime((task) -> task::run);
		assertThat(executor.submit(() -> "result").get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("result");
		IllegalStateException failure = new IllegalStateException("planned failure");
		Future<Object> failed = executor.submit(() -> {
			throw failure;
		});
		assertThatExceptionOfType(ExecutionException.class)
			.isThrownBy(() -> failed.get(WAIT.toMillis(), TimeUnit.MILLISECONDS))
			.withCause(failure);
		CompletableFuture<Object> failedCompletable = executor.submitCompletable(() -> {
			throw failure;
		});
		assertFailedAsSupplyAsync(failedCompletable, failure);
	}

	void awaitRelease() {
		Blocking.await(this.release);
	}

	/**
	 * Throw any throwable from a {@code Callable} or {@code Runnable}.
	 */
	@SuppressWarnings("unchecked")
	static <E extends Throwable> E sneaky(Throwable failure) throws E {
		throw (E) failure;
	}

	/**
	 * Run a task that waits for the release and return once it runs.
	 * @param executor the executor
	 * @return the running task's future
	 */
	Future<?> occupy(AsyncTaskExecutor executor) {
		CountDownLatch started = new CountDownLatch(1);
		Future<?> running = executor.submit(() -> {
			started.countDown();
			awaitRelease();
		});
		await().atMost(WAIT).until(() -> started.getCount() == 0);
		return running;
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

		/**
		 * Return this task as a {@code Callable} that answers "called".
		 */
		Callable<String> asCallable() {
			return () -> {
				run();
				return "called";
			};
		}

		boolean ran() {
			return this.ran.getCount() == 0;
		}

		@Nullable Thread thread() {
			return this.thread;
		}

	}

}
