/**
 * The tuner: deciding each pool's size from its measurements, in plain Java with an
 * injectable clock so that it can be driven on virtual time. The {@link Tuner} plans
 * every pool's size within the budget; a {@link PoolController} decides one pool's,
 * window after window, by the rules below.
 * <p>
 * <b>Model.</b> The {@link SizingModel} staffs the offered load, λ the arrival rate
 * (rejected tasks included), at the pool's base service time S₀: the least mean service
 * time of the last {@value PoolController#BASE_WINDOWS} windows of like work, what a task
 * takes when nothing is congested, kept longer while the pool stays saturated
 * ({@link BaseServiceTime}).
 * <p>
 * <b>Growing.</b> A saturated pool (busy threads X·S at least
 * {@value PoolController#SATURATED_BUSY} of its size while tasks queue or are turned
 * away) grows towards a tenth beyond the model's size by at most half of its size in one
 * window, so that a downstream's limit is passed by at most 50 % ({@link GrowthRule}),
 * when {@link SaturatedGrowth} lets it: below its max-threads and half beyond a knee
 * seen, with the process CPU at most {@value PoolController#MAX_CPU}, and not while
 * growth rests, unless refusals cut the rest short. A pool that is not saturated but
 * whose tasks wait (a mean queue wait above {@value PoolController#WAITING} of S₀) is
 * staffed up to the model's size at once, unless the CPU is above
 * {@value PoolController#MAX_CPU} or growth rests. Each step is judged in the next window
 * ({@link StepJudge}): kept when throughput rose with the threads, undone with growth
 * resting when it fell short by more than the windows' noise ({@link WindowNoise}),
 * judged again otherwise; a step that raised throughput clearly less than in proportion
 * crossed the knee where threads stop paying: growth then stops half beyond the knee. A
 * pool that refused work grows for its refusals ({@link RefusalRule}). A pool a quarter
 * of the model's size or less that turns away or leaves waiting more than a quarter of
 * its work at its base service time leaps to the model's size in one step
 * ({@link ClosedWindow#leaps}), judged as a surge is: steps of ×1.5 from a few threads
 * would refuse for many windows what the pool at its max-threads serves.
 * <p>
 * <b>From above.</b> A saturated pool that does not grow probes down ({@link DownProbe})
 * when {@link SaturatedGrowth} finds a probe due: fewer is better while the throughput
 * holds, and the probe that loses throughput finds the knee. A knee that the throughput
 * outgrew is forgotten ({@link Knee#outgrown}). A service time that passed its base
 * without more throughput is cut ({@link SlowdownRule}). Held probes, found knees and
 * cuts that shortened the service time all say that more threads would not help: growth
 * rests, as after a step that did not pay ({@link Backoff}).
 * <p>
 * <b>The CPU.</b> Wherever a rule speaks of the process CPU above
 * {@value PoolController#MAX_CPU}, it means a CPU that limits the pool: busy while the
 * pool's own tasks keep a quarter of the cores busy or their CPU time is unknown, and the
 * pool was not idle ({@link ClosedWindow#cpuBound}).
 * <p>
 * <b>Shrinking.</b> When the model needed fewer threads than the pool has (beyond a dead
 * band of a fifth) for {@value PoolController#SHRINK_WINDOWS} windows in a row
 * ({@link SurplusRule}), the pool shrinks in one step to the most the model needed in
 * those windows. Short lulls do not shrink it, so bursty load does not make the size
 * swing; until then the idle threads are the first the budget takes when another pool
 * needs them ({@link Decision#needed()}). A window in which the pool refused work is no
 * surplus.
 * <p>
 * <b>Changes.</b> A pool that changed size {@value ChangeBudget#CHANGES} times in the
 * last minute has spent its budget of changes ({@link ChangeBudget}): the changes that
 * can wait (a cut, a probe down, a shrink for surplus, staffing, growth while the pool
 * refuses nothing, growth for the share refused alone, a buffer) wait until the oldest of
 * them is a minute old. Growth to the model's size that meets refusals, a buffer for more
 * than {@value RefusalRule#URGENT} of the offered tasks refused, a surge, a cut of a pool
 * beyond the half above a knee seen and the judgment of a change already made (a revert,
 * a restore) do not wait.
 */
@NullMarked
package io.github.poolpilot.tuning;

import org.jspecify.annotations.NullMarked;
