package io.github.poolpilot.execution;

import java.lang.management.ManagementFactory;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.guard.TaskGuard;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.measure.PoolSnapshot.Sizes;
import io.github.poolpilot.testsupport.FakeClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * Tests for {@link TaskPath}: the way a task takes through a managed executor, counted,
 * wrapped when timed, and classified when it ends.
 *
 * @author poolpilot authors
 */
class TaskPathTests {

	private static final Sizes SIZES = new Sizes(4, 4, 4, 0, 0, 10, 1, 8);

	private final FakeClock clock = new FakeClock();

	@Test
	void tasksThatThrowOrWhoseFutureFailsAreCountedAsFailed() {
		PoolRecorder recorder = PoolRecorder.builder().clock(this.clock).build();
		TaskPath path = new TaskPath(recorder, null);
		Runnable throwing = path.accept(() -> {
			throw new IllegalStateException("boom");
		});
		assertThatIllegalStateException().isThrownBy(throwing::run);
		FutureTask<Object> failingFuture = new FutureTask<>(() -> {
			throw new Exception("boom");
		});
		path.accept(failingFuture).run();
		FutureTask<Object> cancelled = new FutureTask<>(() -> "never");
		Runnable queuedCancelled = path.accept(cancelled);
		cancelled.cancel(false);
		queuedCancelled.run();
		path.accept(new FutureTask<>(() -> "fine")).run();
		assertThat(recorder.taskCounts()).isEqualTo(new PoolSnapshot.TaskCounts(4, 1, 3, 0, 0));
	}

	@Test
	void sampledTimingKeepsCountsExact() {
		PoolRecorder recorder = PoolRecorder.builder().clock(this.clock).timingSampleEvery(8).build();
		TaskPath path = new TaskPath(recorder, null);
		int timed = 0;
		for (int i = 0; i < 1000; i++) {
			Runnable task = path.accept(() -> this.clock.advanceMillis(1));
			if (task instanceof TimedTask) {
				timed++;
				task.run();
			}
			else {
				task.run();
				path.finished(task, null);
			}
		}
		assertThat(timed).isBetween(50, 250);
		PoolSnapshot snapshot = recorder.snapshot("talk", SIZES);
		assertThat(snapshot.tasks()).isEqualTo(new PoolSnapshot.TaskCounts(1000, 1000, 0, 0, 0));
		assertThat(snapshot.serviceTime().meanMs()).isEqualTo(1.0);
	}

	@Test
	void anUntimedTaskThatThrowsOrWhoseFutureFailedIsCountedAsFailed() {
		PoolRecorder recorder = PoolRecorder.builder().clock(this.clock).build();
		TaskPath path = new TaskPath(recorder, null);
		FutureTask<Object> failed = new FutureTask<>(() -> {
			throw new Exception("boom");
		});
		failed.run();
		path.finished(failed, null);
		path.finished(() -> {
		}, new IllegalStateException("boom"));
		path.finished(() -> {
		}, null);
		assertThat(recorder.taskCounts().failed()).isEqualTo(2);
		assertThat(recorder.taskCounts().completed()).isEqualTo(1);
	}

	@Test
	void anUntimedTaskGoesToTheThreadsAsSubmittedAndAllocatesNothingOnItsWay() {
		PoolRecorder recorder = PoolRecorder.builder().clock(this.clock).timingSampleEvery(1 << 30).build();
		TaskPath path = new TaskPath(recorder, null);
		Runnable task = () -> {
		};
		assertThat(path.accept(task)).isSameAs(task);
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
		assumeThat(threads.isThreadAllocatedMemorySupported()).isTrue();
		long threadId = Thread.currentThread().getId();
		int tasks = 100_000;
		for (int i = 0; i < tasks; i++) {
			path.finished(path.accept(task), null);
		}
		long before = threads.getThreadAllocatedBytes(threadId);
		for (int i = 0; i < tasks; i++) {
			path.finished(path.accept(task), null);
		}
		long allocated = threads.getThreadAllocatedBytes(threadId) - before;
		// What the measuring itself allocates (the bean's answer) is well under a byte a
		// task.
		assertThat(allocated / (double) tasks).isLessThan(1.0);
		assertThat(recorder.taskCounts()).isEqualTo(new PoolSnapshot.TaskCounts(2 * tasks + 1, 2 * tasks, 0, 0, 0));
	}

