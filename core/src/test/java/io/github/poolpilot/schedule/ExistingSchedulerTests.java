package io.github.poolpilot.schedule;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.measure.ScheduledRuns;
import io.github.poolpilot.pool.InvalidPoolSizeException;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.testsupport.Blocking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link ExistingScheduler}, on a real {@link ScheduledThreadPoolExecutor}.
 *
 * @author poolpilot authors
 */
class ExistingSchedulerTests {

	private final ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1);

	private final ExistingScheduler scheduler = new ExistingScheduler("jobs", this.executor,
			this.executor::setCorePoolSize, PoolRecorder.builder().scheduledRuns().build(), new PoolBounds(1, 4));

	private final ManagedPool pool = this.scheduler.getPool();

	@AfterEach
	void shutdown() throws InterruptedException {
		this.executor.shutdownNow();
		this.executor.awaitTermination(10, TimeUnit.SECONDS);
	}

	@Test
	void aSchedulerHasOneSizeSetFromTheMaximumAskedFor() {
		this.pool.resize(2, 3);
		assertThat(this.executor.getCorePoolSize()).isEqualTo(3);
		assertThat(this.pool.corePoolSize()).isEqualTo(3);
		assertThat(this.pool.maxPoolSize()).isEqualTo(3);
		this.pool.resize(1, 1);
		assertThat(this.executor.getCorePoolSize()).isEqualTo(1);
	}

	@Test
	void aSizeOutsideTheBoundsIsRefusedAndChangesNothing() {
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> this.pool.resize(5, 5))
			.withMessageContaining("above its max-threads 4");
		assertThat(this.executor.getCorePoolSize()).isEqualTo(1);
	}

	@Test
	void aRecorderThatDoesNotRecordScheduledRunsIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ExistingScheduler("jobs", this.executor, this.executor::setCorePoolSize,
					PoolRecorder.builder().build(), new PoolBounds(1, 4)))
			.withMessageContaining("'jobs'");
	}

	@Test
	void theQueueIsTheRunsThatAreDueNotTheSchedule() {
		CountDownLatch release = new CountDownLatch(1);
		this.executor.schedule(() -> {
		}, 1, TimeUnit.HOURS);
		this.executor.execute(this.scheduler.measured(() -> Blocking.await(release), Due.once(this.scheduler.now())));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.executor.getActiveCount() == 1);
		assertThat(this.pool.sizes().queueSize()).isZero();
		this.executor.execute(this.scheduler.measured(() -> {
		}, Due.once(this.scheduler.now())));
		this.executor.execute(this.scheduler.measured(() -> {
		}, Due.once(this.scheduler.now())));
		assertThat(this.pool.sizes().queueSize()).isEqualTo(2);
		assertThat(this.pool.sizes().queueCapacity()).isEqualTo(Integer.MAX_VALUE);
		release.countDown();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.pool.sizes().queueSize() == 0);
	}

	@Test
	void everyRunIsTimedFromWhenItWasDueAndAFailureIsCountedAndThrown() {
		CountDownLatch release = new CountDownLatch(1);
		AtomicInteger runs = new AtomicInteger();
		long now = this.scheduler.now();
		this.executor.execute(this.scheduler.measured(() -> Blocking.await(release), Due.once(now)));
		// Due now, behind a run that holds the only thread: late by at least 100 ms.
		this.executor.scheduleAtFixedRate(this.scheduler.measured(() -> {
			if (runs.incrementAndGet() == 2) {
				throw new IllegalStateException("second run fails");
			}
		}, Due.fixedRate(now, TimeUnit.MILLISECONDS.toNanos(20))), 0, 20, TimeUnit.MILLISECONDS);
		Blocking.sleep(Duration.ofMillis(100));
		release.countDown();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.pool.getRecorder().taskCounts().failed() == 1);
		PoolSnapshot snapshot = this.pool.takeSnapshot();
		assertThat(snapshot.tasks().failed()).isEqualTo(1);
		assertThat(snapshot.lateness()).isNotNull();
		assertThat(snapshot.lateness().maxMs()).isGreaterThanOrEqualTo(100);
		assertThat(snapshot.lateness().busyLateRuns()).isPositive();
		assertThat(snapshot.queueWait().maxMs()).isEqualTo(snapshot.lateness().maxMs());
	}

	@Test
	void aFixedRateRunStillRunningWhenTheNextIsDueOverran() {
		ScheduledRuns runs = this.scheduler.runs();
		Due due = Due.fixedRate(0, 100);
		assertThat(due.dueAt()).isZero();
		due.ran(50, runs);
		assertThat(due.dueAt()).isEqualTo(100);
		due.ran(250, runs);
		assertThat(due.dueAt()).isEqualTo(200);
		assertThat(runs.overruns()).isEqualTo(1);
	}

	@Test
	void aFixedDelayRunIsDueADelayAfterThePreviousEndedAndNeverOverruns() {
		ScheduledRuns runs = this.scheduler.runs();
		Due due = Due.fixedDelay(10, 100);
		assertThat(due.dueAt()).isEqualTo(10);
		due.ran(500, runs);
		assertThat(due.dueAt()).isEqualTo(600);
		assertThat(runs.overruns()).isZero();
	}

}
