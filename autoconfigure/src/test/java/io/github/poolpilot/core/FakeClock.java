package io.github.poolpilot.core;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link NanoClock} that moves only when told to.
 *
 * @author poolpilot authors
 */
class FakeClock implements NanoClock {

	private final AtomicLong nanos = new AtomicLong();

	@Override
	public long nanoTime() {
		return this.nanos.get();
	}

	void advance(Duration duration) {
		this.nanos.addAndGet(duration.toNanos());
	}

	void advanceMillis(long millis) {
		advance(Duration.ofMillis(millis));
	}

}
