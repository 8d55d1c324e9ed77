package io.github.poolpilot.tuning;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.measure.NanoClock;
import io.github.poolpilot.measure.PoolSnapshot.LittlesLaw;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.ProbeFell;
import io.github.poolpilot.tuning.Decision.Cause.ProbeUnclear;
import io.github.poolpilot.tuning.Decision.Cause.ProbingDown;
import io.github.poolpilot.tuning.Decision.KeptStep;

/**
 * One pool's probes down, the Vegas rule on whole windows: a saturated pool that does not
 * grow tries a quarter fewer threads; if its throughput holds (within {@value #TOLERANCE}
 * of the mean of the windows at its size before it, up to
 * {@value WindowNoise#LEVEL_WINDOWS}, so that one window's noise on a loaded machine is
 * not taken for a fall) fewer is better, and the next probe follows, held to the most
 * throughput of its chain, so that losses within the tolerance do not add up, and halves
 * the pool once two probes of the chain held ({@link #cut}); if it falls, the probe went
 * below the knee, whose service time is then the base S₀ uncongested, and the knee is
 * X·S₀ threads. The next probe then rests ({@link Backoff}). No probe goes below the
 * threads the CPU time alone keeps busy, nor starts near a knee already seen, nor in a
 * pool offered less than it serves (one that drains a backlog). A probe whose possible
 * loss is within the noise of the tasks that ended is judged over more windows, and one
 * still unclear after them is undone without a knee: one noisy window neither teaches a
 * knee nor takes threads. The next probe then waits a few seconds
 * ({@link #UNCLEAR_REST}), not the doubling rest after a fall. A fall within one standard
 * error of the windows' noise is judged over more windows too, as is a loss that would
 * be. No probe starts whose loss below the knee would stay within the noise over the most
 * windows it is judged on: it would only be undone, two of the pool's changes spent.
 * <p>
 * The throughput a probe that follows one that held must keep is the mean of the chain's
 * last {@value WindowNoise#LEVEL_WINDOWS} windows, and never less than the level where
 * the chain began: losses within the tolerance, one probe after another, do not add up,
 * and one window that served more than a downstream allows (the most of a chain of noisy
 * windows) does not make the next probe's noise a fall.
 *
 * @author poolpilot authors
 */
final class DownProbe {

	static final double CUT = 0.25;

	/**
	 * The share a probe takes once {@value #HELD_BEFORE_HALVING} probes of its chain
	 * held, in a pool of at least {@value #LEAST_TO_HALVE} threads.
	 */
	static final double CHAIN_CUT = 0.5;

	static final int HELD_BEFORE_HALVING = 2;

	static final int LEAST_TO_HALVE = 16;

	static final double TOLERANCE = 0.05;

	/**
	 * How long the next probe waits after an unclear one: long enough for a level of
	 * {@value WindowNoise#LEVEL_WINDOWS} windows of a second at the size it went back to.
	 */
	static final Duration UNCLEAR_REST = Duration.ofSeconds(WindowNoise.LEVEL_WINDOWS + 1);

	private final WindowNoise throughputs;

	private final Backoff rest;

	/**
	 * The probe being judged: a step down, measured window by window.
	 */
	private @Nullable Step pending;

	/**
	 * Whether the probe judged in the last window held.
	 */
	private boolean held;

	/**
	 * The throughput of the current chain's last windows that held, its first level's
	 * windows included.
	 */
	private final RecentValues chain = new RecentValues(WindowNoise.LEVEL_WINDOWS);

	/**
	 * The level where the current chain of probes began.
	 */
	private double chainStart = Double.NaN;

	/**
	 * How many probes of the current chain held.
	 */
	private int chainHeld;

	DownProbe(NanoClock clock) {
		this(clock, new WindowNoise());
	}

	/**
	 * Create a pool's probes.
	 * @param clock the clock that times the rest after a probe that fell
	 * @param throughputs the pool's throughput window to window, with its sizes
	 */
	DownProbe(NanoClock clock, WindowNoise throughputs) {
		this.rest = new Backoff(clock);
		this.throughputs = throughputs;
	}

