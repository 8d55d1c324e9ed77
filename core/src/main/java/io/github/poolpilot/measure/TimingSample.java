package io.github.poolpilot.measure;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntUnaryOperator;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.jspecify.annotations.Nullable;

/**
 * Which tasks are timed, and what their times give that counts cannot: the percentiles of
 * the queue wait, service and response times, and the CPU time behind W/C.
 * <p>
 * The share of tasks timed adapts to the pool's load once a window: about
 * {@value #TIMED_PER_WINDOW} a window, enough for a p99 that rests on ten tasks or more,
 * but never more than the clock budget, so that timing costs at most about
 * {@value #CLOCK_BUDGET_PERCENT} % of the time the tasks themselves run (a timed task
 * costs about {@value #TIMED_TASK_NANOS} ns: three clock reads, its wrapper and three
 * histogram records). A pool below that rate has every task timed, and its means are
 * exact sums; a faster one has one task in {@code every} timed, at random, and its means
 * come from Little's law. A user may ask for fewer timed tasks, never for more. CPU time,
 * which costs a system call, is read on about {@value #CPU_SAMPLES_PER_WINDOW} timed
 * tasks a window.
 *
 * @author poolpilot authors
 */
final class TimingSample {

	static final long TIMED_PER_WINDOW = 1000;

	static final long CPU_SAMPLES_PER_WINDOW = 100;

	static final int CLOCK_BUDGET_PERCENT = 1;

	static final long TIMED_TASK_NANOS = 200;

	/**
	 * Two significant digits bound each percentile's error to 1 % while keeping a
	 * histogram near 40 KB.
	 */
	private static final int SIGNIFICANT_DIGITS = 2;

	/**
	 * A uniform draw in [0, bound): the thread's own random by default, a seeded one in
	 * tests. It runs on every submit, so it scales a random 32-bit word to the bound with
	 * a multiply and a shift rather than taking it modulo the bound as
	 * {@code nextInt(bound)} does: no integer division (tens of cycles) and no retry
	 * loop. Each value is drawn with a probability within {@code bound / 2^32} of
	 * {@code 1 / bound}: for the bounds a pool uses (a few thousands), a bias under one
	 * in a million.
	 */
	static final IntUnaryOperator THREAD_LOCAL_RANDOM = (bound) -> scaled(ThreadLocalRandom.current().nextInt(), bound);

	/**
	 * The steps of the uniform draw in (0, 1] behind a geometric draw.
	 */
	private static final int UNIT_STEPS = 1 << 30;

	/**
	 * The draw when it is not {@link #THREAD_LOCAL_RANDOM}, which is called directly
	 * ({@link #draw(int)}): a call through the interface costs every submit about ten
	 * instructions more.
	 */
	private final @Nullable IntUnaryOperator seeded;

	private final int leastEvery;

	private final int leastCpuEvery;

	/**
	 * Time one task in this many, chosen at each window's close.
	 */
	private volatile int every;

	/**
	 * Record one timed task in this many into the histograms: more than one only when
	 * more tasks are timed than the percentiles need (guarded or decorated tasks are
	 * always timed).
	 */
	private volatile int histogramEvery = 1;

	/**
	 * Read the CPU time of one timed task in this many, 0 for never.
	 */
	private volatile int cpuEvery;

	private final Recorder queueWait = new Recorder(SIGNIFICANT_DIGITS);

	private final Recorder service = new Recorder(SIGNIFICANT_DIGITS);

	private final Recorder response = new Recorder(SIGNIFICANT_DIGITS);

	private @Nullable Histogram queueWaitInterval;

	private @Nullable Histogram serviceInterval;

	private @Nullable Histogram responseInterval;

	/**
	 * @param leastEvery time at most one task in this many (1: as many as the load
	 * allows)
	 * @param leastCpuEvery read the CPU time of at most one timed task in this many, 0
	 * for never
	 * @param draw a uniform draw in [0, bound)
	 */
	TimingSample(int leastEvery, int leastCpuEvery, IntUnaryOperator draw) {
		this.seeded = (draw != THREAD_LOCAL_RANDOM) ? draw : null;
		this.leastEvery = leastEvery;
		this.leastCpuEvery = leastCpuEvery;
		this.every = leastEvery;
		this.cpuEvery = leastCpuEvery;
	}

	/**
	 * Scale a uniform 32-bit word to a uniform draw in [0, bound).
	 * @param word any int, read as unsigned
	 * @param bound the bound, at least 1
	 * @return {@code floor(word * bound / 2^32)}
	 */
	static int scaled(int word, int bound) {
		return (int) ((Integer.toUnsignedLong(word) * bound) >>> 32);
	}

	/**
	 * Draw uniformly in [0, bound).
	 */
	private int draw(int bound) {
		IntUnaryOperator seeded = this.seeded;
		return (seeded != null) ? seeded.applyAsInt(bound) : scaled(ThreadLocalRandom.current().nextInt(), bound);
	}

