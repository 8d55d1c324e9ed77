package io.github.poolpilot.tuning;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause;
import io.github.poolpilot.tuning.Decision.Cause.AtKnee;
import io.github.poolpilot.tuning.Decision.Cause.AtMaxThreads;
import io.github.poolpilot.tuning.Decision.Cause.BudgetExceeded;
import io.github.poolpilot.tuning.Decision.Cause.BudgetFreed;
import io.github.poolpilot.tuning.Decision.Cause.BudgetReclaimed;
import io.github.poolpilot.tuning.Decision.Cause.LoanReturned;
import io.github.poolpilot.tuning.Decision.Cause.Busy;
import io.github.poolpilot.tuning.Decision.Cause.Buffering;
import io.github.poolpilot.tuning.Decision.Cause.Buffering.Overflow;
import io.github.poolpilot.tuning.Decision.Cause.CpuBound;
import io.github.poolpilot.tuning.Decision.Cause.CutBelowKnee;
import io.github.poolpilot.tuning.Decision.Cause.CutDidNotHelp;
import io.github.poolpilot.tuning.Decision.Cause.CutDraining;
import io.github.poolpilot.tuning.Decision.Cause.GrowthBlocked;
import io.github.poolpilot.tuning.Decision.Cause.Judging;
import io.github.poolpilot.tuning.Decision.Cause.Manual;
import io.github.poolpilot.tuning.Decision.Cause.NoGain;
import io.github.poolpilot.tuning.Decision.Cause.ProbeFell;
import io.github.poolpilot.tuning.Decision.Cause.ProbeUnclear;
import io.github.poolpilot.tuning.Decision.Cause.ProbingDown;
import io.github.poolpilot.tuning.Decision.Cause.Queueing;
import io.github.poolpilot.tuning.Decision.Cause.Slowdown;
import io.github.poolpilot.tuning.Decision.Cause.Refusing;
import io.github.poolpilot.tuning.Decision.Cause.Surge;
import io.github.poolpilot.tuning.Decision.Cause.Surplus;
import io.github.poolpilot.tuning.Decision.Cause.WaitMoved;
import io.github.poolpilot.tuning.Decision.Cause.Waiting;
import io.github.poolpilot.tuning.Decision.KeptStep;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DecisionFormat}: every kind of decision in words, as the endpoint and
 * the logs show it.
 *
 * @author poolpilot authors
 */
class DecisionFormatTests {

	@Test
	void growthAndItsHolds() {
		assertThat(format(Action.GROW, 8, 12, new Queueing(8, 19), null))
			.isEqualTo("grow 8→12: queueing, busy 8.0 of 8, needs 19");
		assertThat(format(Action.GROW, 12, 18, new Queueing(12, 19), new KeptStep(8, 12, 0.5, false)))
			.isEqualTo("grow 12→18: queueing, busy 12.0 of 12, needs 19; step 8→12 kept: throughput +50%");
		assertThat(format(Action.HOLD, 18, 18, new Busy(12.5, 19), new KeptStep(12, 18, 0.04, true)))
			.isEqualTo("hold: busy 12.5 of 18, needs 19; step 12→18 kept: the queue drained");
		assertThat(format(Action.HOLD, 4, 4, new Busy(0.2, null), null)).isEqualTo("hold: busy 0.2 of 4");
		assertThat(format(Action.HOLD, 12, 12, new Judging(8, 12, 0), null))
			.isEqualTo("hold: judging 8→12: throughput +0% so far, within its noise");
		assertThat(format(Action.HOLD, 20, 20, new AtMaxThreads(20), null))
			.isEqualTo("hold: saturated at max-threads 20");
	}

	@Test
	void aPoolSettlingAfterARestartSaysWhatTheRestartCost() {
		assertThat(format(Action.HOLD, 3, 3,
				new Decision.Cause.Settling(Duration.ofMillis(7400), Duration.ofMillis(840)), null))
			.isEqualTo("hold: settling after a resize that took 0.8 s to take effect, next change in 7.4 s");
		assertThat(format(Action.HOLD, 3, 3, new Decision.Cause.Settling(Duration.ofSeconds(2), null), null))
			.isEqualTo("hold: settling while a resize restarts its workers, next change in at least 2.0 s");
	}

	@Test
	void whatHoldsGrowthBack() {
		assertThat(format(Action.HOLD, 8, 8, new CpuBound(0.95), null)).isEqualTo("hold: CPU 95%");
		assertThat(format(Action.HOLD, 8, 8, new GrowthBlocked(Duration.ofSeconds(30)), null))
			.isEqualTo("hold: growth blocked for 30 s (more threads did not help)");
		assertThat(format(Action.REVERT, 12, 8, new NoGain(0, 0.5, Duration.ofSeconds(30)), null))
			.isEqualTo("revert 12→8: throughput +0% for +50% threads, growth blocked for 30 s");
		assertThat(format(Action.SHRINK, 12, 9, new Slowdown(3, 20), null))
			.isEqualTo("shrink 12→9: service time 3.0× its base of 20.0 ms without more throughput");
		assertThat(format(Action.RESTORE, 9, 12, new CutDidNotHelp(60, 60), null))
			.isEqualTo("restore 9→12: service time 60.0 ms, not shorter with fewer threads (60.0 ms before the cut)");
		assertThat(format(Action.REVERT, 6, 11, new CutBelowKnee(-0.4, 10), null)).isEqualTo(
				"revert 6→11: throughput -40% with fewer threads though the service time shortened, the knee is near 10.0 threads");
		assertThat(format(Action.HOLD, 9, 9, new CutDraining(14.2, 60), null)).isEqualTo(
				"hold: judging the cut again: 14.2 threads were busy, its tasks began before it (60.0 ms before the cut)");
		assertThat(format(Action.SHRINK, 20, 8, new Surplus(8, 10), null))
			.isEqualTo("shrink 20→8: needed at most 8 in the last 10 windows");
	}

