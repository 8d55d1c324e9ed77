package io.github.poolpilot.scheduling;

import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.Callable;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.schedule.Due;
import io.github.poolpilot.schedule.ExistingScheduler;

import org.springframework.scheduling.Trigger;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * Advice on a {@link ThreadPoolTaskScheduler} under management: every task handed to it
 * is measured on every run against when that run was due, which the call itself says (a
 * start time and a period or delay, a trigger, or now for a task to run at once); a size
 * set through the scheduler's {@code setPoolSize} goes through the pool's checked door.
 * The task is wrapped before the scheduler sees it, so that the scheduler's own task
 * decorator and error handler wrap the measured run, on every run.
 *
 * @author poolpilot authors
 */
final class SchedulingInterceptor implements MethodInterceptor {

	private final ThreadPoolTaskScheduler scheduler;

	private final ExistingScheduler managed;

	SchedulingInterceptor(ThreadPoolTaskScheduler scheduler, ExistingScheduler managed) {
		this.scheduler = scheduler;
		this.managed = managed;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		String name = invocation.getMethod().getName();
		Object[] arguments = invocation.getArguments();
		if (name.equals("setPoolSize") && arguments.length == 1 && arguments[0] instanceof Integer size) {
			this.managed.getPool().resize(size, size);
			return null;
		}
		if (arguments.length == 0 || !(arguments[0] instanceof Runnable || arguments[0] instanceof Callable)) {
			return invocation.proceed();
		}
		Due due = due(name, arguments);
		if (due != null) {
			if (due instanceof MeasuredTrigger trigger) {
				arguments[1] = trigger;
			}
			arguments[0] = (arguments[0] instanceof Runnable task) ? this.managed.measured(task, due)
					: this.managed.measured((Callable<?>) arguments[0], due);
		}
		return invocation.proceed();
	}

	private @Nullable Due due(String method, Object[] arguments) {
		return switch (method) {
			case "execute", "submit", "submitCompletable" -> Due.once(this.managed.now());
			case "schedule" -> once(arguments);
			case "scheduleAtFixedRate" -> periodic(arguments, true);
			case "scheduleWithFixedDelay" -> periodic(arguments, false);
			default -> null;
		};
	}

	private @Nullable Due once(Object[] arguments) {
		if (arguments.length != 2) {
			return null;
		}
		if (arguments[1] instanceof Trigger trigger) {
			return new MeasuredTrigger(trigger, this.scheduler.getClock(), this.managed);
		}
		Instant start = start(arguments[1]);
		return (start != null) ? Due.once(at(start)) : null;
	}

	private @Nullable Due periodic(Object[] arguments, boolean fixedRate) {
		long firstAt;
		long periodNanos;
		if (arguments.length == 2) {
			firstAt = this.managed.now();
			periodNanos = nanos(arguments[1]);
		}
		else if (arguments.length == 3) {
			Instant start = start(arguments[1]);
			if (start == null) {
				return null;
			}
			// A start time that has passed runs at once, and the periods count from then.
			firstAt = Math.max(at(start), this.managed.now());
			periodNanos = nanos(arguments[2]);
		}
		else {
			return null;
		}
		if (periodNanos <= 0) {
			// The scheduler refuses it.
			return null;
		}
		return fixedRate ? Due.fixedRate(firstAt, periodNanos) : Due.fixedDelay(firstAt, periodNanos);
	}

	private static @Nullable Instant start(Object argument) {
		if (argument instanceof Instant instant) {
			return instant;
		}
		return (argument instanceof Date date) ? date.toInstant() : null;
	}

	private static long nanos(Object period) {
		if (period instanceof Duration duration) {
			return saturatedNanos(duration);
		}
		return (period instanceof Long millis) ? saturatedNanos(Duration.ofMillis(millis)) : -1;
	}

	/**
	 * Return an instant on the scheduler's clock as a time on the recorder's.
	 */
	private long at(Instant instant) {
		return this.managed.now() + saturatedNanos(Duration.between(this.scheduler.getClock().instant(), instant));
	}

	private static long saturatedNanos(Duration duration) {
		Duration century = Duration.ofDays(36_500);
		if (duration.compareTo(century) > 0) {
			return century.toNanos();
		}
		return (duration.compareTo(century.negated()) < 0) ? -century.toNanos() : duration.toNanos();
	}

}
