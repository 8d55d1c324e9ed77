package io.github.poolpilot.testsupport;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.github.poolpilot.measure.NanoClock;

/**
 * A {@link NanoClock} that moves only when told to.
 *
 * @author poolpilot authors
 */
public class FakeClock implements NanoClock {

	private final AtomicLong nanos = new AtomicLong();

	@Override
	public long nanoTime() {
		return this.nanos.get();
	}

	public void advance(Duration duration) {
		this.nanos.addAndGet(duration.toNanos());
	}

	public void advanceMillis(long millis) {
		advance(Duration.ofMillis(millis));
	}

}