	@Test
	void theFastPathAndStaffing() {
		assertThat(format(Action.GROW, 3, 20, new Surge(600, 100, 45, 19), null))
			.isEqualTo("grow 3→20: surge, 600.0/s offered against 100.0/s in the last window, 45 queued, needs 19");
		assertThat(format(Action.GROW, 2, 4, new Refusing(20, 272, 5), null))
			.isEqualTo("grow 2→4: refused 20 of 272 tasks offered, needs 5");
		assertThat(format(Action.GROW, 20, 25, new Buffering(20, 100, Overflow.CORES), null))
			.isEqualTo("grow 20→25: refused 20 of 100 tasks offered on saturated cores, threads to hold them");
		assertThat(format(Action.GROW, 20, 25, new Buffering(20, 100, Overflow.BURSTS), null))
			.isEqualTo("grow 20→25: refused 20 of 100 tasks offered in bursts, threads to hold them");
		assertThat(format(Action.GROW, 3, 5, new Waiting(9, 5), null))
			.isEqualTo("grow 3→5: tasks wait 9.0 ms for a thread, busy below 3, needs 5");
		assertThat(format(Action.REVERT, 5, 3, new WaitMoved(-8, 8, Duration.ofSeconds(30)), null))
			.isEqualTo("revert 5→3: queue wait -8.0 ms but service time +8.0 ms, growth blocked for 30 s");
		assertThat(format(Action.HOLD, 12, 12, new AtKnee(8, 19), null))
			.isEqualTo("hold: queueing, needs 19, but the knee is near 8.0 threads");
	}

	@Test
	void probesDown() {
		assertThat(format(Action.SHRINK, 50, 37, new ProbingDown(160, 312.5), null))
			.isEqualTo("shrink 50→37: probing down, does 160.0/s hold with fewer threads (service time 312.5 ms)");
		assertThat(format(Action.SHRINK, 37, 27, new ProbingDown(160, 231.25), new KeptStep(50, 37, 0, false)))
			.isEqualTo("shrink 37→27: probing down, does 160.0/s hold with fewer threads (service time 231.3 ms); "
					+ "step 50→37 kept: throughput +0%");
		assertThat(format(Action.REVERT, 6, 8, new ProbeFell(-0.25, 8, Duration.ofSeconds(30)), null))
			.isEqualTo("revert 6→8: throughput -25% with fewer threads, the knee is near 8.0 threads, "
					+ "next probe down in 30 s");
		assertThat(format(Action.REVERT, 15, 20, new ProbeUnclear(0.01, Duration.ofSeconds(30)), null)).isEqualTo(
				"revert 15→20: throughput +1% with fewer threads, within its noise: not shown to hold, next probe down in 30 s");
	}

	@Test
	void theBudgetsSay() {
		Decision wanted = decision(Action.HOLD, 20, 20, new Busy(3, 4), null);
		assertThat(format(Action.SHRINK, 20, 6, new BudgetReclaimed(wanted), null))
			.isEqualTo("shrink 20→6: other pools need the budget's threads (hold: busy 3.0 of 20, needs 4)");
		Decision blocked = Decision.hold(252, new GrowthBlocked(Duration.ofSeconds(11)), null, false);
		assertThat(format(Action.SHRINK, 252, 40, new LoanReturned(blocked, 40), null)).isEqualTo(
				"shrink 252→40: gives back what it borrowed beyond its share of 40 threads (hold: growth blocked for 11 s (more threads did not help))");
		assertThat(format(Action.SHRINK, 300, 10, new BudgetExceeded(30), null))
			.isEqualTo("shrink 300→10: the pools' maximum sizes exceeded the budget of 30 threads");
		Decision surge = decision(Action.GROW, 1, 12, new Surge(300, 0, 30, 11), null);
		assertThat(format(Action.GROW, 1, 5, new BudgetFreed(surge), null)).isEqualTo(
				"grow 1→5: threads the budget kept are free now (grow 1→12: surge, 300.0/s offered against 0.0/s in the last window, 30 queued, needs 11)");
		Decision allowed = new Decision(Action.GROW, 20, 20, new Queueing(20, 41), null, 20, 20, true, true);
		assertThat(allowed.reason())
			.isEqualTo("grow 20→20: queueing, busy 20.0 of 20, needs 41 (the budget allows 20)");
	}

	@Test
	void aPersonsChange() {
		assertThat(format(Action.MANUAL, 4, 8, new Manual("alice", 4, 8, TuningMode.MANUAL, true), null))
			.isEqualTo("resize 4/4→8/8: by alice, tuning manual");
		assertThat(format(Action.MANUAL, 4, 4, new Manual("anonymous", 4, 4, TuningMode.AUTO, false), null))
			.isEqualTo("keep size: by anonymous, tuning auto");
	}

	private static String format(Action action, int from, int to, Cause cause, KeptStep kept) {
		return DecisionFormat.format(decision(action, from, to, cause, kept));
	}

	private static Decision decision(Action action, int from, int to, Cause cause, KeptStep kept) {
		return new Decision(action, from, to, cause, kept, null, to, true, false);
	}

}
