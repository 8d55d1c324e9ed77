package io.github.poolpilot.tuning;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.core.NanoClock;
import io.github.poolpilot.core.PoolBounds;
import io.github.poolpilot.core.PoolSnapshot;
import io.github.poolpilot.core.PoolSnapshot.LittlesLaw;

/**
 * Decides one pool's size, window after window: a model says how many threads the
 * measured load needs, and a feedback guard checks that more threads really serve more.
 * <p>
 * <b>Model.</b> Little's law turns the offered load into busy threads, R = λ·S₀, with λ
 * the arrival rate (rejected tasks included) and S₀ the pool's base service time: the
 * least mean service time of the last {@value #BASE_WINDOWS} windows, what a task takes
 * when nothing is congested. Square-root staffing (Halfin and Whitt) adds a margin that
 * grows with √R, N = ⌈R + β·√R⌉ with β = {@value #SAFETY_MARGIN}, so that only a few
 * percent of the tasks wait for a thread whatever the load. Goetz's size, Ncpu·U·(1 +
 * W/C) from the measured wait/compute ratio, caps it: beyond it the CPU is the
 * bottleneck.
 * <p>
 * <b>Guard.</b> The pool grows only when it is saturated (busy threads X·S at least
 * {@value #SATURATED_BUSY} of its size while tasks queue or are turned away) and the
 * model needs more, to a tenth beyond the model's size but by at most half of its size in
 * one window, so that a downstream's limit is passed by at most 50 %. It does not grow
 * while the process CPU is above {@value #MAX_CPU}. Each step is judged in the next
 * window: it is kept if the queue drained or throughput rose by at least
 * {@value #MIN_SCALING_EFFICIENCY} of the relative size increase, otherwise reverted,
 * with growth blocked for 30 s, doubling up to 5 min, and only a small probe after that.
 * A shortfall within two standard errors of the windows' throughput (completions counted
 * as Poisson) is judged again over up to {@value #JUDGING_WINDOWS} windows first: a wrong
 * revert blocks growth, a wrong keep only costs threads the later rules take back. A kept
 * step that raised throughput clearly less than in proportion crossed the knee where
 * threads stop paying, and limits the next step to half beyond it. A saturated pool whose
 * service time passed {@value #SLOWDOWN}× its base without more throughput (a saturated
 * downstream, a busy CPU) gives back up to a quarter of its threads a window, down to
 * what its throughput needs at the base service time. Each such cut is judged in the next
 * window too: if the service time did not shorten by at least {@value #MIN_RELIEF} of
 * itself, the slowdown is not one that fewer threads relieve (a slow database for every
 * caller, larger requests), so the cut is undone and the rule stays off until the service
 * time is back within {@value #SLOWDOWN}× its base.
 * <p>
 * <b>Shrinking.</b> When the model needed fewer threads than the pool has (beyond a dead
 * band of a fifth) for {@value #SHRINK_WINDOWS} windows in a row, the pool shrinks in one
 * step to the most the model needed in those windows. Short lulls do not shrink it, so
 * bursty load does not make the size swing; until then the idle threads are the first the
 * budget takes when another pool needs them ({@link Decision#needed()}).
 * <p>
 * Without the guard ({@code guarded = false}, for comparison only) the pool follows the
 * model computed from the current service time, and nothing is judged.
 *
 * @author poolpilot authors
 */
public final class PoolController {

	static final double SAFETY_MARGIN = 2;

	static final double SATURATED_BUSY = 0.9;

	static final double MAX_GROWTH = 1.5;

	static final double SLOWDOWN = 1.5;

	static final double MIN_RELIEF = 0.1;

	static final double MIN_SCALING_EFFICIENCY = 0.15;

	static final double KNEE_EFFICIENCY = 0.9;

	static final int JUDGING_WINDOWS = 3;

	static final double MAX_CPU = 0.9;

	static final int BASE_WINDOWS = 30;

	static final int SHRINK_WINDOWS = 10;

	static final Duration FIRST_BLOCK = Duration.ofSeconds(30);

	static final Duration LONGEST_BLOCK = Duration.ofMinutes(5);

	private final NanoClock clock;

	private final boolean guarded;

	private final RecentValues serviceTimes = new RecentValues(BASE_WINDOWS);

	private final RecentValues needs = new RecentValues(SHRINK_WINDOWS);

	private int surplusWindows;

	private double lastThroughput = Double.NaN;

	private @Nullable Step step;

	/**
	 * A cut for a slower service, judged in the next window.
	 */
	private @Nullable Cut cut;

	/**
	 * Whether a cut did not shorten the service time: the slowdown rule is off until the
	 * service time is back near its base.
	 */
	private boolean slowdownNotOurs;

