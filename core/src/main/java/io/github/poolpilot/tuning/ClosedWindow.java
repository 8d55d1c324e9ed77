package io.github.poolpilot.tuning;

import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.measure.PoolSnapshot.LittlesLaw;
import io.github.poolpilot.pool.PoolBounds;

/**
 * One closed window as a pool's controller reads it: the snapshot's figures, the pool's
 * size and bounds, and what the controller derives from them.
 *
 * @author poolpilot authors
 */
final class ClosedWindow {

	static final double LEAP_UNSERVED = 0.25;

	static final int LEAP_FACTOR = 4;

	/**
	 * The tasks a window must end, per task offered in it, to have drained a backlog.
	 */
	static final double DRAINED = 1.5;

	/**
	 * The share of the cores a pool's tasks must keep busy for a busy CPU to limit it.
	 */
	static final double CPU_SHARE = 0.25;

	final LittlesLaw law;

	final long completions;

	final double busy;

	final int size;

	final PoolBounds bounds;

	final double cpuLoad;

	/**
	 * The processors the CPU load is a share of, 0 when unknown.
	 */
	final int cores;

	final double baseServiceMs;

	final double previousThroughput;

	/**
	 * Tasks turned away in the window for want of a thread or a place in the queue.
	 */
	final long refused;

	/**
	 * Tasks offered in the window, the refused ones included.
	 */
	final long offered;

	/**
	 * Tasks offered in the window still waiting in the queue when it closed: the tasks
	 * queued then, at most those it neither served nor refused.
	 */
	final long waiting;

	/**
	 * The places in the pool's queue.
	 */
	final int queueCapacity;

	/**
	 * Work waits or is turned away: a queue, or more offered than served.
	 */
	final boolean queueing;

	/**
	 * The model's size, or -1 while no service time is known: at the base service time,
	 * or at the window's when the threads' own CPU time, shared over the cores, accounts
	 * for its rise from the base ({@link #coresAccountFor}). At most the pool's size in a
	 * window that {@linkplain #drained() drained a backlog}.
	 */
	final int need;

	/**
	 * Nothing was offered to the pool and nothing ended in the window, and no thread of
	 * it was busy when it closed: its tasks used no CPU.
	 */
	final boolean idle;

	/**
	 * The window is a load's first: tasks were offered in it, and none before it (the
	 * pool's first window, or the first after a window offered nothing).
	 */
	final boolean firstOfLoad;

	ClosedWindow(PoolSnapshot snapshot, int size, PoolBounds bounds, double cpuLoad, double baseServiceMs,
			double previousThroughput) {
		this(snapshot, size, bounds, cpuLoad, baseServiceMs, previousThroughput, 0);
	}

	ClosedWindow(PoolSnapshot snapshot, int size, PoolBounds bounds, double cpuLoad, double baseServiceMs,
			double previousThroughput, long refused) {
		this(snapshot, size, bounds, cpuLoad, 0, baseServiceMs, previousThroughput, refused);
	}

	ClosedWindow(PoolSnapshot snapshot, int size, PoolBounds bounds, double cpuLoad, int cores, double baseServiceMs,
			double previousThroughput, long refused) {
		this(snapshot, size, bounds, cpuLoad, cores, baseServiceMs, previousThroughput, refused, false);
	}

	ClosedWindow(PoolSnapshot snapshot, int size, PoolBounds bounds, double cpuLoad, int cores, double baseServiceMs,
			double previousThroughput, long refused, boolean idleBefore) {
		this.firstOfLoad = snapshot.windowArrivals() > 0 && (idleBefore || began(snapshot));
		this.refused = refused;
		this.cores = cores;
		this.offered = snapshot.windowArrivals();
		this.queueCapacity = snapshot.sizes().queueCapacity();
		LittlesLaw law = snapshot.littlesLaw();
		this.law = law;
		this.completions = snapshot.windowCompletions();
		this.waiting = Math.max(0,
				Math.min(snapshot.sizes().queueSize(), this.offered - this.refused - this.completions));
		// X·S counts whole service times of the tasks that ended in the window, some of
		// which began before it: never more threads than the pool had.
		this.busy = Math.min(law.busyThreads(), Math.max(size, snapshot.sizes().poolSize()));
		this.size = size;
		this.bounds = bounds;
		this.cpuLoad = cpuLoad;
		this.baseServiceMs = baseServiceMs;
		this.previousThroughput = previousThroughput;
		this.queueing = queueing(snapshot);
		// A service time stretched by the threads sharing the cores is what each task
		// takes at this size: the base, the time of a task alone, would need too few.
		double sizingMs = coresAccountFor(baseServiceMs, 0) ? law.meanServiceTimeMs() : baseServiceMs;
		int need = SizingModel.need(law, sizingMs);
		this.need = drained() ? Math.min(size, need) : need;
		this.idle = this.offered == 0 && this.completions == 0 && snapshot.sizes().activeCount() == 0;
	}

