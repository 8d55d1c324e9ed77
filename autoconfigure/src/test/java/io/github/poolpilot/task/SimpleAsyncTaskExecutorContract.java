package io.github.poolpilot.task;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.testsupport.VirtualThreadsSupport;

import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.core.task.TaskDecorator;
import org.springframework.core.task.TaskRejectedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * {@link SimpleAsyncTaskExecutor}'s contract as Spring Framework's tests of it
 * ({@code SimpleAsyncTaskExecutorTests}) check it, on virtual threads as Spring Boot's
 * {@code applicationTaskExecutor} runs when {@code spring.threads.virtual.enabled=true},
 * with what {@link AsyncTaskExecutorContract} checks of every executor: whether it is
 * active, its concurrency limit, how {@code close()} waits for and interrupts its tasks,
 * its thread names and factory. Run against a plain one (the reference,
 * {@link VirtualSimpleAsyncTaskExecutorContractTests}) and the managed one
 * ({@link VirtualManagedSimpleAsyncTaskExecutorContractTests}).
 *
 * @author poolpilot authors
 */
abstract class SimpleAsyncTaskExecutorContract extends AsyncTaskExecutorContract {

	/**
	 * Return a new executor of this kind, not yet initialized.
	 * @return the executor
	 */
	abstract SimpleAsyncTaskExecutor newExecutor();

	/**
	 * Initialize an executor as an application context does.
	 * @param executor the executor, configured
	 */
	abstract void initialize(SimpleAsyncTaskExecutor executor);

	/**
	 * Return an initialized executor on virtual threads named with {@link #prefix}, that
	 * runs at most 4 tasks at once unless the settings say otherwise. It is closed after
	 * the test.
	 * @param settings the settings applied before initialization
	 * @return the executor
	 */
	SimpleAsyncTaskExecutor executor(Consumer<SimpleAsyncTaskExecutor> settings) {
		SimpleAsyncTaskExecutor executor = newExecutor();
		executor.setVirtualThreads(true);
		executor.setThreadNamePrefix(this.prefix);
		executor.setConcurrencyLimit(4);
		settings.accept(executor);
		initialize(executor);
		stopAfterTest(executor::close);
		return executor;
	}

	@Override
	AsyncTaskExecutor oneTaskAtATime(@Nullable TaskDecorator decorator) {
		return executor((executor) -> {
			executor.setConcurrencyLimit(1);
			if (decorator != null) {
				executor.setTaskDecorator(decorator);
			}
		});
	}

	@Test
	void eachTaskRunsOnAVirtualThreadNamedWithThePrefix() throws Exception {
		SimpleAsyncTaskExecutor executor = executor((settings) -> {
		});
		Thread thread = executor.submit(Thread::currentThread).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
		assertThat(VirtualThreadsSupport.isVirtual(thread)).isTrue();
		assertThat(thread.getName()).startsWith(this.prefix);
	}

	@Test
	void itIsActiveUntilClosedAndThenRefusesTasks() {
		SimpleAsyncTaskExecutor executor = executor((settings) -> {
		});
		assertThat(executor.isActive()).isTrue();
		assertThat(executor.isThrottleActive()).isTrue();
		executor.close();
		assertThat(executor.isActive()).isFalse();
		Task refused = new Task();
		assertThatExceptionOfType(TaskRejectedException.class).isThrownBy(() -> executor.execute(refused));
		assertThatExceptionOfType(TaskRejectedException.class).isThrownBy(() -> executor.submit(refused));
		assertThat(refused.ran()).isFalse();
	}

	@Test
	void aNullTaskIsRefusedAtOnce() {
		SimpleAsyncTaskExecutor executor = executor((settings) -> {
		});
		assertThatIllegalArgumentException().isThrownBy(() -> executor.execute(null));
		assertThatExceptionOfType(NullPointerException.class).isThrownBy(() -> executor.submit((Runnable) null));
		assertThatExceptionOfType(NullPointerException.class).isThrownBy(() -> executor.submit((Callable<?>) null));
		assertThatExceptionOfType(NullPointerException.class)
			.isThrownBy(() -> executor.submitCompletable((Runnable) null));
		assertThatIllegalArgumentException().isThrownBy(() -> executor.submitCompletable((Callable<?>) null));
	}

	@Test
	void aThreadFactoryGivenMakesTheThreads() throws Exception {
		SimpleAsyncTaskExecutor executor = executor((settings) -> {
			settings.setVirtualThreads(false);
			settings.setThreadFactory((task) -> new Thread(task, this.prefix + "from-the-factory"));
		});
		Thread thread = executor.submit(Thread::currentThread).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
		assertThat(thread.getName()).isEqualTo(this.prefix + "from-the-factory");
	}

