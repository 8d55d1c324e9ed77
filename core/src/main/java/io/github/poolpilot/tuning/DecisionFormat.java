package io.github.poolpilot.tuning;

import java.time.Duration;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.tuning.Decision.Cause;
import io.github.poolpilot.tuning.Decision.Cause.AtKnee;
import io.github.poolpilot.tuning.Decision.Cause.AtMaxThreads;
import io.github.poolpilot.tuning.Decision.Cause.BudgetExceeded;
import io.github.poolpilot.tuning.Decision.Cause.BudgetFreed;
import io.github.poolpilot.tuning.Decision.Cause.BudgetReclaimed;
import io.github.poolpilot.tuning.Decision.Cause.LoanReturned;
import io.github.poolpilot.tuning.Decision.Cause.Buffering;
import io.github.poolpilot.tuning.Decision.Cause.Buffering.Overflow;
import io.github.poolpilot.tuning.Decision.Cause.Busy;
import io.github.poolpilot.tuning.Decision.Cause.ChangesSpent;
import io.github.poolpilot.tuning.Decision.Cause.CpuBound;
import io.github.poolpilot.tuning.Decision.Cause.CutBelowKnee;
import io.github.poolpilot.tuning.Decision.Cause.CutDidNotHelp;
import io.github.poolpilot.tuning.Decision.Cause.CutDraining;
import io.github.poolpilot.tuning.Decision.Cause.GrowthBlocked;
import io.github.poolpilot.tuning.Decision.Cause.Judging;
import io.github.poolpilot.tuning.Decision.Cause.Lent;
import io.github.poolpilot.tuning.Decision.Cause.Manual;
import io.github.poolpilot.tuning.Decision.Cause.NoGain;
import io.github.poolpilot.tuning.Decision.Cause.ProbeFell;
import io.github.poolpilot.tuning.Decision.Cause.ProbeUnclear;
import io.github.poolpilot.tuning.Decision.Cause.ProbingDown;
import io.github.poolpilot.tuning.Decision.Cause.Queueing;
import io.github.poolpilot.tuning.Decision.Cause.Refusing;
import io.github.poolpilot.tuning.Decision.Cause.Repaid;
import io.github.poolpilot.tuning.Decision.Cause.Settling;
import io.github.poolpilot.tuning.Decision.Cause.Slowdown;
import io.github.poolpilot.tuning.Decision.Cause.Surge;
import io.github.poolpilot.tuning.Decision.Cause.Surplus;
import io.github.poolpilot.tuning.Decision.Cause.WaitMoved;
import io.github.poolpilot.tuning.Decision.Cause.Waiting;
import io.github.poolpilot.tuning.Decision.KeptStep;

/**
 * Puts a {@link Decision} in words: the one place where decisions become sentences, for
 * the endpoint, the logs and the audit events.
 *
 * @author poolpilot authors
 */
public final class DecisionFormat {

	private DecisionFormat() {
	}

	/**
	 * Put a decision in words, such as {@code "grow 8→12: queueing, busy 7.9 of 8, needs
	 * 11"}.
	 * @param decision the decision
	 * @return the sentence
	 */
	public static String format(Decision decision) {
		String text = head(decision) + ": " + cause(decision) + kept(decision.kept());
		return (decision.budgetAllows() != null) ? text + " (the budget allows " + decision.budgetAllows() + ")" : text;
	}

	private static String head(Decision decision) {
		Cause cause = decision.cause();
		if (cause instanceof Manual manual) {
			return manual.resized() ? "resize " + manual.fromCore() + "/" + decision.from() + "→" + manual.toCore()
					+ "/" + decision.to() : "keep size";
		}
		String action = decision.action().name().toLowerCase(Locale.ROOT);
		return (decision.action() == Decision.Action.HOLD) ? action
				: action + " " + decision.from() + "→" + decision.to();
	}