	/**
	 * Return whether every task the pool was ever offered was offered in this window.
	 * @param snapshot the window
	 * @return whether the pool began in it
	 */
	static boolean began(PoolSnapshot snapshot) {
		return snapshot.tasks().submitted() == snapshot.windowArrivals();
	}

	/**
	 * Return whether the CPU limits the pool: the process's CPU above
	 * {@value PoolController#MAX_CPU} while the pool's own tasks keep at least
	 * {@value #CPU_SHARE} of the cores busy (X·C, with C = S/(1 + W/C)), or while that is
	 * unknown, unless the pool was idle. A process kept busy by other threads (a web
	 * server's handling of every request, the JIT compiler) does not limit a pool whose
	 * threads wait on a downstream: more of them would not use the CPU, nor would fewer
	 * free it. Nor does it limit an idle pool, whose first tasks the fast path may meet.
	 */
	boolean cpuBound() {
		if (!(this.cpuLoad > PoolController.MAX_CPU) || this.idle) {
			return false;
		}
		Double waitCompute = this.law.waitComputeRatio();
		return this.cores <= 0 || waitCompute == null || this.busy / (1 + waitCompute) >= CPU_SHARE * this.cores;
	}

	/**
	 * Return whether the pool's own CPU time may account for a service time longer than
	 * one measured at fewer threads. Tasks that run at once share the cores, so with
	 * {@code n} threads busy each task's CPU time C may stretch to n·C/N on N cores (C =
	 * S/(1 + W/C)), however idle the cores are on average: tasks that start together, as
	 * a full queue hands them out, take the cores together, and then wait together. A
	 * rise of the service time within n·C/N (and its noise) may be that alone. Unlike a
	 * downstream's limit, the cores serve more with more threads until they are busy
	 * ({@link #cpuBound()}), so such a slowdown is not one that fewer threads relieve
	 * without serving less. {@code false} while the CPU time or the cores are unknown.
	 * @param serviceMs the service time at the smaller size
	 * @param margin the share of that service time the rise may exceed n·C/N by: its
	 * noise
	 * @return whether the cores may account for the rise
	 */
	boolean coresAccountFor(double serviceMs, double margin) {
		Double waitCompute = this.law.waitComputeRatio();
		if (this.cores <= 0 || waitCompute == null) {
			return false;
		}
		double cpuMs = serviceMs() / (1 + waitCompute);
		return serviceMs() - serviceMs * (1 + margin) <= cpuMs * this.size / this.cores;
	}

	/**
	 * Return whether the pool ended more than {@value #DRAINED} tasks per task offered in
	 * the window: it drained a backlog, so its threads served more than the window's
	 * arrivals ask for, whatever the model sizes them at. Such a window's mean service
	 * time mixes the backlog's tasks with the window's own (a downstream that failed fast
	 * after a slow spell: tasks held 100 ms each, then the queue's 20 failing in a
	 * millisecond, a mean past the base that asked {@code talk} in
	 * {@code DownstreamTroubleTests} for one thread more than the 4 it had, in about one
	 * run in ten).
	 */
	boolean drained() {
		return this.completions > DRAINED * this.offered;
	}

	/**
	 * Return whether the pool was saturated: busy threads X·S at least
	 * {@value PoolController#SATURATED_BUSY} of its size while work waited.
	 */
	boolean saturated() {
		return this.busy >= PoolController.SATURATED_BUSY * this.size && this.queueing;
	}

