package io.github.poolpilot.tuning;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;

import io.github.poolpilot.measure.NanoClock;
import io.github.poolpilot.tuning.Decision.Cause.ChangesSpent;

/**
 * How many times a pool's size may change in a minute: a pool that changed
 * {@value #CHANGES} times in the last {@value #PERIOD_SECONDS} s has spent its budget,
 * and the rules that may wait (cuts, probes, the surplus's shrink, growth while nothing
 * is refused) hold it until the oldest of those changes is a minute old. Changes that
 * meet refusals are not held, and count like the others.
 *
 * @author poolpilot authors
 */
final class ChangeBudget {

	static final int CHANGES = 8;

	static final long PERIOD_SECONDS = 60;

	private static final long PERIOD_NANOS = Duration.ofSeconds(PERIOD_SECONDS).toNanos();

	private final NanoClock clock;

	private final Deque<Long> times = new ArrayDeque<>();

	ChangeBudget(NanoClock clock) {
		this.clock = clock;
	}

	/**
	 * Count a change of the pool's size, now.
	 */
	void changed() {
		this.times.addLast(this.clock.nanoTime());
		forgetOld();
	}

	/**
	 * Return whether the pool changed size as often as the budget allows in the last
	 * minute.
	 * @return whether the budget is spent
	 */
	boolean spent() {
		forgetOld();
		return this.times.size() >= CHANGES;
	}

	/**
	 * Return the changes counted in the last minute.
	 * @return how many
	 */
	int recent() {
		forgetOld();
		return this.times.size();
	}

	/**
	 * Return why a change that can wait is held now.
	 * @return the changes in the last minute and how long until the budget allows one
	 */
	ChangesSpent spentCause() {
		return new ChangesSpent(recent(), remaining());
	}

	/**
	 * Return how long until the budget allows a change again.
	 * @return zero when it does now
	 */
	Duration remaining() {
		if (!spent()) {
			return Duration.ZERO;
		}
		long oldest = this.times.stream().skip(this.times.size() - CHANGES).findFirst().orElseThrow();
		return Duration.ofNanos(Math.max(0, oldest + PERIOD_NANOS - this.clock.nanoTime()));
	}

	private void forgetOld() {
		long now = this.clock.nanoTime();
		while (!this.times.isEmpty() && now - this.times.peekFirst() >= PERIOD_NANOS) {
			this.times.removeFirst();
		}
	}

}
