package io.github.poolpilot.guard;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.measure.RejectionReason;
import io.github.poolpilot.pool.PoolRejectedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link TaskGuard#of}: several guards checked in order as one.
 *
 * @author poolpilot authors
 */
class TaskGuardTests {

	private final List<String> told = new ArrayList<>();

	@Test
	void noGuardIsNullAndOneGuardIsItself() {
		assertThat(TaskGuard.of(List.of())).isNull();
		TaskGuard one = new Recording("one");
		assertThat(TaskGuard.of(List.of(one))).isSameAs(one);
	}

	@Test
	void severalGuardsAreCheckedInOrderAndAllTold() {
		Recording first = new Recording("first");
		Recording second = new Recording("second");
		TaskGuard guards = TaskGuard.of(List.of(first, second));
		assertThat(guards).isInstanceOf(TaskGuard.Guards.class);
		assertThat(((TaskGuard.Guards) guards).getGuards()).containsExactly(first, second);
		guards.beforeSubmit();
		guards.beforeRun(7, true);
		guards.afterRun(11, null);
		guards.notRun();
		guards.close();
		assertThat(this.told).containsExactly("first.beforeSubmit", "second.beforeSubmit", "first.beforeRun 7 true",
				"second.beforeRun 7 true", "first.afterRun 11 null", "second.afterRun 11 null", "first.notRun",
				"second.notRun", "first.close", "second.close");
	}

	@Test
	void aRefusalAtSubmitTellsTheGuardsThatAdmittedTheTaskAndNoLaterOne() {
		Recording first = new Recording("first");
		Recording second = new Recording("second");
		Recording refusing = new Recording("refusing");
		refusing.refuseSubmit = true;
		Recording after = new Recording("after");
		TaskGuard guards = TaskGuard.of(List.of(first, second, refusing, after));
		assertThatExceptionOfType(PoolRejectedException.class).isThrownBy(guards::beforeSubmit);
		assertThat(this.told).containsExactly("first.beforeSubmit", "second.beforeSubmit", "refusing.beforeSubmit",
				"first.notRun", "second.notRun");
	}

	@Test
	void everyGuardHearsHowATaskEndedAndTheFirstFailureIsThrownWithTheOthersSuppressed() {
		Recording first = new Recording("first");
		first.failAfterRun = true;
		Recording second = new Recording("second");
		Recording third = new Recording("third");
		third.failAfterRun = true;
		TaskGuard guards = TaskGuard.of(List.of(first, second, third));
		IllegalStateException failure = new IllegalStateException("task failed");
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> guards.afterRun(3, failure))
			.withMessage("first failed")
			.satisfies((ex) -> {
				assertThat(ex.getSuppressed()).hasSize(1);
				assertThat(ex.getSuppressed()[0]).hasMessage("third failed");
			});
		assertThat(this.told).containsExactly("first.afterRun 3 task failed", "second.afterRun 3 task failed",
				"third.afterRun 3 task failed");
	}

	private final class Recording implements TaskGuard {

		private final String name;

		boolean refuseSubmit;

		boolean failAfterRun;

		Recording(String name) {
			this.name = name;
		}

		@Override
		public void beforeSubmit() {
			TaskGuardTests.this.told.add(this.name + ".beforeSubmit");
			if (this.refuseSubmit) {
				throw new PoolRejectedException("test", RejectionReason.CIRCUIT_OPEN, Duration.ofSeconds(1));
			}
		}

		@Override
		public void beforeRun(long queueWaitNanos, boolean refusable) {
			TaskGuardTests.this.told.add(this.name + ".beforeRun " + queueWaitNanos + " " + refusable);
		}

		@Override
		public void afterRun(long serviceNanos, @Nullable Throwable failure) {
			TaskGuardTests.this.told
				.add(this.name + ".afterRun " + serviceNanos + " " + ((failure != null) ? failure.getMessage() : null));
			if (this.failAfterRun) {
				throw new IllegalStateException(this.name + " failed");
			}
		}

		@Override
		public void notRun() {
			TaskGuardTests.this.told.add(this.name + ".notRun");
		}

		@Override
		public void close() {
			TaskGuardTests.this.told.add(this.name + ".close");
		}

	}

}
