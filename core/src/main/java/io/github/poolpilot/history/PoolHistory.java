package io.github.poolpilot.history;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.measure.NanoClock;
import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.tuning.Decision;

/**
 * The last minutes (ten by default) of every pool: its measurement windows and the
 * decisions about its size, in fixed rings allocated when the pool is first seen, so that
 * the memory per pool is known in advance and never grows. A sample is kept per window,
 * and at most one a second when windows are shorter. Written by the sampler's thread
 * ({@link HistoryFeed}), read by any.
 *
 * @author poolpilot authors
 */
public class PoolHistory {

	/**
	 * How far back the history reaches by default.
	 */
	public static final Duration RETENTION = Duration.ofMinutes(10);

	/**
	 * How many decisions are kept per pool.
	 */
	public static final int DECISIONS_PER_POOL = 128;

	private static final long SECOND = Duration.ofSeconds(1).toNanos();

	private final Duration retention;

	private final int capacity;

	private final long spacingMillis;

	private final long minSpacingNanos;

	private final NanoClock clock;

	private final long originNanos;

	private final long originEpochMillis;

	private final Map<String, Rings> pools = new ConcurrentHashMap<>();

	/**
	 * Create a history of the default length.
	 * @param window the measurement window
	 * @param clock the clock
	 * @param originEpochMillis the wall-clock time, in epoch milliseconds, when the clock
	 * read its present value
	 */
	public PoolHistory(Duration window, NanoClock clock, long originEpochMillis) {
		this(RETENTION, window, clock, originEpochMillis);
	}

	/**
	 * Create a history.
	 * @param retention how far back it reaches
	 * @param window the measurement window
	 * @param clock the clock
	 * @param originEpochMillis the wall-clock time, in epoch milliseconds, when the clock
	 * read its present value
	 */
	public PoolHistory(Duration retention, Duration window, NanoClock clock, long originEpochMillis) {
		if (window.isNegative() || window.isZero() || retention.isNegative() || retention.isZero()) {
			throw new IllegalArgumentException(
					"window and retention must be positive but were " + window + " and " + retention);
		}
		long spacing = Math.max(window.toNanos(), SECOND);
		this.retention = retention;
		this.spacingMillis = spacing / 1_000_000;
		// A window longer than the retention still keeps its last sample.
		this.capacity = (int) Math.max(1, Math.min(Integer.MAX_VALUE, (retention.toNanos() + spacing - 1) / spacing));
		// A window that closes a little early still counts as the next second's.
		this.minSpacingNanos = (window.toNanos() >= SECOND) ? 0 : SECOND - window.toNanos() / 2;
		this.clock = clock;
		this.originNanos = clock.nanoTime();
		this.originEpochMillis = originEpochMillis;
	}

	/**
	 * Return how many samples each pool's ring holds.
	 * @return the ring's capacity
	 */
	public int capacity() {
		return this.capacity;
	}

	/**
	 * Return how far back the history reaches.
	 * @return the retention
	 */
	public Duration retention() {
		return this.retention;
	}

	/**
	 * Return the bytes of one pool's sample arrays, computed from their lengths (a 64-bit
	 * JVM with compressed pointers); the decisions come on top.
	 * @return the bytes per pool
	 */
	public long sampleBytesPerPool() {
		return SampleRing.arrayBytes(this.capacity);
	}

	/**
	 * Return the present time by the history's clock.
	 * @return epoch milliseconds
	 */
	public long now() {
		return this.originEpochMillis + (this.clock.nanoTime() - this.originNanos) / 1_000_000;
	}

	/**
	 * Record a pool's closed window.
	 * @param snapshot the window
	 * @param limited whether the tuner finds the pool short of threads it cannot have
	 */
	public void record(PoolSnapshot snapshot, boolean limited) {
		Rings rings = rings(snapshot.pool());
		long nanos = this.clock.nanoTime();
		synchronized (rings) {
			if (rings.lastSampleNanos != null && nanos - rings.lastSampleNanos < this.minSpacingNanos) {
				return;
			}
			rings.lastSampleNanos = nanos;
		}
		rings.samples.add(now(), snapshot, limited);
	}

	/**
	 * Record a decision about a pool's size; the same decision recorded again is kept
	 * once.
	 * @param pool the pool's name
	 * @param decision the decision
	 */
	public void decided(String pool, Decision decision) {
		rings(pool).decisions.add(now(), decision);
	}

	/**
	 * Forget the pools that are gone.
	 * @param names the pools that remain
	 */
	public void retain(Collection<String> names) {
		this.pools.keySet().retainAll(names);
	}

	/**
	 * Read every pool's samples and decisions recorded after a time and within the
	 * retention, oldest first.
	 * @param afterEpochMillis only what was recorded after this; {@code Long.MIN_VALUE}
	 * for everything
	 * @return each pool's history, by name in order
	 */
	public Map<String, PoolRecord> read(long afterEpochMillis) {
		return read(afterEpochMillis, now());
	}

	/**
	 * Read every pool's samples and decisions recorded after a time and up to another,
	 * within the retention, oldest first: reading again after {@code upToEpochMillis}
	 * gives what came next, nothing twice.
	 * @param afterEpochMillis only what was recorded after this; {@code Long.MIN_VALUE}
	 * for everything
	 * @param upToEpochMillis only what was recorded up to this, such as {@link #now()}
	 * @return each pool's history, by name in order
	 */
	public Map<String, PoolRecord> read(long afterEpochMillis, long upToEpochMillis) {
		long notBefore = upToEpochMillis - Math.max(this.retention.toMillis(), this.spacingMillis);
		Map<String, PoolRecord> read = new LinkedHashMap<>();
		this.pools.keySet().stream().sorted().forEach((name) -> {
			Rings rings = this.pools.get(name);
			if (rings != null) {
				read.put(name, new PoolRecord(rings.samples.read(afterEpochMillis, notBefore, upToEpochMillis),
						rings.decisions.read(afterEpochMillis, notBefore, upToEpochMillis)));
			}
		});
		return read;
	}

	private Rings rings(String pool) {
		return this.pools.computeIfAbsent(pool,
				(name) -> new Rings(new SampleRing(this.capacity), new DecisionRing(DECISIONS_PER_POOL)));
	}

	/**
	 * One pool's recent past.
	 *
	 * @param samples its windows, oldest first
	 * @param decisions the decisions about its size, oldest first
	 */
	public record PoolRecord(Samples samples, List<TimedDecision> decisions) {

	}

	private static final class Rings {

		final SampleRing samples;

		final DecisionRing decisions;

		@Nullable Long lastSampleNanos;

		Rings(SampleRing samples, DecisionRing decisions) {
			this.samples = samples;
			this.decisions = decisions;
		}

	}

}