	/**
	 * Judge the probe made in the last window, if any, over up to
	 * {@value PoolController#JUDGING_WINDOWS} windows: while the loss a probe below the
	 * knee would show is within two standard errors of the windows' noise (few tasks
	 * ended, a noisy mix of work), one window cannot tell it from a probe that held, and
	 * the next windows are counted too. A probe still unclear after them is
	 * {@linkplain ProbeOutcome.Verdict#UNCLEAR unclear}: fewer threads were not shown to
	 * serve as much.
	 * @param window the window since
	 * @return how it went, or {@code null} when there was none
	 */
	@Nullable ProbeOutcome judge(ClosedWindow window) {
		Step probe = this.pending;
		this.pending = null;
		this.held = false;
		if (probe == null) {
			return null;
		}
		probe.measure(window.throughput(), window.completions);
		double change = probe.gain();
		double error = probe.relativeError(this.throughputs.relativeVariance());
		boolean clear = standsOut(probe, error);
		boolean fell = window.queueing && change < -TOLERANCE;
		// A fall within one standard error is as likely one slow window as the knee.
		boolean doubtful = fell && change > -error;
		if ((!clear || doubtful) && window.queueing && probe.windows < PoolController.JUDGING_WINDOWS) {
			this.pending = probe;
			return new ProbeOutcome(probe.from, probe.to, probe.throughputBefore, change, false, false,
					ProbeOutcome.Verdict.AGAIN);
		}
		ProbeOutcome.Verdict verdict = (!clear && !fell && window.queueing) ? ProbeOutcome.Verdict.UNCLEAR
				: ProbeOutcome.Verdict.JUDGED;
		this.held = !fell && verdict == ProbeOutcome.Verdict.JUDGED;
		if (this.held) {
			this.chainHeld++;
			for (int i = 0; i < probe.windows; i++) {
				this.chain.add(probe.throughput());
			}
		}
		return new ProbeOutcome(probe.from, probe.to, probe.throughputBefore, change, fell, !window.queueing, verdict);
	}

	/**
	 * The probe was unclear: go back to where it started, without a knee. The next probe
	 * waits {@link #UNCLEAR_REST}, not the doubling rest of a probe that fell: an unclear
	 * probe found nothing to rest on, and its windows were often noisy for a while only
	 * (a downstream warming up after a start).
	 * @param window the window that judged it
	 * @param outcome how it went
	 * @return the decision to go back
	 */
	Decision unclear(ClosedWindow window, ProbeOutcome outcome) {
		return Decision.change(Action.REVERT, window.size, window.bounds.clamp(outcome.from()),
				new ProbeUnclear(outcome.change(), this.rest.brief(UNCLEAR_REST)), null, true);
	}

	/**
	 * Start a probe, or return {@code null} when none is due.
	 * @param window the window that just closed, saturated and held
	 * @param kept the step this window kept, if any
	 * @param knee the knee seen
	 * @return the decision to try fewer threads, or {@code null}
	 */
	@Nullable Decision start(ClosedWindow window, @Nullable KeptStep kept, Knee knee) {
		int size = window.size;
		LittlesLaw law = window.law;
		boolean overloaded = law.arrivalRate() >= law.throughput();
		if (knee.near(size) || !overloaded || window.completions == 0 || this.rest.resting()) {
			return null;
		}
		// Never below the threads the CPU time alone keeps busy: X·C, with
		// C = S/(1 + W/C); with the CPU busy and that unknown, not at all.
		Double waitCompute = law.waitComputeRatio();
		if (waitCompute == null && window.cpuBound()) {
			return null;
		}
		int cpuThreads = (waitCompute != null) ? (int) Math.ceil(window.busy / (1 + waitCompute)) : 1;
		int target = window.bounds.clamp(Math.max(cpuThreads, (int) (size * (1 - cut(size)))));
		if (target >= size) {
			return null;
		}
		WindowNoise.Level level = this.throughputs.level(size);
		double throughput = (level.windows() > 0) ? level.mean() : window.throughput();
		int windows = Math.max(1, level.windows());
		if (this.held) {
			// What the chain served lately, and never less than where it began.
			throughput = Math.max(this.chainStart, this.chain.mean());
			windows = this.chain.size();
		}
		Step probe = new Step(Step.Kind.PROBE, size, target, throughput, window.completions, window.serviceMs(),
				window.law.meanQueueWaitMs())
			.levelBefore(throughput, windows);
		if (!readable(probe)) {
			return null;
		}
		if (!this.held) {
			this.chainHeld = 0;
			this.chainStart = throughput;
			this.chain.clear();
			for (int i = 0; i < windows; i++) {
				this.chain.add(throughput);
			}
		}
		this.pending = probe;
		return Decision.change(Action.SHRINK, size, target, new ProbingDown(throughput, window.serviceMs()), kept,
				true);
	}