	/**
	 * Return whether the pool turned tasks away in the window while the model needs at
	 * least the threads it has: fewer would refuse more.
	 */
	boolean refusing() {
		return this.refused > 0 && this.need >= this.size;
	}

	/**
	 * Return whether a pool far below the model's size (a {@value #LEAP_FACTOR}th of it
	 * or less) that turned away or left waiting more than {@value #LEAP_UNSERVED} of the
	 * tasks offered in the window ({@link #unservedShare}) at its base service time grows
	 * straight to the size it wants rather than by at most {@code most}: a steady
	 * overload met from a small pool, which the steps of ×1.5 a window would refuse for
	 * many windows, or, with a long queue, fill it with a backlog that the pool at its
	 * max-threads never has, and refuse once it is full. The step is judged as a surge's
	 * is ({@link SurgeReview}), which takes a pool that passed a downstream's limit back
	 * to the threads its throughput keeps busy.
	 * @param wanted the size the pool wants
	 * @param most the most a step may reach otherwise
	 */
	boolean leaps(int wanted, int most) {
		return wanted > most && this.need >= LEAP_FACTOR * this.size && unservedShare() > LEAP_UNSERVED && !slowed();
	}

	/**
	 * Return whether the service time passed {@value SlowdownRule#SLOWDOWN}× its base:
	 * the threads wait for something they share (a downstream, the CPU).
	 */
	boolean slowed() {
		return this.serviceMs() > SlowdownRule.SLOWDOWN * this.baseServiceMs;
	}

	/**
	 * Return whether the tasks that ended in the window were the pool's own at its size:
	 * X·S counts no more than a quarter beyond its threads (at least one). After a cut,
	 * the first windows end tasks begun before it, which waited behind the threads it
	 * took, and count many more.
	 */
	boolean ownEnds() {
		return this.law.busyThreads() <= this.size + Math.max(1, this.size / 4);
	}

	/**
	 * Return the share of the tasks offered in the window that it refused or left
	 * {@linkplain #waiting waiting}, 0 when none was offered.
	 */
	double unservedShare() {
		return (this.offered > 0) ? (double) (this.refused + this.waiting) / this.offered : 0;
	}

	/**
	 * Return the share of the offered tasks refused.
	 */
	double refusedShare() {
		return (this.offered > 0) ? (double) this.refused / this.offered : 0;
	}

	double serviceMs() {
		return this.law.meanServiceTimeMs();
	}

	/**
	 * Return the service time a step taken as this window closes is judged against, 0
	 * (none) after the first window of a load ({@link #firstOfLoad}): every task that
	 * ended in it began in it, so only those short enough to end within a window did, and
	 * its mean is short of the work's by as much as the tasks' times spread and their
	 * mean nears a window's length. Against it the next window's mean rises with the
	 * longer tasks it ends, whatever the step did, and the step was undone as threads
	 * that only waited (lognormal calls of 870 ms: a step 44 → 58 undone on a service
	 * time up 288 ms, growth resting 30 s while the queue filled).
	 */
	double stepServiceMs() {
		return this.firstOfLoad ? 0 : serviceMs();
	}

	double throughput() {
		return this.law.throughput();
	}

	/**
	 * Return whether a window of a pool of {@code size} threads was saturated, as
	 * {@link #saturated()} says of a closed one: busy threads X·S at least
	 * {@value PoolController#SATURATED_BUSY} of its size while work waited. (X·S clipped
	 * to the pool's threads, as a closed window counts it, says the same.)
	 */
	static boolean saturated(PoolSnapshot snapshot, int size) {
		return snapshot.littlesLaw().busyThreads() >= PoolController.SATURATED_BUSY * size && queueing(snapshot);
	}

	/**
	 * Return whether tasks waited in a window: its queue held some at its end, or more
	 * arrived than finished.
	 */
	static boolean queueing(PoolSnapshot snapshot) {
		LittlesLaw law = snapshot.littlesLaw();
		return snapshot.sizes().queueSize() > 0 || law.arrivalRate() > law.throughput() * 1.05;
	}

}
