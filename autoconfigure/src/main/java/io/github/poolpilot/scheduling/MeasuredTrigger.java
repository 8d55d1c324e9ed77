package io.github.poolpilot.scheduling;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.measure.ScheduledRuns;
import io.github.poolpilot.schedule.Due;
import io.github.poolpilot.schedule.ExistingScheduler;

import org.springframework.scheduling.Trigger;
import org.springframework.scheduling.TriggerContext;
import org.springframework.scheduling.support.CronTrigger;
import org.springframework.scheduling.support.SimpleTriggerContext;

/**
 * A task's trigger (a cron expression, a periodic trigger) that remembers the time it
 * gave for the next run, so that the run knows when it was due; Spring asks the trigger
 * before it schedules each run. A cron trigger's fire times that passed while a run was
 * still running are skipped: they are counted, and the run as overrun.
 *
 * @author poolpilot authors
 */
final class MeasuredTrigger implements Trigger, Due {

	/**
	 * The most skipped fire times counted after one run: a bound on the work of counting
	 * them for a cron expression that fires every second after a run of hours.
	 */
	private static final int MOST_SKIPPED = 10_000;

	private final Trigger trigger;

	private final Clock clock;

	private final ExistingScheduler scheduler;

	private volatile long dueAt;

	MeasuredTrigger(Trigger trigger, Clock clock, ExistingScheduler scheduler) {
		this.trigger = trigger;
		this.clock = clock;
		this.scheduler = scheduler;
		this.dueAt = scheduler.now();
	}

	@Override
	public @Nullable Instant nextExecution(TriggerContext context) {
		Instant next = this.trigger.nextExecution(context);
		countSkipped(context);
		if (next != null) {
			this.dueAt = this.scheduler.now() + Duration.between(this.clock.instant(), next).toNanos();
		}
		return next;
	}

	private void countSkipped(TriggerContext context) {
		Instant scheduled = context.lastScheduledExecution();
		Instant completion = context.lastCompletion();
		if (!(this.trigger instanceof CronTrigger cron) || scheduled == null || completion == null) {
			return;
		}
		long skipped = 0;
		Instant fire = scheduled;
		while (skipped < MOST_SKIPPED) {
			Instant next = cron.nextExecution(new SimpleTriggerContext(fire, fire, fire));
			if (next == null || !next.isAfter(fire) || next.isAfter(completion)) {
				break;
			}
			skipped++;
			fire = next;
		}
		if (skipped > 0) {
			ScheduledRuns runs = this.scheduler.runs();
			runs.overran();
			runs.skipped(skipped);
		}
	}

	@Override
	public long dueAt() {
		return this.dueAt;
	}

	@Override
	public String toString() {
		return this.trigger.toString();
	}

}