	/**
	 * Whether the next step is a small probe, as after a step that did not pay.
	 */
	private boolean probeNext;

	private long growthBlockedUntil;

	private Duration nextBlock = FIRST_BLOCK;

	/**
	 * Create a controller with its feedback guard.
	 * @param clock the clock that times growth blocks
	 */
	public PoolController(NanoClock clock) {
		this(clock, true);
	}

	/**
	 * Create a controller.
	 * @param clock the clock that times growth blocks
	 * @param guarded whether the feedback guard runs; without it the pool follows the
	 * model alone, which only the benchmarks should want
	 */
	public PoolController(NanoClock clock, boolean guarded) {
		this.clock = clock;
		this.guarded = guarded;
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
		double previousThroughput = this.lastThroughput;
		this.lastThroughput = law.throughput();
		if (snapshot.windowCompletions() > 0 && law.meanServiceTimeMs() > 0) {
			this.serviceTimes.add(law.meanServiceTimeMs());
		}
		Window window = new Window(snapshot, size, bounds, cpuLoad,
				this.guarded ? this.serviceTimes.min() : law.meanServiceTimeMs(), previousThroughput);
		if (window.need >= 0) {
			this.needs.add(window.need);
		}
		if (!(law.meanServiceTimeMs() > SLOWDOWN * window.baseServiceMs)) {
			this.slowdownNotOurs = false;
		}
		Cut cut = this.cut;
		if (cut != null) {
			this.cut = null;
			if (snapshot.windowCompletions() > 0 && law.meanServiceTimeMs() > cut.serviceMs * (1 - MIN_RELIEF)) {
				this.slowdownNotOurs = true;
				int target = bounds.clamp(cut.from);
				return Decision.change(target,
						"restore " + size + "→" + target + ": service time " + format(law.meanServiceTimeMs())
								+ " ms, not shorter with fewer threads (" + format(cut.serviceMs)
								+ " ms before the cut)",
						true);
			}
		}
		String kept = "";
		int limit = 0;
		Step step = this.step;
		if (step != null) {
			this.step = null;
			step.measure(law.throughput(), snapshot.windowCompletions());
			double gain = step.gain();
			double added = (double) (step.to - step.from) / step.from;
			double efficiency = gain / added;
			if (window.queueing && efficiency < MIN_SCALING_EFFICIENCY) {
				// Keep judging while the shortfall is within two standard errors of
				// the windows' throughput and the step has had fewer than three.
				if ((gain + 2 * step.relativeError()) / added >= MIN_SCALING_EFFICIENCY
						&& step.windows < JUDGING_WINDOWS) {
					this.step = step;
					return Decision.hold(window.size, "hold: judging " + step.from + "→" + step.to + ": throughput "
							+ percent(gain) + " so far, within its noise", true);
				}
				return revert(step, gain, added, bounds);
			}
			this.nextBlock = FIRST_BLOCK;
			// A step that raised throughput clearly less than in proportion crossed the
			// knee, where threads stop paying: the new throughput needs only about
			// from · X₁/X₀ of them.
			if (window.queueing && efficiency < KNEE_EFFICIENCY) {
				limit = (int) (MAX_GROWTH * step.from * (1 + gain));
			}
			kept = "; step " + step.from + "→" + step.to + " kept: "
					+ (window.queueing ? "throughput " + percent(gain) : "the queue drained");
		}
		if (window.saturated()) {
			this.surplusWindows = 0;
			return grow(window, limit, kept);
		}
		return shrinkOrHold(window, kept);
	}

	private Decision grow(Window window, int limit, String kept) {
		int size = window.size;
		if (size >= window.bounds.maxThreads()) {
			return Decision.atMaxThreads(size, "hold: saturated at max-threads " + window.bounds.maxThreads() + kept);
		}
		if (this.guarded) {
			Decision held = guardGrowth(window, kept);
			if (held != null) {
				return held;
			}
		}
		if (window.need <= size) {
			return Decision.hold(size,
					"hold: queueing, busy " + format(window.busy) + " of " + size + ", needs " + window.need + kept,
					true);
		}
		// A little beyond the need, so that its noise does not ask for one more step.
		int target = window.need + Math.max(1, window.need / 10);
		if (this.guarded) {
			int most = (int) Math.ceil(size * MAX_GROWTH);
			if (limit > 0) {
				most = Math.min(most, limit);
			}
			if (this.probeNext) {
				most = Math.min(most, size + Math.max(1, size / 10));
				this.probeNext = false;
			}
			target = Math.min(target, Math.max(most, size + 1));
		}
		target = window.bounds.clamp(target);
		if (this.guarded) {
			this.step = new Step(size, target, window.law.throughput(), window.completions);
		}
		return Decision.change(target, "grow " + size + "→" + target + ": queueing, busy " + format(window.busy)
				+ " of " + size + ", needs " + window.need + kept, true);
	}

