package io.github.poolpilot.tuning;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.measure.PoolSnapshot.Rejections;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.Buffering;
import io.github.poolpilot.tuning.Decision.Cause.Buffering.Overflow;
import io.github.poolpilot.tuning.Decision.Cause.Refusing;
import io.github.poolpilot.tuning.Decision.KeptStep;

/**
 * Refusals are demand: a pool that turned tasks away in a window (a full queue, or a task
 * that waited too long for a thread) while the model needs more threads than it has grows
 * to the model's size at once, a tenth beyond it, whatever the throughput said of its
 * last step and whether or not its threads looked busy: when a pool serves nearly
 * everything offered, more threads cannot raise its throughput, only take away its
 * refusals. Only a step whose added threads were shown to wait elsewhere (their service
 * time rose with them, {@link StepJudge#wastedRest()}) holds it back while growth rests,
 * and a knee seen caps it. The step is judged like any other, and kept unless its threads
 * only waited. A pool far below the model's size that refuses most of its work leaps to
 * it ({@link ClosedWindow#leaps}). Where more threads serve no more (saturated cores, a
 * burst past a downstream's limit) they still hold tasks as the pool at its max-threads
 * would: the pool grows as a buffer for the share it refused ({@link #buffer}).
 *
 * @author poolpilot authors
 */
final class RefusalRule {

	/**
	 * The cumulative refusals for want of room at the last window, -1 before the first.
	 */
	private long refusedBefore = -1;

	/**
	 * The share of the offered tasks refused that is demand more threads must meet.
	 */
	static final double MATERIAL = 0.01;

	/**
	 * The share of the tasks a pool on saturated cores holds that the threads it may
	 * still add must hold for it to grow as a buffer.
	 */
	static final double MATERIAL_ROOM = 0.25;

	/**
	 * The share of the offered tasks a pool must refuse to grow as a buffer though its
	 * budget of changes is spent.
	 */
	static final double URGENT = 0.25;

	/**
	 * The share of its threads a pool must have kept busy for its refusals to be demand.
	 */
	static final double BUSY = 0.5;

	/**
	 * The windows over which the offered and the served tasks are compared, to tell a
	 * burst's overflow from a steady overload.
	 */
	static final int OVERFLOW_WINDOWS = 10;

	/**
	 * The tasks offered in each of the last windows that were offered any: an idle pool
	 * before its load is no lull between bursts.
	 */
	private final RecentValues offered = new RecentValues(OVERFLOW_WINDOWS);

	/**
	 * The tasks served in each of the same windows.
	 */
	private final RecentValues served = new RecentValues(OVERFLOW_WINDOWS);

	/**
	 * Return the tasks the pool refused in the window that closed, for want of a thread
	 * or a place in its queue (not for an open circuit nor a shutdown). In the first
	 * window a controller sees, the refusals so far are the window's only when the pool
	 * began in it (every task it was ever offered was offered in the window); a pool that
	 * ran before it is counted from the next window.
	 * @param snapshot the window
	 * @return the refusals, 0 for the first window of a pool that ran before it
	 */
	long refused(PoolSnapshot snapshot) {
		if (snapshot.windowArrivals() > 0) {
			this.offered.add(snapshot.windowArrivals());
			this.served.add(snapshot.windowCompletions());
		}
		Rejections rejections = snapshot.tasks().rejections();
		long total = rejections.queueFull() + rejections.queueWait();
		long refused;
		if (this.refusedBefore >= 0) {
			refused = Math.max(0, total - this.refusedBefore);
		}
		else {
			refused = ClosedWindow.began(snapshot) ? total : 0;
		}
		this.refusedBefore = total;
		return refused;
	}

	/**
	 * Staff a pool that refused tasks, or return {@code null}: up to the model's size
	 * when it needs more threads than it has, and, when it refused a material share of
	 * the offered tasks, by that share whatever the model says (bursts, a mix of cheap
	 * and dear tasks overflow a short queue while the threads are busy less than the
	 * pool's size on average). Growth for the share refused alone waits while the pool's
	 * budget of changes is spent: it meets the refusals of a burst, which the next bursts
	 * repeat. While the CPU is above {@value PoolController#MAX_CPU}, after threads that
	 * only waited, and past the knee's cap, the pool may be {@linkplain #buffer buffered}
	 * instead.
	 * @param window the window that just closed
	 * @param kept the step this window kept, if any
	 * @param steps the growth steps' judge
	 * @param knee the knee seen
	 * @param changes the pool's budget of changes
	 * @return the decision to grow, or {@code null}
	 */
	@Nullable Decision staff(ClosedWindow window, @Nullable KeptStep kept, StepJudge steps, Knee knee, ChangeBudget changes) {
		int size = window.size;
		if (window.refused == 0) {
			return null;
		}
		if (window.cpuBound() || steps.wastedRest()) {
			return buffer(window, kept, steps, changes);
		}
		int wanted = size;
		if (window.refusing() && window.need > size) {
			wanted = window.need + Math.max(1, window.need / 10);
		}
		if (material(window) && !window.slowed() && !changes.spent()) {
			wanted = Math.max(wanted, fromRefused(window));
		}
		// At most half again its size in one step, and half beyond a knee seen: a
		// downstream's limit is passed by at most 50 %.
		int most = Math.min((int) Math.ceil(size * PoolController.MAX_GROWTH), knee.cap());
		boolean leap = steps.mayLeap() && window.leaps(wanted, most);
		if (leap) {
			most = Math.min(wanted, knee.cap());
		}
		int target = window.bounds.clamp(Math.min(wanted, Math.max(most, size)));
		if (target <= size) {
			return buffer(window, kept, steps, changes);
		}
		steps.take(Step.after(leap ? Step.Kind.SURGE : Step.Kind.REFUSING, window, target));
		return Decision.change(Action.GROW, size, target, new Refusing(window.refused, window.offered, wanted), kept,
				true);
	}

