package io.github.poolpilot.execution;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.github.poolpilot.measure.RejectionReason;
import io.github.poolpilot.pool.PoolRejectedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link CompletableTask}: a task whose {@code Future} side is its
 * {@code CompletableFuture}.
 *
 * @author poolpilot authors
 */
class CompletableTaskTests {

	@Test
	void aTaskThatRanIsDoneWithItsResult() throws Exception {
		CompletableTask<String> task = new CompletableTask<>(() -> "done");
		assertThat(task.isDone()).isFalse();
		task.run();
		assertThat(task.isDone()).isTrue();
		assertThat(task.isCancelled()).isFalse();
		assertThat(task.get()).isEqualTo("done");
		assertThat(task.get(1, TimeUnit.NANOSECONDS)).isEqualTo("done");
		assertThat(task.cancel(true)).isFalse();
	}

	@Test
	void aCancelledTaskNeverRunsItsCallable() {
		List<String> called = new ArrayList<>();
		CompletableTask<String> task = new CompletableTask<>(() -> {
			called.add("called");
			return "done";
		});
		assertThat(task.cancel(false)).isTrue();
		assertThat(task.isCancelled()).isTrue();
		assertThat(task.isDone()).isTrue();
		task.run();
		assertThat(called).isEmpty();
		assertThatExceptionOfType(CancellationException.class).isThrownBy(task::get);
		assertThat(task.future()).isCancelled();
	}

	/**
	 * Side by side with {@code CompletableFuture.supplyAsync}, which Spring's executors
	 * use: the same failure is seen the same way by the stages, {@code join()} and
	 * {@code get()}.
	 */
	@ParameterizedTest
	@MethodSource("failures")
	void aTaskThatThrowsFailsItsFutureAsSupplyAsyncDoes(Throwable failure) {
		CompletableTask<String> task = new CompletableTask<>(() -> {
			throw sneaky(failure);
		});
		task.run();
		CompletableFuture<String> reference = CompletableFuture.supplyAsync(throwing(failure), Runnable::run);
		assertFailedAlike(task.future(), reference);
		assertThat(seenByStages(task.future())).isInstanceOf(CompletionException.class)
			.hasCause((failure instanceof CompletionException) ? failure.getCause() : failure);
	}

	static List<Throwable> failures() {
		return List.of(new IllegalStateException("downstream down"), new IOException("connection reset"),
				new AssertionError("broken invariant"), new CompletionException(new IOException("wrapped")));
	}

	@Test
	void aTaskThePoolRefusesFailsItsFutureWithTheRefusalAsItsCause() {
		CompletableTask<String> task = new CompletableTask<>(() -> "done");
		PoolRejectedException refusal = new PoolRejectedException("talk", RejectionReason.QUEUE_WAIT,
				Duration.ofSeconds(2));
		task.refuse(refusal);
		assertThat(seenByStages(task.future())).isInstanceOf(CompletionException.class).hasCause(refusal);
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(task::get).withCause(refusal);
		task.run();
		assertThat(task.future()).isCompletedExceptionally();
	}

	private static void assertFailedAlike(CompletableFuture<String> future, CompletableFuture<String> reference) {
		Throwable seen = seenByStages(future);
		Throwable expected = seenByStages(reference);
		assertThat(seen).isExactlyInstanceOf(expected.getClass());
		assertThat(seen.getCause()).isSameAs(expected.getCause());
		assertThatExceptionOfType(CompletionException.class).isThrownBy(future::join)
			.withCause(catchCause(reference::join));
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(future::get)
			.withCause(catchCause(reference::get));
	}

	private static Throwable seenByStages(CompletableFuture<String> future) {
		return future.handle((result, ex) -> ex).join();
	}

	private static Throwable catchCause(Callable<?> call) {
		try {
			call.call();
		}
		catch (Exception ex) {
			return ex.getCause();
		}
		throw new AssertionError("expected a failure");
	}

	private static Supplier<String> throwing(Throwable failure) {
		return () -> {
			throw sneaky(failure);
		};
	}

	@SuppressWarnings("unchecked")
	private static <E extends Throwable> E sneaky(Throwable failure) throws E {
		throw (E) failure;
	}

	@Test
	void aTaskReadsAsItsCallable() {
		Callable<String> callable = new Callable<>() {

			@Override
			public String call() {
				return "done";
			}

			@Override
			public String toString() {
				return "the answer";
			}

		};
		assertThat(new CompletableTask<>(callable)).hasToString("the answer");
	}

}
