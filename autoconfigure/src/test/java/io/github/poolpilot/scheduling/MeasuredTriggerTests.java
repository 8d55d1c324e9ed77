package io.github.poolpilot.scheduling;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.measure.ScheduledRuns;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.schedule.ExistingScheduler;
import io.github.poolpilot.testsupport.FakeClock;

import org.springframework.scheduling.Trigger;
import org.springframework.scheduling.support.CronTrigger;
import org.springframework.scheduling.support.PeriodicTrigger;
import org.springframework.scheduling.support.SimpleTriggerContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link MeasuredTrigger}: a run is due at the time its trigger gave, and a
 * cron expression's fire times that passed while the last run ran are counted as skipped.
 *
 * @author poolpilot authors
 */
class MeasuredTriggerTests {

	private static final Instant NOON = Instant.parse("2026-12-04T12:00:00Z");

	private final FakeClock nanos = new FakeClock();

	private final ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1);

	private final ExistingScheduler scheduler = new ExistingScheduler("jobs", this.executor,
			this.executor::setCorePoolSize, PoolRecorder.builder().clock(this.nanos).scheduledRuns().build(),
			new PoolBounds(1, 4));

	private final ScheduledRuns runs = this.scheduler.runs();

	@AfterEach
	void shutdown() throws InterruptedException {
		this.executor.shutdownNow();
		this.executor.awaitTermination(10, TimeUnit.SECONDS);
	}

	@Test
	void aCronRunIsDueAtTheFireTimeTheExpressionGaveNotWhenItWasScheduled() {
		Clock wall = Clock.fixed(NOON.plusMillis(300), ZoneOffset.UTC);
		MeasuredTrigger trigger = measured(everySecond(), wall);
		this.nanos.advanceMillis(5_000);
		long scheduledAt = this.scheduler.now();
		assertThat(trigger.nextExecution(new SimpleTriggerContext(wall))).isEqualTo(NOON.plusSeconds(1));
		assertThat(trigger.dueAt()).isEqualTo(scheduledAt + Duration.ofMillis(700).toNanos());
	}

	/**
	 * A run due at noon that ended before the next fire time skips nothing; one that
	 * ended 3.5 s past skipped the fire times at 1, 2 and 3 s and overran.
	 */
	@ParameterizedTest(name = "ended {0} ms past its due time")
	@CsvSource({ "500, 1000, 0, 0", "3500, 4000, 3, 1" })
	void fireTimesThatPassedWhileARunRanAreCountedAsSkippedAndTheRunAsOverrun(long endedMillis, long nextMillis,
			long skipped, long overruns) {
		Clock wall = Clock.fixed(NOON.plusMillis(endedMillis), ZoneOffset.UTC);
		MeasuredTrigger trigger = measured(everySecond(), wall);
		SimpleTriggerContext context = new SimpleTriggerContext(NOON, NOON, NOON.plusMillis(endedMillis));
		assertThat(trigger.nextExecution(context)).isEqualTo(NOON.plusMillis(nextMillis));
		assertThat(this.runs.skipped()).isEqualTo(skipped);
		assertThat(this.runs.overruns()).isEqualTo(overruns);
	}

	@Test
	void aPeriodicTriggerHasNoFireTimesToSkip() {
		Clock wall = Clock.fixed(NOON.plusMillis(3_500), ZoneOffset.UTC);
		MeasuredTrigger trigger = measured(new PeriodicTrigger(Duration.ofSeconds(1)), wall);
		SimpleTriggerContext context = new SimpleTriggerContext(NOON, NOON, NOON.plusMillis(3_500));
		assertThat(trigger.nextExecution(context)).isEqualTo(NOON.plusMillis(4_500));
		assertThat(this.runs.skipped()).isZero();
		assertThat(this.runs.overruns()).isZero();
	}

	private MeasuredTrigger measured(Trigger trigger, Clock wall) {
		return new MeasuredTrigger(trigger, wall, this.scheduler);
	}

	private static CronTrigger everySecond() {
		return new CronTrigger("* * * * * *", ZoneOffset.UTC);
	}

}
