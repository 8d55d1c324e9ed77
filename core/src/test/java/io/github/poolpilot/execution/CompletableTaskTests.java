package io.github.poolpilot.execution;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

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