	@Test
	void aDecoratedTaskThatIsNotTimedReadsNoClock() {
		AtomicInteger reads = new AtomicInteger();
		PoolRecorder recorder = PoolRecorder.builder()
			.clock(() -> reads.incrementAndGet())
			.timingSampleEvery(1 << 30)
			.build();
		AtomicInteger decorated = new AtomicInteger();
		TaskPath path = new TaskPath(recorder, (task) -> () -> {
			decorated.incrementAndGet();
			task.run();
		});
		int readsBefore = reads.get();
		Runnable task = path.accept(() -> {
		});
		task.run();
		assertThat(task).isInstanceOf(TimedTask.class);
		assertThat(decorated).hasValue(1);
		assertThat(reads.get()).isEqualTo(readsBefore);
		assertThat(recorder.taskCounts()).isEqualTo(new PoolSnapshot.TaskCounts(1, 1, 0, 0, 0));
	}

	@Test
	void aGuardSetWhileAnotherIsTakenOffGuardsEveryTaskOnceItIsTheOneLeft() throws Exception {
		// Two threads set and take off the guard at once, round after round; whichever
		// write is left, the pool's untimed tasks must follow it: guarded when a guard is
		// left, handed on as submitted when none is.
		PoolRecorder recorder = PoolRecorder.builder().clock(this.clock).timingSampleEvery(1 << 30).build();
		TaskPath path = new TaskPath(recorder, null);
		TaskGuard guard = new TaskGuard() {
		};
		int rounds = 20_000;
		AtomicInteger round = new AtomicInteger();
		AtomicInteger done = new AtomicInteger();
		Thread setter = new Thread(() -> {
			for (int i = 1; i <= rounds; i++) {
				while (round.get() < i) {
					Thread.onSpinWait();
				}
				path.setGuard(guard);
				done.incrementAndGet();
			}
		});
		setter.setDaemon(true);
		setter.start();
		Runnable task = () -> {
		};
		int unguarded = 0;
		for (int i = 1; i <= rounds; i++) {
			round.set(i);
			path.setGuard(null);
			while (done.get() < i) {
				Thread.onSpinWait();
			}
			boolean guarded = path.acceptUncounted(task) != task;
			if ((path.guard() != null) != guarded) {
				unguarded++;
			}
		}
		setter.join(10_000);
		assertThat(unguarded).as("rounds whose tasks did not follow the guard left").isZero();
	}

	@Test
	void aPoolThatCountsByOutcomeDecoratesAndGuardsItsUntimedTasksToo() {
		// acceptUncounted hands an untimed task on as submitted only while the pool has
		// neither a decorator nor a guard.
		PoolRecorder recorder = PoolRecorder.builder().clock(this.clock).timingSampleEvery(1 << 30).build();
		AtomicInteger decorated = new AtomicInteger();
		TaskPath decorating = new TaskPath(recorder, (task) -> () -> {
			decorated.incrementAndGet();
			task.run();
		});
		Runnable task = () -> {
		};
		for (int i = 0; i < 100; i++) {
			decorating.acceptUncounted(task).run();
		}
		assertThat(decorated).hasValue(100);
		TaskPath plain = new TaskPath(recorder, null);
		assertThat(plain.acceptUncounted(task)).isSameAs(task);
		AtomicInteger admitted = new AtomicInteger();
		plain.setGuard(new TaskGuard() {

			@Override
			public void beforeSubmit() {
				admitted.incrementAndGet();
			}

		});
		for (int i = 0; i < 100; i++) {
			assertThat(plain.acceptUncounted(task)).isInstanceOf(TimedTask.class);
		}
		assertThat(admitted).hasValue(100);
		plain.setGuard(null);
		assertThat(plain.acceptUncounted(task)).isSameAs(task);
		decorating.setGuard(null);
		assertThat(decorating.acceptUncounted(task)).isInstanceOf(TimedTask.class);
	}

}
