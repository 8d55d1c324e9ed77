package io.github.poolpilot.tuning;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * A decision about one pool's size, as a value: what was done ({@link Action}), from
 * which size to which (maximum pool sizes), why ({@link Cause}, with the figures that
 * decided it), the growth step judged in the same window, and what the budget allowed.
 * {@link #reason()} puts it in words, as the endpoint and the logs show it.
 *
 * @param action what was done
 * @param from the pool's size before
 * @param to the pool's size after
 * @param cause why, with its figures
 * @param kept the step (growth or a probe down) that this window judged and kept, if any
 * @param budgetAllows the size the budget allowed when it is less than the controller
 * asked for, else {@code null}
 * @param needed how many of the threads its load needs now, the rest being kept idle for
 * a while: the budget takes them first when another pool needs them
 * @param mayBorrow whether the pool may take more than its guaranteed share of the budget
 * (not while more threads would not help it)
 * @param limited whether the pool is short of threads that it cannot have: it is
 * saturated at max-threads, the CPU or the budget is the limit, its service slowed down,
 * or more threads did not help
 * @author poolpilot authors
 */
public record Decision(Action action, int from, int to, Cause cause, @Nullable KeptStep kept,
		@Nullable Integer budgetAllows, int needed, boolean mayBorrow, boolean limited) {

	static Decision change(Action action, int from, int to, Cause cause, @Nullable KeptStep kept, boolean mayBorrow) {
		return new Decision(action, from, to, cause, kept, null, to, mayBorrow, !mayBorrow);
	}

	static Decision hold(int size, Cause cause, @Nullable KeptStep kept, boolean mayBorrow) {
		return new Decision(Action.HOLD, size, size, cause, kept, null, size, mayBorrow, !mayBorrow);
	}

	/**
	 * Return the pool's size for the next window.
	 * @return the size decided
	 */
	public int threads() {
		return this.to;
	}

	/**
	 * Return whether the size changes.
	 * @return whether {@code to} differs from {@code from}
	 */
	public boolean changed() {
		return this.to != this.from;
	}

	/**
	 * Return the decision in words, such as {@code "grow 8→12: queueing, busy 7.9 of 8,
	 * needs 11"}.
	 * @return the reason
	 */
	public String reason() {
		return DecisionFormat.format(this);
	}

	/**
	 * What was done.
	 */
	public enum Action {

		/**
		 * The pool grows.
		 */
		GROW,

		/**
		 * The pool shrinks.
		 */
		SHRINK,

		/**
		 * The pool keeps its size.
		 */
		HOLD,

		/**
		 * A growth step that did not pay, or a probe down that lost throughput, is
		 * undone.
		 */
		REVERT,

		/**
		 * A cut that did not shorten the service time is undone.
		 */
		RESTORE,

		/**
		 * A person changed the pool by hand.
		 */
		MANUAL

	}

	/**
	 * A step judged and kept in the same window: growth that paid, or a probe down with
	 * fewer threads that held the throughput.
	 *
	 * @param from the size before the step
	 * @param to the size after it
	 * @param throughputGain the relative change of throughput it brought
	 * @param queueDrained whether it was kept because the queue drained, rather than for
	 * its throughput
	 */
	public record KeptStep(int from, int to, double throughputGain, boolean queueDrained) {

	}

	/**
	 * Why a decision was made, with the figures that made it.
	 */
	public sealed interface Cause {

		/**
		 * The pool is saturated and tasks queue: the model's size, from the busy threads.
		 *
		 * @param busy the busy threads, X·S
		 * @param need the model's size
		 */
		record Queueing(double busy, int need) implements Cause {
		}

		/**
		 * The pool is not saturated.
		 *
		 * @param busy the busy threads, X·S
		 * @param need the model's size, or {@code null} while no service time is known
		 */
		record Busy(double busy, @Nullable Integer need) implements Cause {
		}

		/**
		 * A growth step is still being judged: its gain is within the windows' noise.
		 *
		 * @param stepFrom the size before the step
		 * @param stepTo the size after it
		 * @param throughputGain the relative change of throughput so far
		 */
		record Judging(int stepFrom, int stepTo, double throughputGain) implements Cause {
		}

		/**
		 * The pool is not saturated, but tasks wait for a thread and the model needs
		 * more: it is staffed up to the model's size.
		 *
		 * @param queueWaitMs the window's mean queue wait
		 * @param need the model's size
		 */
		record Waiting(double queueWaitMs, int need) implements Cause {
		}

		/**
		 * The pool turned tasks away in the window: refusals are demand, and it is
		 * staffed up to the size they ask for, the model's or its size over the share it
		 * served.
		 *
		 * @param refused tasks refused in the window
		 * @param offered tasks offered in the window, the refused ones included
		 * @param need the size the refusals ask for, before the pool's bounds and the
		 * step's limits
		 */
		record Refusing(long refused, long offered, int need) implements Cause {
		}

		/**
		 * The pool turned a material share of the offered tasks away where more threads
		 * serve no more but hold tasks, as the pool at its max-threads would: it grows by
		 * the share refused.
		 *
		 * @param refused tasks refused in the window
		 * @param offered tasks offered in the window, the refused ones included
		 * @param overflow why threads would hold what it refused
		 */
		record Buffering(long refused, long offered, Overflow overflow) implements Cause {

			/**
			 * Why threads hold what a pool refuses.
			 */
			public enum Overflow {

				/**
				 * The cores are saturated: threads wait for them.
				 */
				CORES,

				/**
				 * The pool was offered on average no more than it serves, but in bursts:
				 * threads wait for the cores or a downstream until a lull.
				 */
				BURSTS

			}

		}

		/**
		 * Between two windows, the load rose beyond what the pool serves: a surge met at
		 * once with the model's size for the short interval's arrival rate.
		 *
		 * @param arrivalRate tasks offered per second in the short interval
		 * @param windowArrivalRate tasks offered per second in the last window
		 * @param queued tasks waiting when it was seen
		 * @param need the model's size for the short interval's arrival rate
		 */
		record Surge(double arrivalRate, double windowArrivalRate, int queued, int need) implements Cause {
		}

		/**
		 * A saturated pool that does not grow tries fewer threads: if its throughput
		 * holds with fewer, fewer is better.
		 *
		 * @param throughput the throughput the probe must hold, tasks per second
		 * @param serviceMs the mean service time with the threads it has
		 */
		record ProbingDown(double throughput, double serviceMs) implements Cause {
		}

		/**
		 * A probe down lost throughput: the threads it took were not idle, and the knee
		 * lies where the throughput needs them.
		 *
		 * @param throughputChange the relative change of throughput with fewer threads
		 * @param kneeThreads the threads the throughput needs at the base service time
		 * (X·S₀)
		 * @param blocked how long the next probe down waits
		 */
		record ProbeFell(double throughputChange, double kneeThreads, Duration blocked) implements Cause {
		}

		/**
		 * A probe down seemed to hold the throughput, but within the windows' noise after
		 * the most windows it is judged over: fewer threads were not shown to serve as
		 * much, and the pool goes back, without a knee.
		 *
		 * @param throughputChange the relative change of throughput with fewer threads
		 * @param blocked how long the next probe down waits
		 */
		record ProbeUnclear(double throughputChange, Duration blocked) implements Cause {
		}

		/**
		 * A step that staffed a pool that was not saturated only moved its tasks' wait
		 * from the queue into their service time.
		 *
		 * @param queueWaitChangeMs the change of the mean queue wait
		 * @param serviceTimeChangeMs the change of the mean service time
		 * @param blocked how long growth is blocked now
		 */
		record WaitMoved(double queueWaitChangeMs, double serviceTimeChangeMs, Duration blocked) implements Cause {
		}

		/**
		 * The pool is saturated but stays: a knee was seen, and it is half beyond it.
		 *
		 * @param kneeThreads where the knee was seen, in threads
		 * @param need the model's size
		 */
		record AtKnee(double kneeThreads, int need) implements Cause {
		}

		/**
		 * The pool settles after a resize that restarted its workers (a Kafka listener's
		 * consumers rejoining their group): its windows show the restart, not its size,
		 * and it keeps its size until it settled.
		 *
		 * @param remaining how much longer it settles
		 * @param lastResizeTook how long its last resize took until its workers worked
		 * again, or {@code null} while its first one runs
		 */
		record Settling(Duration remaining, @Nullable Duration lastResizeTook) implements Cause {
		}

		/**
		 * The pool changed size as often as its budget of changes a minute allows, and
		 * the change a rule asked for can wait ({@link ChangeBudget}).
		 *
		 * @param changes the changes in the last minute
		 * @param remaining how long until the budget allows one again
		 */
		record ChangesSpent(int changes, Duration remaining) implements Cause {
		}

		/**
		 * The pool is saturated at its max-threads.
		 *
		 * @param maxThreads its max-threads
		 */
		record AtMaxThreads(int maxThreads) implements Cause {
		}

		/**
		 * The service time rose without more throughput.
		 *
		 * @param ratio the service time over its base
		 * @param baseServiceMs the base service time
		 */
		record Slowdown(double ratio, double baseServiceMs) implements Cause {
		}

		/**
		 * The CPU is the bottleneck.
		 *
		 * @param cpuLoad the process's CPU load, from 0 to 1
		 */
		record CpuBound(double cpuLoad) implements Cause {
		}

		/**
		 * Growth is blocked since more threads did not help.
		 *
		 * @param remaining how long it stays blocked
		 */
		record GrowthBlocked(Duration remaining) implements Cause {
		}

		/**
		 * A growth step did not raise throughput enough.
		 *
		 * @param throughputGain the relative change of throughput
		 * @param threadsAdded the relative change of threads
		 * @param blocked how long growth is blocked now
		 */
		record NoGain(double throughputGain, double threadsAdded, Duration blocked) implements Cause {
		}

		/**
		 * A cut for a slower service did not shorten the service time.
		 *
		 * @param serviceMs the mean service time after the cut
		 * @param serviceMsBeforeCut the mean service time that prompted it
		 */
		record CutDidNotHelp(double serviceMs, double serviceMsBeforeCut) implements Cause {
		}

		/**
		 * A cut for a slower service shortened the service time, but the throughput fell
		 * with the threads beyond the windows' noise: it went below the knee, which is
		 * the throughput before the cut at the service time after it, and the pool goes
		 * back to a tenth beyond that.
		 *
		 * @param throughputChange the relative change of throughput with fewer threads
		 * @param kneeThreads the knee, in threads
		 */
		record CutBelowKnee(double throughputChange, double kneeThreads) implements Cause {
		}

		/**
		 * A cut for a slower service is judged again: the window after it did not show
		 * it, and the tasks that finished in it began before the cut, many of them.
		 *
		 * @param busy the threads busy in the window, X·S
		 * @param serviceMsBeforeCut the mean service time that prompted the cut
		 */
		record CutDraining(double busy, double serviceMsBeforeCut) implements Cause {
		}

		/**
		 * The load needed fewer threads for a while.
		 *
		 * @param peakNeed the most the model needed in those windows
		 * @param windows how many windows
		 */
		record Surplus(int peakNeed, int windows) implements Cause {
		}

		/**
		 * Other pools need the budget's threads.
		 *
		 * @param wanted what the pool's controller decided
		 */
		record BudgetReclaimed(Decision wanted) implements Cause {
		}

		/**
		 * The pool gives back the threads it borrowed beyond its guaranteed share of the
		 * budget: more threads did not raise its throughput, so it may not borrow
		 * ({@link Decision#mayBorrow()}), whatever the other pools need.
		 *
		 * @param wanted what the pool's controller decided
		 * @param share the pool's guaranteed share, which it keeps
		 */
		record LoanReturned(Decision wanted, int share) implements Cause {
		}

		/**
		 * Threads the budget kept from the pool are free now: another pool gave them
		 * back, or they ended.
		 *
		 * @param wanted what the pool's controller decided, and still asks for
		 */
		record BudgetFreed(Decision wanted) implements Cause {
		}

		/**
		 * The pools' maximum sizes together exceeded the budget.
		 *
		 * @param maxThreads the budget's maximum
		 */
		record BudgetExceeded(int maxThreads) implements Cause {
		}

		/**
		 * The pool lent idle threads, down to what it uses, to a pool that grew.
		 *
		 * @param borrower the pool that grew, or {@code null} when the budget's maximum
		 * was lowered
		 */
		record Lent(@Nullable String borrower) implements Cause {
		}

		/**
		 * The pool, sized by hand, gave back threads beyond its guaranteed share: a pool
		 * below its share has work.
		 */
		record Repaid() implements Cause {
		}

		/**
		 * A person changed the pool.
		 *
		 * @param principal who
		 * @param fromCore the core size before
		 * @param toCore the core size after
		 * @param mode the pool's tuning mode after
		 * @param resized whether the sizes were set
		 */
		record Manual(String principal, int fromCore, int toCore, TuningMode mode, boolean resized) implements Cause {
		}

	}

}