	boolean timesThisTask() {
		int every = this.every;
		return every == 1 || draw(every) == 0;
	}

	/**
	 * Return whether to time a task submitted by the thread that owns the given totals:
	 * the same choice as {@link #timesThisTask()}, each task timed with probability
	 * {@code 1 / every}, drawn once per timed task rather than once per task. Between two
	 * tasks timed that way the untimed ones number a geometric draw, so the totals keep
	 * how many are left and draw the next count when a task is timed; a count drawn for
	 * another {@code every} is drawn anew, which, a geometric count having no memory,
	 * times each task from then on as per-task draws at the new {@code every} would.
	 * @param own the submitting thread's totals, written by it alone
	 * @return whether to time it
	 */
	boolean timesThisTask(WorkerTotals own) {
		// Kept small enough to be inlined into every submit; the draw is a call of its
		// own.
		int left = own.untimedLeft;
		if (left > 0 && own.drawnEvery == this.every) {
			own.untimedLeft = left - 1;
			return false;
		}
		return drawnAgain(own);
	}

	/**
	 * Decide for a task whose thread's count ran out, or was drawn for another share of
	 * timed tasks, and draw the count after it.
	 */
	private boolean drawnAgain(WorkerTotals own) {
		int every = this.every;
		int left = own.untimedLeft;
		if (own.drawnEvery != every) {
			own.drawnEvery = every;
			left = untimedBeforeNextTimed(every);
		}
		if (left > 0) {
			own.untimedLeft = left - 1;
			return false;
		}
		own.untimedLeft = untimedBeforeNextTimed(every);
		return true;
	}

	/**
	 * Draw how many tasks go untimed before the next timed one when each is timed with
	 * probability {@code p = 1 / every}: {@code floor(ln(u) / ln(1 - p))} for a uniform
	 * {@code u} in (0, 1], which is {@code k} or more with probability {@code (1 - p)^k}.
	 */
	int untimedBeforeNextTimed(int every) {
		if (every <= 1) {
			return 0;
		}
		double u = 1.0 - draw(UNIT_STEPS) / (double) UNIT_STEPS;
		return (int) Math.min(Integer.MAX_VALUE, Math.log(u) / Math.log1p(-1.0 / every));
	}

	boolean readsCpuOfThisTask() {
		int every = this.cpuEvery;
		return every == 1 || (every > 1 && draw(every) == 0);
	}

	/**
	 * Return how many tasks share one timed task now.
	 * @return the sampling interval, 1 when every task is timed
	 */
	int every() {
		return this.every;
	}

	void record(long queueWaitNanos, long serviceNanos) {
		int every = this.histogramEvery;
		if (every == 1 || draw(every) == 0) {
			this.queueWait.recordValue(queueWaitNanos);
			this.service.recordValue(serviceNanos);
			this.response.recordValue(queueWaitNanos + serviceNanos);
		}
	}

	/**
	 * Close the window's histograms. Called by one thread at a time.
	 * @return the window's distributions
	 */
	Distributions close() {
		this.queueWaitInterval = this.queueWait.getIntervalHistogram(this.queueWaitInterval);
		this.serviceInterval = this.service.getIntervalHistogram(this.serviceInterval);
		this.responseInterval = this.response.getIntervalHistogram(this.responseInterval);
		return new Distributions(this.queueWaitInterval, this.serviceInterval, this.responseInterval);
	}

	/**
	 * Choose the next window's share of timed tasks from the closed one.
	 * @param arrivals the tasks offered in the closed window
	 * @param timed the tasks timed in it
	 * @param busyNanos the time the pool's threads spent running tasks in it
	 */
	void adapt(long arrivals, long timed, double busyNanos) {
		long affordable = (long) (busyNanos * CLOCK_BUDGET_PERCENT / 100 / TIMED_TASK_NANOS);
		long wanted = Math.max(1, Math.min(TIMED_PER_WINDOW, affordable));
		int before = this.every;
		int every = (int) Math.max(this.leastEvery, Math.min(Integer.MAX_VALUE, arrivals / wanted));
		this.every = every;
		// As many timed tasks as before at the new rate, but for those always timed
		// (guarded or decorated), whose share the next window shows.
		long expectedTimed = (long) (timed * ((double) before / every));
		this.histogramEvery = (int) Math.max(1, Math.min(Integer.MAX_VALUE, expectedTimed / TIMED_PER_WINDOW));
		if (this.leastCpuEvery > 0) {
			this.cpuEvery = (int) Math.max(this.leastCpuEvery,
					Math.min(Integer.MAX_VALUE, timed / CPU_SAMPLES_PER_WINDOW));
		}
	}

	/**
	 * The distributions of one window's timed tasks.
	 *
	 * @param queueWait their queue waits
	 * @param service their service times
	 * @param response their response times
	 */
	record Distributions(Histogram queueWait, Histogram service, Histogram response) {

	}

}