	/**
	 * The share of its threads the next probe takes: a quarter, and half once two probes
	 * of the chain held in a pool of sixteen threads or more, which is then far above its
	 * knee more often than near it. From 300 threads, a chain of quarters takes twelve
	 * probes to reach 8, one that halves seven to reach 7.
	 */
	private double cut(int size) {
		boolean far = this.held && this.chainHeld >= HELD_BEFORE_HALVING && size >= LEAST_TO_HALVE;
		return far ? CHAIN_CUT : CUT;
	}

	/**
	 * Return whether a probe's outcome can be read: whether the loss a probe below the
	 * knee would show stands out of the noise ({@link WindowNoise#SIGNIFICANT} standard
	 * errors) once it is judged over the most windows, the windows' noise and the counts
	 * staying as they are. A probe that cannot be read ends unclear and is undone, having
	 * spent two of the pool's changes and taught nothing, so it waits for quieter windows
	 * instead: those of a process warming up, whose throughput rises window to window, or
	 * of a pool that ends too few tasks a window.
	 * @param probe the probe, not yet measured
	 */
	private boolean readable(Step probe) {
		return standsOut(probe,
				probe.relativeErrorAfter(PoolController.JUDGING_WINDOWS, this.throughputs.relativeVariance()));
	}

	/**
	 * Return whether the loss a probe below the knee would show (the share of the threads
	 * it took: below the knee throughput falls with them) stands out of a standard error
	 * by {@link WindowNoise#SIGNIFICANT}.
	 */
	private static boolean standsOut(Step probe, double error) {
		double loss = 1 - (double) probe.to / probe.from;
		return loss >= WindowNoise.SIGNIFICANT * error;
	}

	/**
	 * The probe lost throughput: learn the knee, X·S₀ threads or, when more, the probe's
	 * size over the share of the throughput it kept, and go back to a tenth beyond it, at
	 * most to where the probe started; the next probe rests.
	 * @param window the window that judged it
	 * @param outcome how it went
	 * @param baseServiceMs S₀, now measured below the knee
	 * @param knee the knee to learn
	 * @return the decision to go back
	 */
	Decision fell(ClosedWindow window, ProbeOutcome outcome, double baseServiceMs, Knee knee) {
		// Below the knee throughput is in proportion to the threads, so the probe's own
		// loss bounds the knee from below: a pool whose base service time comes from
		// cheaper work than it runs now (a web server's requests, say) would otherwise
		// learn a knee far too low.
		double proportional = (outcome.change() > -1) ? outcome.to() / (1 + outcome.change()) : outcome.from();
		double kneeThreads = Math.max(outcome.throughputBefore() * baseServiceMs / 1000, proportional);
		knee.learn(kneeThreads, outcome.throughputBefore());
		int target = window.bounds
			.clamp(Math.min(outcome.from(), Math.max(window.size + 1, Knee.withMargin(kneeThreads))));
		return Decision.change(Action.REVERT, window.size, target,
				new ProbeFell(outcome.change(), kneeThreads, this.rest.take()), null, true);
	}

	/**
	 * The knee the last probe that fell taught was disproved ({@link Knee#disproved}):
	 * the next probe need not rest.
	 */
	void kneeDisproved() {
		this.rest.end();
	}

	/**
	 * The pool got another size than the probe asked for: the probe is judged by the size
	 * it really took, or dropped.
	 * @param threads the size the pool has now
	 */
	void applied(int threads) {
		Step pending = this.pending;
		if (pending != null && threads != pending.to) {
			this.pending = (threads < pending.from) ? pending.to(threads) : null;
		}
	}

	/**
	 * Return whether a probe down is being judged.
	 */
	boolean judging() {
		return this.pending != null;
	}

}