	/**
	 * Return why a saturated pool must not grow now, or {@code null} when it may.
	 */
	private @Nullable Decision guardGrowth(Window window, String kept) {
		int size = window.size;
		double slowdown = window.law.meanServiceTimeMs() / window.baseServiceMs;
		boolean throughputRising = !(window.law.throughput() <= window.previousThroughput * 1.05);
		if (slowdown > SLOWDOWN && !throughputRising && !this.slowdownNotOurs) {
			double useful = window.law.throughput() * window.baseServiceMs / 1000;
			int target = window.bounds.clamp(Math.max(staffed(useful), size - Math.max(1, size / 4)));
			String reason = "service time " + format(slowdown) + "× its base of " + format(window.baseServiceMs)
					+ " ms without more throughput";
			if (target < size) {
				this.cut = new Cut(size, window.law.meanServiceTimeMs());
				return Decision.change(target, "shrink " + size + "→" + target + ": " + reason + kept, false);
			}
			return Decision.hold(size, "hold: " + reason + kept, false);
		}
		if (window.cpuLoad > MAX_CPU) {
			return Decision.hold(size, "hold: CPU " + Math.round(window.cpuLoad * 100) + "%" + kept, false);
		}
		long now = this.clock.nanoTime();
		if (now - this.growthBlockedUntil < 0) {
			long seconds = Duration.ofNanos(this.growthBlockedUntil - now).toSeconds();
			return Decision.hold(size, "hold: growth blocked for " + seconds + " s (more threads did not help)" + kept,
					false);
		}
		return null;
	}

	private Decision revert(Step step, double gain, double added, PoolBounds bounds) {
		this.growthBlockedUntil = this.clock.nanoTime() + this.nextBlock.toNanos();
		Duration blocked = this.nextBlock;
		Duration doubled = this.nextBlock.multipliedBy(2);
		this.nextBlock = (doubled.compareTo(LONGEST_BLOCK) > 0) ? LONGEST_BLOCK : doubled;
		// After a failed step, the next try is a small probe.
		this.probeNext = true;
		int target = bounds.clamp(step.from);
		return Decision.change(target, "revert " + step.to + "→" + target + ": throughput " + percent(gain) + " for "
				+ percent(added) + " threads, growth blocked for " + blocked.toSeconds() + " s", false);
	}

	private Decision shrinkOrHold(Window window, String kept) {
		int size = window.size;
		int deadBand = Math.max(2, size / 5);
		this.surplusWindows = (window.need >= 0 && window.need <= size - deadBand) ? this.surplusWindows + 1 : 0;
		if (this.surplusWindows >= SHRINK_WINDOWS) {
			int peak = (int) this.needs.max();
			int target = window.bounds.clamp(Math.max(1, peak));
			if (target < size) {
				this.surplusWindows = 0;
				return Decision.change(target, "shrink " + size + "→" + target + ": needed at most " + peak
						+ " in the last " + SHRINK_WINDOWS + " windows" + kept, true);
			}
		}
		if (window.need < 0) {
			return Decision.hold(size, "hold: busy " + format(window.busy) + " of " + size + kept, true);
		}
		int needed = Math.min(size, Math.max(window.need, (int) Math.ceil(window.busy)));
		return new Decision(size, needed,
				"hold: busy " + format(window.busy) + " of " + size + ", needs " + window.need + kept, false, true,
				false);
	}

	/**
	 * Tell the controller what size the pool actually got: the budget may have allowed
	 * less than it decided, and a step is judged by the size it really took.
	 * @param threads the size the pool has now
	 */
	public void applied(int threads) {
		Step step = this.step;
		if (step != null && threads != step.to) {
			this.step = (threads > step.from)
					? new Step(step.from, threads, step.throughputBefore, step.completionsBefore) : null;
		}
	}

