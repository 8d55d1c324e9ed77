package io.github.poolpilot.execution;

import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link TaskOutcome}: what a task that ran failed with, thrown or held by the
 * future it completed.
 *
 * @author poolpilot authors
 */
class TaskOutcomeTests {

	@AfterEach
	void clearInterrupt() {
		Thread.interrupted();
	}

	@Test
	void whatATaskThrewIsItsFailure() {
		IllegalStateException thrown = new IllegalStateException("boom");
		assertThat(TaskOutcome.failure(() -> {
		}, thrown)).isSameAs(thrown);
	}

	@Test
	void aPlainTaskThatThrewNothingAndAFutureNotDoneDidNotFail() {
		assertThat(TaskOutcome.failure(() -> {
		}, null)).isNull();
		assertThat(TaskOutcome.failedFuture(() -> {
		})).isFalse();
		FutureTask<String> pending = new FutureTask<>(() -> "done");
		assertThat(TaskOutcome.failure(pending, null)).isNull();
		assertThat(TaskOutcome.failedFuture(pending)).isFalse();
	}

	@Test
	void aFutureThatCompletedIsNoFailure() {
		FutureTask<String> done = new FutureTask<>(() -> "done");
		done.run();
		assertThat(TaskOutcome.failure(done, null)).isNull();
		assertThat(TaskOutcome.failedFuture(done)).isFalse();
	}

	@Test
	void aFutureThatFailedFailedWithItsCause() {
		IllegalStateException cause = new IllegalStateException("boom");
		FutureTask<String> failed = new FutureTask<>(() -> {
			throw cause;
		});
		failed.run();
		assertThat(TaskOutcome.failure(failed, null)).isSameAs(cause);
		assertThat(TaskOutcome.failedFuture(failed)).isTrue();
	}

	@Test
	void aFutureThatFailedWithoutACauseFailedWithItsExecutionException() {
		ExecutionException failure = new ExecutionException("no cause", null);
		assertThat(TaskOutcome.failure(new DoneFuture(failure), null)).isSameAs(failure);
	}

	@Test
	void aCancelledFutureFailed() {
		FutureTask<String> cancelled = new FutureTask<>(() -> "done");
		cancelled.cancel(false);
		assertThat(TaskOutcome.failure(cancelled, null)).isInstanceOf(CancellationException.class);
		assertThat(TaskOutcome.failedFuture(cancelled)).isTrue();
	}

	@Test
	void aFutureWhoseResultCouldNotBeReadForAnInterruptIsNoFailureAndTheInterruptIsKept() {
		DoneFuture interrupted = new DoneFuture(new InterruptedException());
		assertThat(TaskOutcome.failure(interrupted, null)).isNull();
		assertThat(Thread.interrupted()).isTrue();
		assertThat(TaskOutcome.failedFuture(interrupted)).isFalse();
		assertThat(Thread.interrupted()).isTrue();
	}

	/**
	 * A future that is done and whose {@code get} throws.
	 */
	private static final class DoneFuture implements RunnableFuture<String> {

		private final Exception thrown;

		DoneFuture(Exception thrown) {
			this.thrown = thrown;
		}

		@Override
		public void run() {
		}

		@Override
		public boolean cancel(boolean mayInterruptIfRunning) {
			return false;
		}

		@Override
		public boolean isCancelled() {
			return false;
		}

		@Override
		public boolean isDone() {
			return true;
		}

		@Override
		public String get() throws InterruptedException, ExecutionException {
			if (this.thrown instanceof InterruptedException interrupted) {
				throw interrupted;
			}
			throw (ExecutionException) this.thrown;
		}

		@Override
		public String get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException {
			return get();
		}

	}

}
