package io.github.poolpilot.tuning;

import java.time.Duration;

import io.github.poolpilot.measure.NanoClock;

/**
 * A rest that doubles each time it is taken, from {@value #FIRST_SECONDS} s up to
 * {@value #LONGEST_MINUTES} min: how long growth waits after more threads did not help,
 * and the next probe down after one found the knee.
 *
 * @author poolpilot authors
 */
final class Backoff {

	static final long FIRST_SECONDS = 30;

	static final long LONGEST_MINUTES = 5;

	static final Duration FIRST = Duration.ofSeconds(FIRST_SECONDS);

	static final Duration LONGEST = Duration.ofMinutes(LONGEST_MINUTES);

	private final NanoClock clock;

	private long until;

	private Duration next = FIRST;

	Backoff(NanoClock clock) {
		this.clock = clock;
		this.until = clock.nanoTime();
	}

	/**
	 * Rest from now, for twice as long as last time.
	 * @return how long
	 */
	Duration take() {
		Duration rest = brief(this.next);
		Duration doubled = rest.multipliedBy(2);
		this.next = (doubled.compareTo(LONGEST) > 0) ? LONGEST : doubled;
		return rest;
	}

	/**
	 * Rest from now for the given time, without doubling the next rest.
	 * @param rest how long
	 * @return how long
	 */
	Duration brief(Duration rest) {
		this.until = this.clock.nanoTime() + rest.toNanos();
		return rest;
	}

	boolean resting() {
		return this.clock.nanoTime() - this.until < 0;
	}

	Duration remaining() {
		return Duration.ofNanos(Math.max(0, this.until - this.clock.nanoTime()));
	}

	/**
	 * Halve what is left of the rest, if any.
	 */
	void shorten() {
		long now = this.clock.nanoTime();
		long left = this.until - now;
		if (left > 0) {
			this.until = now + left / 2;
		}
	}

	/**
	 * End the rest now; the next one is as long as it would have been.
	 */
	void end() {
		this.until = this.clock.nanoTime();
	}

	/**
	 * The next rest is the first again: what it followed went well.
	 */
	void reset() {
		this.next = FIRST;
	}

}
