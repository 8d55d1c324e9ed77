package io.github.poolpilot.tuning;

import java.time.Duration;
import java.util.Locale;

import io.github.poolpilot.core.NanoClock;
import io.github.poolpilot.core.PoolBounds;
import io.github.poolpilot.core.PoolSnapshot;
import io.github.poolpilot.core.PoolSnapshot.LittlesLaw;

/**
 * Decides one pool's size, window after window (DESIGN.md §4). A model gives the size the
 * measured load needs (Little's law with 20 % headroom, capped by Goetz's CPU-bound
 * size); a feedback guard lets the pool grow only when it is saturated, one step of at
 * most a quarter at a time, keeps a step only if throughput rose with it, and otherwise
 * reverts and blocks growth for a while (30 s, doubling up to 5 min). It refuses to grow
 * while the CPU is busy, shrinks when a downstream slows down without giving more
 * throughput, and shrinks an idle pool gradually.
 *
 * @author poolpilot authors
 */
public final class PoolController {

	static final double ALPHA = 0.3;

	static final double HEADROOM = 1.2;

	static final double SATURATED_BUSY = 0.9;

	static final double IDLE_BUSY = 0.5;

	static final int IDLE_WINDOWS = 3;

	static final int HOLD_WINDOWS = 2;

	static final double MIN_SCALING_EFFICIENCY = 0.15;

	static final double MAX_CPU = 0.9;

	static final double SLOWDOWN = 1.5;

	static final Duration FIRST_BLOCK = Duration.ofSeconds(30);

	static final Duration LONGEST_BLOCK = Duration.ofMinutes(5);

	private final NanoClock clock;

	private double throughput = Double.NaN;

	private double usualServiceMs = Double.NaN;

	private int idleWindows;

	private int stepFrom;

	private int stepTo;

	private double throughputBeforeStep;

	private int stepWindows;

	private long growthBlockedUntil;

	private Duration nextBlock = FIRST_BLOCK;

	/**
	 * Create a controller.
	 * @param clock the clock that times growth blocks
	 */
	public PoolController(NanoClock clock) {
		this.clock = clock;
		this.growthBlockedUntil = clock.nanoTime();
	}

	/**
	 * Decide the pool's size for the next window.
	 * @param snapshot the window that just closed
	 * @param size the pool's current size (its maximum pool size)
	 * @param bounds the range the size must stay in
	 * @param cpuLoad the process's CPU load, from 0 to 1, or a negative value when
	 * unknown
	 * @return the decision, with its reason
	 */
	public Decision decide(PoolSnapshot snapshot, int size, PoolBounds bounds, double cpuLoad) {
		LittlesLaw law = snapshot.littlesLaw();
		double previousThroughput = this.throughput;
		this.throughput = ewma(this.throughput, law.throughput());
		if (law.meanServiceTimeMs() > 0) {
			// The usual service time moves slowly, so that a sudden slowdown stands out.
			this.usualServiceMs = Double.isNaN(this.usualServiceMs) ? law.meanServiceTimeMs()
					: this.usualServiceMs + 0.05 * (law.meanServiceTimeMs() - this.usualServiceMs);
		}
		double busy = law.busyThreads();
		// Work waits or is turned away: a queue, or more offered than served.
		boolean queueing = snapshot.sizes().queueSize() > 0 || law.arrivalRate() > law.throughput() * 1.05;
		if (this.stepTo != 0) {
			return judgeStep(size, bounds, queueing);
		}
		boolean saturated = busy >= SATURATED_BUSY * size && queueing;
		int model = modelSize(law);
		this.idleWindows = (busy < IDLE_BUSY * size && !queueing) ? this.idleWindows + 1 : 0;
		if (saturated) {
			boolean throughputRising = Double.isNaN(previousThroughput) || law.throughput() > previousThroughput * 1.05;
			return considerGrowth(law, size, bounds, model, cpuLoad, throughputRising);
		}
		if (this.idleWindows >= IDLE_WINDOWS && size > bounds.minThreads()) {
			int target = bounds
				.clamp(Math.max(Math.max(model, (int) Math.ceil(busy * HEADROOM)), size - Math.max(1, size / 4)));
			if (target < size) {
				return Decision.change(target, "shrink " + size + "→" + target + ": idle (busy " + format(busy) + " of "
						+ size + " for " + this.idleWindows + " windows)", true);
			}
		}
		return Decision.hold(size, saturated ? "hold: saturated at the bound"
				: "hold: not saturated (busy " + format(busy) + " of " + size + ")", true);
	}