	/**
	 * Buffer a pool that refused a material share of the offered tasks when more threads
	 * would not serve more but would hold tasks, as a pool fixed at its max-threads does,
	 * which would have taken what this one refused ({@link #overflow}), or return
	 * {@code null}. The pool grows by the share refused (half again its size at most),
	 * past a knee seen, after threads that only waited and whether or not its service
	 * time rose with its threads (it does, as they wait for the cores or a downstream),
	 * while it may add threads that would hold them ({@link #buffers}), and while changes
	 * are left in its budget, unless it refused more than {@value #URGENT} of the offered
	 * tasks: its budget stops a pool swinging, and a pool that turns away a quarter of
	 * its work for a minute while the threads it may add would hold it is not swinging
	 * (census draw 467, tasks of 14 ms of CPU in bursts on saturated cores, a queue of
	 * 14: 9 changes in its first 16 s, then 27 of 232 threads for 45 s while it refused
	 * 40-50 % of its tasks in bursts the pool fixed at 232 held). A steady overload fills
	 * any buffer: it is no reason.
	 * @param window the window that just closed
	 * @param kept the step this window kept, if any
	 * @param steps the growth steps' judge
	 * @param changes the pool's budget of changes
	 * @return the decision to grow, or {@code null}
	 */
	@Nullable Decision buffer(ClosedWindow window, @Nullable KeptStep kept, StepJudge steps, ChangeBudget changes) {
		int size = window.size;
		Overflow overflow = overflow(window);
		boolean waits = changes.spent() && window.refusedShare() <= URGENT;
		if (overflow == null || !material(window) || !buffers(window, overflow) || waits) {
			return null;
		}
		int target = window.bounds
			.clamp(Math.min(fromRefused(window), (int) Math.ceil(size * PoolController.MAX_GROWTH)));
		steps.take(Step.after(Step.Kind.BUFFERING, window, target));
		return Decision.change(Action.GROW, size, target, new Buffering(window.refused, window.offered, overflow), kept,
				true);
	}

	/**
	 * Return why threads would hold what the pool refuses, or {@code null} when they
	 * would not: the cores are saturated (above {@value PoolController#MAX_CPU}), or the
	 * tasks offered in the last {@value #OVERFLOW_WINDOWS} windows that were offered any
	 * were on average no more than the pool served in its best one, so what it refused
	 * overflowed in bursts, which threads waiting on the cores or on a downstream hold
	 * until a lull.
	 */
	private @Nullable Overflow overflow(ClosedWindow window) {
		if (window.cpuBound()) {
			return Overflow.CORES;
		}
		return (this.offered.mean() <= this.served.max()) ? Overflow.BURSTS : null;
	}

	/**
	 * Return whether the pool refused more than {@value #MATERIAL} of the tasks offered
	 * while its threads were busy at least {@value #BUSY} of the window: a pool whose
	 * threads mostly idled refused for something else than their number (a stall). Off
	 * the cores, a pool whose service time also passed its base
	 * ({@link ClosedWindow#slowed}) refused because its tasks take longer: its threads
	 * wait for something they share (a downstream), which more would wait for too.
	 */
	private static boolean material(ClosedWindow window) {
		return window.refusedShare() > MATERIAL && window.busy >= BUSY * window.size;
	}

	/**
	 * The size that serves the tasks refused too if the throughput grows with the
	 * threads: the size over the share served, at least one thread more.
	 */
	private static int fromRefused(ClosedWindow window) {
		double served = 1 - Math.min(window.refusedShare(), 0.5);
		return Math.max(window.size + 1, (int) Math.ceil(window.size / served));
	}

	/**
	 * Return whether threads the pool may still add would hold what it refuses. On
	 * saturated cores, when they would hold at least {@value #MATERIAL_ROOM} as many
	 * tasks again as the pool holds now in its threads and queue: each holds a task the
	 * pool at its max-threads would hold and this one refuses, and none waits at a
	 * downstream (census draw 522, 8 of 350 threads on a CPU 90-95 % busy, refused 941
	 * tasks more than the pool fixed at 350 while the 342 threads it could add were fewer
	 * than its queue's 427 places). Fewer than that hold little more than the queue does:
	 * S1's 62 threads beside a queue of 600 would not serve its steady overload, only
	 * pass the cores. For bursts, only while they outnumber its queue's places: past a
	 * downstream's knee more threads than that wait in its line.
	 */
	private static boolean buffers(ClosedWindow window, Overflow overflow) {
		int room = window.bounds.maxThreads() - window.size;
		if (overflow == Overflow.CORES) {
			return room > MATERIAL_ROOM * (window.size + window.queueCapacity);
		}
		return room > window.queueCapacity;
	}

}