	private static String cause(Decision decision) {
		Cause cause = decision.cause();
		if (cause instanceof Queueing queueing) {
			return "queueing, busy " + number(queueing.busy()) + " of " + decision.from() + ", needs "
					+ queueing.need();
		}
		if (cause instanceof Busy busy) {
			return "busy " + number(busy.busy()) + " of " + decision.from()
					+ ((busy.need() != null) ? ", needs " + busy.need() : "");
		}
		if (cause instanceof Judging judging) {
			return "judging " + judging.stepFrom() + "→" + judging.stepTo() + ": throughput "
					+ percent(judging.throughputGain()) + " so far, within its noise";
		}
		if (cause instanceof Waiting waiting) {
			return "tasks wait " + number(waiting.queueWaitMs()) + " ms for a thread, busy below " + decision.from()
					+ ", needs " + waiting.need();
		}
		if (cause instanceof Refusing refusing) {
			return "refused " + refusing.refused() + " of " + refusing.offered() + " tasks offered, needs "
					+ refusing.need();
		}
		if (cause instanceof Buffering buffering) {
			return "refused " + buffering.refused() + " of " + buffering.offered() + " tasks offered "
					+ ((buffering.overflow() == Overflow.CORES) ? "on saturated cores" : "in bursts")
					+ ", threads to hold them";
		}
		if (cause instanceof Surge surge) {
			return "surge, " + number(surge.arrivalRate()) + "/s offered against " + number(surge.windowArrivalRate())
					+ "/s in the last window, " + surge.queued() + " queued, needs " + surge.need();
		}
		if (cause instanceof ProbingDown probing) {
			return "probing down, does " + number(probing.throughput()) + "/s hold with fewer threads (service time "
					+ number(probing.serviceMs()) + " ms)";
		}
		if (cause instanceof ProbeFell fell) {
			return "throughput " + percent(fell.throughputChange()) + " with fewer threads, the knee is near "
					+ number(fell.kneeThreads()) + " threads, next probe down in " + fell.blocked().toSeconds() + " s";
		}
		if (cause instanceof ProbeUnclear unclear) {
			return "throughput " + percent(unclear.throughputChange())
					+ " with fewer threads, within its noise: not shown to hold, next probe down in "
					+ unclear.blocked().toSeconds() + " s";
		}
		if (cause instanceof WaitMoved moved) {
			return "queue wait " + signed(moved.queueWaitChangeMs()) + " ms but service time "
					+ signed(moved.serviceTimeChangeMs()) + " ms, growth blocked for " + moved.blocked().toSeconds()
					+ " s";
		}
		if (cause instanceof AtKnee atKnee) {
			return "queueing, needs " + atKnee.need() + ", but the knee is near " + number(atKnee.kneeThreads())
					+ " threads";
		}
		if (cause instanceof Settling settling) {
			Duration took = settling.lastResizeTook();
			return (took != null)
					? "settling after a resize that took " + seconds(took) + " s to take effect, next change in "
							+ seconds(settling.remaining()) + " s"
					: "settling while a resize restarts its workers, next change in at least "
							+ seconds(settling.remaining()) + " s";
		}
		if (cause instanceof ChangesSpent spent) {
			return spent.changes() + " size changes in the last " + ChangeBudget.PERIOD_SECONDS + " s, next change in "
					+ seconds(spent.remaining()) + " s";
		}
		if (cause instanceof AtMaxThreads atMax) {
			return "saturated at max-threads " + atMax.maxThreads();
		}
		if (cause instanceof Slowdown slowdown) {
			return "service time " + number(slowdown.ratio()) + "× its base of " + number(slowdown.baseServiceMs())
					+ " ms without more throughput";
		}
		if (cause instanceof CpuBound cpu) {
			return "CPU " + Math.round(cpu.cpuLoad() * 100) + "%";
		}
		if (cause instanceof GrowthBlocked blocked) {
			return "growth blocked for " + blocked.remaining().toSeconds() + " s (more threads did not help)";
		}
		if (cause instanceof NoGain noGain) {
			return "throughput " + percent(noGain.throughputGain()) + " for " + percent(noGain.threadsAdded())
					+ " threads, growth blocked for " + noGain.blocked().toSeconds() + " s";
		}
		if (cause instanceof CutDidNotHelp cut) {
			return "service time " + number(cut.serviceMs()) + " ms, not shorter with fewer threads ("
					+ number(cut.serviceMsBeforeCut()) + " ms before the cut)";
		}
		if (cause instanceof CutBelowKnee below) {
			return "throughput " + percent(below.throughputChange())
					+ " with fewer threads though the service time shortened, the knee is near "
					+ number(below.kneeThreads()) + " threads";
		}
		if (cause instanceof CutDraining draining) {
			return "judging the cut again: " + number(draining.busy())
					+ " threads were busy, its tasks began before it (" + number(draining.serviceMsBeforeCut())
					+ " ms before the cut)";
		}
		if (cause instanceof Surplus surplus) {
			return "needed at most " + surplus.peakNeed() + " in the last " + surplus.windows() + " windows";
		}
		if (cause instanceof BudgetReclaimed reclaimed) {
			return "other pools need the budget's threads (" + format(reclaimed.wanted()) + ")";
		}
		if (cause instanceof LoanReturned returned) {
			return "gives back what it borrowed beyond its share of " + returned.share() + " threads ("
					+ format(returned.wanted()) + ")";
		}
		if (cause instanceof BudgetFreed freed) {
			return "threads the budget kept are free now (" + format(freed.wanted()) + ")";
		}
		if (cause instanceof BudgetExceeded exceeded) {
			return "the pools' maximum sizes exceeded the budget of " + exceeded.maxThreads() + " threads";
		}
		if (cause instanceof Lent lent) {
			return (lent.borrower() != null) ? "lent idle threads to pool '" + lent.borrower() + "'"
					: "lent idle threads to a lower budget";
		}
		if (cause instanceof Repaid) {
			return "gave back threads beyond its weighted share: a pool below its share has work";
		}
		Manual manual = (Manual) cause;
		return "by " + manual.principal() + ", tuning " + manual.mode().value();
	}

	private static String kept(@Nullable KeptStep kept) {
		if (kept == null) {
			return "";
		}
		return "; step " + kept.from() + "→" + kept.to() + " kept: "
				+ (kept.queueDrained() ? "the queue drained" : "throughput " + percent(kept.throughputGain()));
	}

	private static String number(double value) {
		return String.format(Locale.ROOT, "%.1f", value);
	}

	private static String seconds(Duration duration) {
		return number(duration.toMillis() / 1000.0);
	}

	private static String signed(double value) {
		return String.format(Locale.ROOT, "%+.1f", value);
	}

	private static String percent(double ratio) {
		return String.format(Locale.ROOT, "%+.0f%%", ratio * 100);
	}

}