	private Decision considerGrowth(LittlesLaw law, int size, PoolBounds bounds, int model, double cpuLoad,
			boolean throughputRising) {
		if (law.meanServiceTimeMs() > SLOWDOWN * this.usualServiceMs && !throughputRising) {
			int target = bounds.clamp((int) Math.floor(size * 0.9));
			String slowdown = "service time " + format(law.meanServiceTimeMs() / this.usualServiceMs)
					+ "× its usual without more throughput";
			return (target < size) ? Decision.change(target, "shrink " + size + "→" + target + ": " + slowdown, false)
					: Decision.hold(size, "hold: " + slowdown + ", at min-threads", false);
		}
		if (size >= bounds.maxThreads()) {
			return Decision.hold(size, "hold: saturated at max-threads " + bounds.maxThreads(), true);
		}
		if (cpuLoad > MAX_CPU) {
			return Decision.hold(size, "hold: CPU " + Math.round(cpuLoad * 100) + "%", false);
		}
		long now = this.clock.nanoTime();
		if (now - this.growthBlockedUntil < 0) {
			return Decision.hold(size, "hold: growth blocked for "
					+ Duration.ofNanos(this.growthBlockedUntil - now).toSeconds() + " s (more threads did not help)",
					false);
		}
		int deadBand = Math.max(1, size / 10);
		int wanted = Math.max(model, size + deadBand);
		int target = bounds.clamp(Math.min(wanted, size + Math.max(1, size / 4)));
		if (target <= size) {
			return Decision.hold(size, "hold: saturated at the bound", true);
		}
		this.stepFrom = size;
		this.stepTo = target;
		this.stepWindows = 0;
		this.throughputBeforeStep = this.throughput;
		return Decision.change(target, "grow " + size + "→" + target + ": queueing, busy " + format(law.busyThreads())
				+ " of " + size + ", model " + model, true);
	}

	private Decision judgeStep(int size, PoolBounds bounds, boolean queueing) {
		this.stepWindows++;
		if (this.stepWindows < HOLD_WINDOWS) {
			return Decision.hold(size, "hold: measuring " + this.stepFrom + "→" + this.stepTo, true);
		}
		int from = this.stepFrom;
		int to = this.stepTo;
		this.stepTo = 0;
		if (!queueing) {
			// The step served all that was offered: throughput can rise no further.
			this.nextBlock = FIRST_BLOCK;
			return Decision.hold(size, "keep " + from + "→" + to + ": the queue drained", true);
		}
		double gain = (this.throughputBeforeStep > 0)
				? (this.throughput - this.throughputBeforeStep) / this.throughputBeforeStep : 0;
		double added = (double) (to - from) / from;
		if (gain / added >= MIN_SCALING_EFFICIENCY) {
			this.nextBlock = FIRST_BLOCK;
			return Decision.hold(size, "keep " + from + "→" + to + ": throughput " + percent(gain), true);
		}
		this.growthBlockedUntil = this.clock.nanoTime() + this.nextBlock.toNanos();
		Duration blocked = this.nextBlock;
		this.nextBlock = this.nextBlock.multipliedBy(2).compareTo(LONGEST_BLOCK) > 0 ? LONGEST_BLOCK
				: this.nextBlock.multipliedBy(2);
		int target = bounds.clamp(from);
		return Decision.change(target, "revert " + to + "→" + target + ": throughput " + percent(gain)
				+ ", growth blocked for " + blocked.toSeconds() + " s", false);
	}

	/**
	 * Tell the controller what size the pool actually got: the budget may have allowed
	 * less than it decided, and a step is judged by the size it really took.
	 * @param threads the size the pool has now
	 */
	public void applied(int threads) {
		if (this.stepTo != 0 && threads != this.stepTo) {
			this.stepTo = (threads > this.stepFrom) ? threads : 0;
		}
	}

	/**
	 * Little's law with headroom (λ offered · S · 1.2), capped by Goetz's size when the
	 * wait/compute ratio is known.
	 */
	static int modelSize(LittlesLaw law) {
		int littles = (int) Math.ceil(law.arrivalRate() * law.meanServiceTimeMs() / 1000 * HEADROOM);
		Integer goetz = law.recommendedThreads();
		return (goetz != null) ? Math.min(littles, goetz) : littles;
	}

	private static double ewma(double previous, double value) {
		return Double.isNaN(previous) ? value : previous + ALPHA * (value - previous);
	}

	private static String format(double value) {
		return String.format(Locale.ROOT, "%.1f", value);
	}

	private static String percent(double ratio) {
		return String.format(Locale.ROOT, "%+.0f%%", ratio * 100);
	}

	/**
	 * What the controller decided.
	 *
	 * @param threads the pool's size for the next window
	 * @param reason why, in words
	 * @param changed whether the size changes
	 * @param mayBorrow whether the pool may take more than its guaranteed share of the
	 * budget (not after more threads failed to help)
	 */
	public record Decision(int threads, String reason, boolean changed, boolean mayBorrow) {

		static Decision change(int threads, String reason, boolean mayBorrow) {
			return new Decision(threads, reason, true, mayBorrow);
		}

		static Decision hold(int threads, String reason, boolean mayBorrow) {
			return new Decision(threads, reason, false, mayBorrow);
		}

	}

}