	/**
	 * Square-root staffing on Little's law: the threads an offered load of R busy threads
	 * needs, ⌈R + β·√R⌉.
	 */
	static int staffed(double busyThreads) {
		return (busyThreads <= 0) ? 0 : (int) Math.ceil(busyThreads + SAFETY_MARGIN * Math.sqrt(busyThreads));
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
	 * @param needed how many of those threads its load needs now, the rest being kept
	 * idle for a while: the budget takes them first when another pool needs them
	 * @param reason why, in words
	 * @param changed whether the size changes
	 * @param mayBorrow whether the pool may take more than its guaranteed share of the
	 * budget (not while more threads would not help it)
	 * @param limited whether the pool is short of threads that it cannot have: it is
	 * saturated at max-threads, the CPU or the budget is the limit, its service slowed
	 * down, or more threads did not help
	 */
	public record Decision(int threads, int needed, String reason, boolean changed, boolean mayBorrow,
			boolean limited) {

		static Decision change(int threads, String reason, boolean mayBorrow) {
			return new Decision(threads, threads, reason, true, mayBorrow, !mayBorrow);
		}

		static Decision hold(int threads, String reason, boolean mayBorrow) {
			return new Decision(threads, threads, reason, false, mayBorrow, !mayBorrow);
		}

		static Decision atMaxThreads(int threads, String reason) {
			return new Decision(threads, threads, reason, false, true, true);
		}

	}

	/**
	 * One closed window as the controller reads it.
	 */
	private static final class Window {

		private final LittlesLaw law;

		private final long completions;

		private final double busy;

		private final int size;

		private final PoolBounds bounds;

		private final double cpuLoad;

		private final double baseServiceMs;

		private final double previousThroughput;

		/**
		 * Work waits or is turned away: a queue, or more offered than served.
		 */
		private final boolean queueing;

		/**
		 * The model's size, or -1 while no service time is known.
		 */
		private final int need;

		Window(PoolSnapshot snapshot, int size, PoolBounds bounds, double cpuLoad, double baseServiceMs,
				double previousThroughput) {
			LittlesLaw law = snapshot.littlesLaw();
			this.law = law;
			this.completions = snapshot.windowCompletions();
			// X·S counts whole service times of the tasks that ended in the window, some
			// of which began before it: never more threads than the pool had.
			this.busy = Math.min(law.busyThreads(), Math.max(size, snapshot.sizes().poolSize()));
			this.size = size;
			this.bounds = bounds;
			this.cpuLoad = cpuLoad;
			this.baseServiceMs = baseServiceMs;
			this.previousThroughput = previousThroughput;
			this.queueing = snapshot.sizes().queueSize() > 0 || law.arrivalRate() > law.throughput() * 1.05;
			this.need = need(law, baseServiceMs);
		}

		/**
		 * The model: square-root staffing of the offered load at the base service time,
		 * capped by Goetz's size.
		 */
		private static int need(LittlesLaw law, double serviceMs) {
			if (law.arrivalRate() <= 0) {
				return 0;
			}
			if (Double.isNaN(serviceMs) || serviceMs <= 0) {
				return -1;
			}
			// Little's law: the offered load keeps λ·S threads busy.
			int staffed = staffed(law.arrivalRate() * serviceMs / 1000);
			Integer goetz = law.recommendedThreads();
			return (goetz != null) ? Math.min(staffed, Math.max(1, goetz)) : staffed;
		}

		boolean saturated() {
			return this.busy >= SATURATED_BUSY * this.size && this.queueing;
		}

	}

	/**
	 * A growth step being judged: the throughput before it, and the windows since.
	 */
	private static final class Step {

		private final int from;

		private final int to;

		private final double throughputBefore;

		private final long completionsBefore;

		private int windows;

		private double throughputSum;

		private long completions;

		Step(int from, int to, double throughputBefore, long completionsBefore) {
			this.from = from;
			this.to = to;
			this.throughputBefore = throughputBefore;
			this.completionsBefore = completionsBefore;
		}

		void measure(double throughput, long completions) {
			this.windows++;
			this.throughputSum += throughput;
			this.completions += completions;
		}

		/**
		 * The relative change of throughput, the step's windows against the one before.
		 */
		double gain() {
			return (this.throughputBefore > 0)
					? (this.throughputSum / this.windows - this.throughputBefore) / this.throughputBefore : 0;
		}

		/**
		 * The standard error of that change, counting completions as Poisson: √(1/N₁ +
		 * 1/N₀).
		 */
		double relativeError() {
			return Math.sqrt(1.0 / Math.max(1, this.completions) + 1.0 / Math.max(1, this.completionsBefore));
		}

	}

	/**
	 * A cut for a slower service: the size before it, and the mean service time that
	 * prompted it.
	 */
	private record Cut(int from, double serviceMs) {
	}

	/**
	 * The last few values of a figure, for its least and its largest.
	 */
	private static final class RecentValues {

		private final double[] values;

		private int count;

		RecentValues(int capacity) {
			this.values = new double[capacity];
		}

		void add(double value) {
			this.values[this.count % this.values.length] = value;
			this.count++;
		}

		double min() {
			return (this.count == 0) ? Double.NaN : Arrays.stream(this.values, 0, filled()).min().getAsDouble();
		}

		double max() {
			return (this.count == 0) ? Double.NaN : Arrays.stream(this.values, 0, filled()).max().getAsDouble();
		}

		private int filled() {
			return Math.min(this.count, this.values.length);
		}

	}

}