	/**
	 * Spring's executor blocks a caller until a permit is free.
	 */
	@Test
	void aTaskBeyondTheConcurrencyLimitWaitsForARunningOneToEnd() throws Exception {
		SimpleAsyncTaskExecutor executor = executor((settings) -> settings.setConcurrencyLimit(1));
		occupy(executor);
		Task beyond = new Task();
		Thread caller = new Thread(() -> executor.execute(beyond), this.prefix + "caller");
		caller.start();
		await().atMost(WAIT).until(() -> caller.getState() == Thread.State.WAITING);
		assertThat(beyond.ran()).isFalse();
		this.release.countDown();
		caller.join(WAIT.toMillis());
		await().atMost(WAIT).until(beyond::ran);
	}

	@Test
	void aTaskBeyondTheConcurrencyLimitIsRefusedWhenTheExecutorIsToldTo() {
		SimpleAsyncTaskExecutor executor = executor((settings) -> {
			settings.setConcurrencyLimit(1);
			settings.setRejectTasksWhenLimitReached(true);
		});
		occupy(executor);
		Task beyond = new Task();
		assertThatExceptionOfType(TaskRejectedException.class).isThrownBy(() -> executor.execute(beyond));
		this.release.countDown();
		assertThat(beyond.ran()).isFalse();
	}

	@Test
	void aConcurrencyLimitOfZeroRefusesEveryTask() {
		SimpleAsyncTaskExecutor executor = executor(
				(settings) -> settings.setConcurrencyLimit(SimpleAsyncTaskExecutor.NO_CONCURRENCY));
		assertThatExceptionOfType(TaskRejectedException.class).isThrownBy(() -> executor.execute(new Task()));
	}

	/**
	 * Without a termination timeout nor cancel-remaining-tasks-on-close, closing leaves
	 * the running tasks to finish in the background.
	 */
	@Test
	void closingLetsTheRunningTasksFinishInTheBackground() throws Exception {
		SimpleAsyncTaskExecutor executor = executor((settings) -> {
		});
		CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
		Future<?> running = runUntilReleased(executor, interrupted);
		executor.close();
		assertThat(running).isNotDone();
		this.release.countDown();
		assertThat(interrupted.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isFalse();
		running.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
	}

	@Test
	void closingWaitsForTheRunningTasksUpToTheTerminationTimeout() throws Exception {
		SimpleAsyncTaskExecutor executor = executor((settings) -> settings.setTaskTerminationTimeout(WAIT.toMillis()));
		CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
		Future<?> running = runUntilReleased(executor, interrupted);
		Thread closing = new Thread(executor::close, this.prefix + "closing");
		closing.start();
		await().atMost(WAIT).until(() -> !executor.isActive());
		// Its running task waits for the release: close cannot have returned.
		assertThat(closing.isAlive()).isTrue();
		this.release.countDown();
		closing.join(WAIT.toMillis());
		assertThat(closing.isAlive()).isFalse();
		assertThat(interrupted).isCompletedWithValue(false);
		assertThat(running).isDone();
	}

	@Test
	void closingInterruptsTheTasksStillRunningWhenTheTerminationTimeoutRunsOut() throws Exception {
		SimpleAsyncTaskExecutor executor = executor((settings) -> settings.setTaskTerminationTimeout(1));
		CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
		Future<?> running = runUntilReleased(executor, interrupted);
		executor.close();
		assertThat(interrupted.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		running.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
	}

	@Test
	void closingWithCancelRemainingTasksInterruptsTheRunningTasksAtOnce() throws Exception {
		// A termination timeout ten times the wait below: a close that waited for it
		// before interrupting would interrupt too late.
		SimpleAsyncTaskExecutor executor = executor((settings) -> {
			settings.setCancelRemainingTasksOnClose(true);
			settings.setTaskTerminationTimeout(10 * WAIT.toMillis());
		});
		CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
		Future<?> running = runUntilReleased(executor, interrupted);
		Thread closing = new Thread(executor::close, "closing");
		closing.start();
		assertThat(interrupted.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		running.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
		closing.join(WAIT.toMillis());
		assertThat(closing.isAlive()).isFalse();
	}

	/**
	 * Submit a task that runs until the release or an interrupt and says which ended it,
	 * and return once it runs.
	 */
	private Future<?> runUntilReleased(SimpleAsyncTaskExecutor executor, CompletableFuture<Boolean> interrupted) {
		CountDownLatch started = new CountDownLatch(1);
		Future<?> running = executor.submit(() -> {
			started.countDown();
			awaitRelease();
			interrupted.complete(Thread.currentThread().isInterrupted());
		});
		await().atMost(WAIT).until(() -> started.getCount() == 0);
		return running;
	}

}
