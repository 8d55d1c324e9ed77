package io.github.poolpilot.tuning;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.budget.BudgetMember;
import io.github.poolpilot.budget.ThreadBudget;
import io.github.poolpilot.budget.ThreadBudget.Loan;
import io.github.poolpilot.budget.ThreadBudget.Room;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.measure.PoolSnapshot.Latency;
import io.github.poolpilot.measure.PoolSnapshot.LittlesLaw;
import io.github.poolpilot.measure.PoolSnapshot.Sizes;
import io.github.poolpilot.measure.PoolSnapshot.TaskCounts;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.Manual;
import io.github.poolpilot.tuning.TuningMode;
import io.github.poolpilot.tuning.PoolState;

/**
 * A discrete-event simulation of pools on virtual time, driving the real {@link Tuner}
 * (its controllers and the budget allocator) once a second, and its fast path
 * ({@link Tuner#planPulse}) every 100 ms between. Tasks arrive at each pool as a Poisson
 * process, spend their CPU time on a machine of N cores shared by every running task of
 * every pool (processor sharing), then block, optionally on a downstream of their pool
 * that admits K calls at a time; the host may steal part of the cores, 100 ms at a time.
 * Exact times ({@code sigma} 0) vary by up to 1 % of their means ({@link #EXACT_SPREAD}),
 * as a real scheduler's time slices and timer slack make them: processor sharing finishes
 * equal tasks that start together at one instant, so without it the threads a step starts
 * together would end their tasks together for the rest of a run, and a pool that grew in
 * steps would serve less than one whose threads started one by one. A pool runs at most
 * as many tasks as its size, and a task that finds the pool's queue full is rejected. A
 * person may resize a pool by hand at the start of a second, as a POST to the endpoint
 * does: the pool goes manual. Runs identically for a given seed, in milliseconds of real
 * time.
 *
 * @author poolpilot authors
 */
final class PoolSimulator {

	private static final long SECOND = 1_000_000_000L;

	private static final double MILLI = 1_000_000.0;

	/**
	 * The tuner's fast path reads the pools this often, as the sampler does by default.
	 */
	static final long PULSE = SECOND / 10;

	/**
	 * How far an exact time may vary, either way, as a share of its mean.
	 */
	static final double EXACT_SPREAD = 0.01;

	private final int cores;

	/**
	 * The cores the pools' tasks get now: all of them, or fewer while the host steals
	 * some.
	 */
	private double coresNow;

	/**
	 * The share of the cores the host steals, 100 ms slot by 100 ms slot, or {@code null}
	 * for a quiet host.
	 */
	private final double[] steal;

	/**
	 * The share of the cores the process's other threads use, 100 ms slot by 100 ms slot,
	 * or {@code null}: counted in the CPU reading, and not left to the pools' tasks.
	 */
	private final double[] otherThreads;

	/**
	 * Until when the blocking calls take {@link #coldFactor} times as long.
	 */
	private final long coldUntil;

	private final double coldFactor;

	private final int budget;

	private final SplittableRandom random;

	/**
	 * The draws that spread exact times: apart from {@link #random}, so that arrivals and
	 * lognormal times are what the seed gave them before exact times were spread.
	 */
	private final SplittableRandom spread;

	private final Tuner tuner;

	/**
	 * Whether each pool follows the sizing model alone, without the tuner's guard.
	 */
	private final boolean modelOnly;

	private final boolean pulses;

	private final Overflow overflow;

	private final @Nullable LineCeiling lineCeiling;

	private final ThreadBudget threadBudget;

	/**
	 * The most live threads the pools held together in the current second.
	 */
	private int peakLive;

	private final List<Integer> peakLiveBySecond = new ArrayList<>();

	private final List<SimulatedPool> pools;

	private final List<HandResize> handResizes;

	private final PriorityQueue<Event> events = new PriorityQueue<>();

	/**
	 * The tasks on the CPU, by the CPU time the machine must have given each of them when
	 * it finishes: processor sharing gives every task on the CPU the same rate, so one
	 * clock of CPU time given to each ({@link #cpuGiven}) tracks them all.
	 */
	private final PriorityQueue<Task> onCpu = new PriorityQueue<>(
			Comparator.comparingDouble((Task task) -> task.cpuDoneAt).thenComparingLong((task) -> task.number));

	/**
	 * The CPU time given to each task on the CPU since the run began, in nanoseconds.
	 */
	private double cpuGiven;

	private long tasks;

	private long now;

	private long sequence;

	private long cpuEventVersion;

	private double cpuBusyCoreNanos;

	private double otherCoreNanos;

	/**
	 * The cores the process's other threads ask for now: they share the cores with the
	 * pools' tasks as runnable threads do, each getting its turn.
	 */
	private double otherCores;

	private PoolSimulator(Builder builder) {
		this.coldUntil = builder.coldUntil;
		this.coldFactor = builder.coldFactor;
		this.cores = builder.cores;
		this.coresNow = builder.cores;
		this.steal = builder.steal;
		this.otherThreads = builder.otherThreads;
		this.random = new SplittableRandom(builder.seed);
		this.spread = new SplittableRandom(builder.seed).split();
		this.pools = builder.pools;
		this.handResizes = builder.handResizes;
		this.budget = (builder.budget > 0) ? builder.budget
				: this.pools.stream().mapToInt((pool) -> pool.bounds.maxThreads()).sum();
		this.modelOnly = builder.modelOnly;
		this.overflow = builder.overflow;
		this.lineCeiling = builder.lineCeiling;
		this.pulses = builder.pulses && !this.modelOnly
				&& this.pools.stream().anyMatch((pool) -> pool.mode == TuningMode.AUTO);
		this.threadBudget = new ThreadBudget(this.budget, List::of);
		this.tuner = new Tuner(new PoolRegistry(this.budget), () -> this.now, () -> -1, this.cores,
				(pool, decision) -> {
				});
	}

	/**
	 * Start describing a simulation.
	 * @return a builder for a machine of 2 cores with no budget beyond the pools' bounds
	 */
	static Builder builder() {
		return new Builder();
	}

	/**
	 * Simulate one pool with the tuner on, from a given size.
	 * @param workload what each task does
	 * @param arrivalRate tasks offered per second, as a function of the second
	 * @param initialSize the pool's size at the start
	 * @param seed the seed of the random draws
	 * @return a builder for that simulation
	 */
	static Builder onePool(Workload workload, DoubleUnaryOperator arrivalRate, int initialSize, long seed) {
		return builder().seed(seed).pool("sim", workload, arrivalRate, new PoolBounds(1, 64), initialSize, 1);
	}

	/**
	 * Run for a number of seconds.
	 * @param seconds how long
	 * @return what each pool did, second by second
	 */
	Run run(int seconds) {
		for (SimulatedPool pool : this.pools) {
			scheduleArrival(pool);
		}
		if (this.steal != null || this.otherThreads != null) {
			this.events.add(new Event(0, Kind.STEAL, null, null, 0, this.sequence++));
		}
		this.peakLive = liveThreads();
		for (int second = 1; second <= seconds; second++) {
			long start = (second - 1) * SECOND;
			for (HandResize hand : this.handResizes) {
				if (hand.second() == second - 1) {
					resizeByHand(hand);
				}
			}
			for (long at = start + PULSE; this.pulses && at < second * SECOND; at += PULSE) {
				advanceTo(at);
				this.pools.forEach(this::gateOverflow);
				pulse();
			}
			advanceTo(second * SECOND);
			this.pools.forEach(this::gateOverflow);
			this.pools.forEach((pool) -> pool.windowRate = pool.arrivals);
			closeWindow(second);
		}
		Map<String, List<Sample>> samples = new LinkedHashMap<>();
		Map<String, List<Change>> changes = new LinkedHashMap<>();
		this.pools.forEach((pool) -> {
			samples.put(pool.name, pool.samples);
			changes.put(pool.name, pool.changes);
		});
		return new Run(samples, changes, this.peakLiveBySecond.stream().mapToInt(Integer::intValue).toArray());
	}

	private int liveThreads() {
		return this.pools.stream().mapToInt(SimulatedPool::liveThreads).sum();
	}

	/**
	 * The tuner's fast path: each pool's size, queue and cumulative counts now.
	 */
	private void pulse() {
		List<PoolPulse> pulses = new ArrayList<>();
		for (SimulatedPool pool : this.pools) {
			pulses.add(new PoolPulse(pool.name, pool.bounds, pool.weight, pool.mode, pool.size, pool.liveThreads(),
					pool.running, pool.queue.size(), pool.arrivalsTotal, pool.completionsTotal, this.now));
		}
		Map<String, Decision> plan = this.tuner.planPulse(pulses, this.threadBudget);
		// Shrinks first, as the tuner applies them.
		this.pools.stream()
			.filter((pool) -> plan.containsKey(pool.name) && plan.get(pool.name).threads() < pool.size)
			.forEach((pool) -> resize(pool, plan.get(pool.name)));
		this.pools.stream()
			.filter((pool) -> plan.containsKey(pool.name) && plan.get(pool.name).threads() > pool.size)
			.forEach((pool) -> resize(pool, plan.get(pool.name)));
	}

	private void resize(SimulatedPool pool, Decision decision) {
		int from = pool.size;
		pool.size = decision.threads();
		if (pool.size != from) {
			pool.changes.add(new Change((double) this.now / SECOND, from, pool.size, decision.reason()));
			pool.changesInWindow++;
			pool.maxSizeInWindow = Math.max(pool.maxSizeInWindow, pool.size);
			pool.pulseReasons.add(decision.reason());
		}
		startQueued(pool);
		this.peakLive = Math.max(this.peakLive, liveThreads());
	}

	/**
	 * A person's resize, checked by the budget's own rule
	 * ({@link ThreadBudget#makeRoom}). The simulator keeps a pool's threads alive at its
	 * size, as a tuned pool's core = max does, so no pool has idle threads above its live
	 * ones to lend: the room must be free.
	 */
	private void resizeByHand(HandResize hand) {
		SimulatedPool pool = this.pools.stream()
			.filter((candidate) -> candidate.name.equals(hand.pool()))
			.findFirst()
			.orElseThrow();
		List<BudgetMember> members = this.pools.stream().<BudgetMember>map(Member::new).toList();
		Room room = new ThreadBudget(this.budget, () -> members).makeRoom(members.get(this.pools.indexOf(pool)),
				hand.size());
		if (room.overrun() != null) {
			throw new IllegalStateException(room.overrun().describe(pool.name, hand.size()));
		}
		pool.mode = TuningMode.MANUAL;
		resize(pool,
				new Decision((hand.size() > pool.size) ? Action.GROW : Action.SHRINK, pool.size, hand.size(),
						new Manual("operator", pool.size, hand.size(), TuningMode.MANUAL, true), null, null,
						hand.size(), false, false));
	}

	private void advanceTo(long until) {
		while (!this.events.isEmpty() && this.events.peek().at <= until) {
			Event event = this.events.poll();
			progressCpu(event.at);
			this.now = event.at;
			switch (event.kind) {
				case ARRIVAL -> {
					arrive(event.pool);
					scheduleArrival(event.pool);
				}
				case NO_ARRIVAL -> scheduleArrival(event.pool);
				case CPU_DONE -> {
					if (event.version == this.cpuEventVersion) {
						finishCpuWork();
					}
				}
				case BLOCK_DONE -> finishBlocking(event.task);
				case STEAL -> steal();
			}
		}
		progressCpu(until);
		this.now = until;
	}

	/**
	 * The host takes another share of the cores for the next 100 ms.
	 */
	private void steal() {
		int slot = (int) (this.now / PULSE);
		double stolen = (this.steal != null) ? this.steal[slot % this.steal.length] : 0;
		double others = (this.otherThreads != null) ? this.otherThreads[slot % this.otherThreads.length] : 0;
		this.coresNow = this.cores * (1 - stolen);
		this.otherCores = others * this.cores;
		this.otherCoreNanos += Math.min(this.otherCores, this.coresNow) * PULSE;
		rescheduleCpu();
		this.events.add(new Event(this.now + PULSE, Kind.STEAL, null, null, 0, this.sequence++));
	}

	private void scheduleArrival(SimulatedPool pool) {
		double rate = pool.arrivalRate.applyAsDouble((double) this.now / SECOND);
		if (rate <= 0) {
			// No arrivals now: look again in a millisecond of virtual time.
			this.events.add(new Event(this.now + SECOND / 1000, Kind.NO_ARRIVAL, pool, null, 0, this.sequence++));
			return;
		}
		long gap = (long) (-Math.log(1 - this.random.nextDouble()) / rate * SECOND);
		this.events.add(new Event(this.now + Math.max(1, gap), Kind.ARRIVAL, pool, null, 0, this.sequence++));
	}

	private void arrive(SimulatedPool pool) {
		pool.arrivals++;
		pool.arrivalsTotal++;
		double factor = pool.factor((double) this.now / SECOND, this.random);
		Task task = new Task(pool, this.tasks++, this.now,
				pool.workload.draw(factor * pool.workload.cpuMs, this.random, this.spread),
				pool.workload.draw(factor * pool.workload.blockMs, this.random, this.spread));
		if (pool.running < pool.size) {
			start(task);
		}
		else if (pool.queue.size() < pool.queueCapacity
				+ ((this.overflow == Overflow.QUEUE) ? Math.max(0, pool.bounds.maxThreads() - pool.size) : 0)) {
			pool.queue.add(task);
		}
		else if (pool.running < overflowCap(pool)) {
			start(task);
			pool.maxSizeInWindow = Math.max(pool.maxSizeInWindow, pool.running);
			this.peakLive = Math.max(this.peakLive, liveThreads());
		}
		else {
			pool.rejected++;
			pool.rejectedTotal++;
		}
	}

	private void start(Task task) {
		task.pool.running++;
		task.startedAt = this.now;
		if (task.cpuNanos > 0) {
			task.cpuDoneAt = this.cpuGiven + task.cpuNanos;
			this.onCpu.add(task);
			rescheduleCpu();
		}
		else {
			block(task);
		}
	}

	private double cpuRate() {
		return this.onCpu.isEmpty() ? 0 : Math.min(1.0, tasksCores() / this.onCpu.size());
	}

	/**
	 * The cores the pools' tasks on the CPU get: what the other threads leave, or, when
	 * they ask for more, a share in proportion to the tasks' number.
	 */
	private double tasksCores() {
		int tasks = this.onCpu.size();
		return Math.max(this.coresNow - this.otherCores, this.coresNow * tasks / (tasks + this.otherCores));
	}

	private void progressCpu(long until) {
		long elapsed = until - this.now;
		if (elapsed <= 0 || this.onCpu.isEmpty()) {
			return;
		}
		this.cpuGiven += elapsed * cpuRate();
		this.cpuBusyCoreNanos += elapsed * Math.min(tasksCores(), this.onCpu.size());
	}

	private void rescheduleCpu() {
		this.cpuEventVersion++;
		if (this.onCpu.isEmpty()) {
			return;
		}
		double least = this.onCpu.peek().cpuDoneAt - this.cpuGiven;
		long at = this.now + (long) Math.ceil(Math.max(0, least) / cpuRate());
		this.events.add(new Event(at, Kind.CPU_DONE, null, null, this.cpuEventVersion, this.sequence++));
	}

	private void finishCpuWork() {
		List<Task> done = new ArrayList<>();
		while (!this.onCpu.isEmpty() && this.onCpu.peek().cpuDoneAt - this.cpuGiven <= 1) {
			done.add(this.onCpu.poll());
		}
		rescheduleCpu();
		done.forEach(this::block);
	}

	private void touchLine(SimulatedPool pool) {
		pool.lineArea += (double) pool.downstreamWaiting.size() * (this.now - pool.lineAt);
		pool.lineAt = this.now;
	}

	private void block(Task task) {
		SimulatedPool pool = task.pool;
		if (pool.workload.downstreamPermits > 0) {
			if (pool.downstreamBusy >= pool.workload.downstreamPermits) {
				touchLine(pool);
				pool.downstreamWaiting.add(task);
				return;
			}
			pool.downstreamBusy++;
		}
		long blockNanos = (this.now < this.coldUntil) ? (long) (task.blockNanos * this.coldFactor) : task.blockNanos;
		this.events.add(new Event(this.now + blockNanos, Kind.BLOCK_DONE, pool, task, 0, this.sequence++));
	}

	private void finishBlocking(Task task) {
		SimulatedPool pool = task.pool;
		if (pool.workload.downstreamPermits > 0) {
			pool.downstreamBusy--;
			touchLine(pool);
			Task next = pool.downstreamWaiting.poll();
			if (next != null) {
				block(next);
			}
		}
		pool.running--;
		pool.completions++;
		pool.completionsTotal++;
		pool.serviceNanos += this.now - task.startedAt;
		pool.waitNanos += task.startedAt - task.submittedAt;
		pool.cpuNanos += task.cpuNanos;
		pool.respond((this.now - task.submittedAt) / MILLI);
		if (pool.running >= pool.size && pool.running < overflowCap(pool) && !pool.queue.isEmpty()) {
			// A thread beyond the pool's size takes the next queued task, as any worker
			// of a ThreadPoolExecutor does.
			start(pool.queue.poll());
		}
		startQueued(pool);
	}

	private void startQueued(SimulatedPool pool) {
		while (pool.running < pool.size && !pool.queue.isEmpty()) {
			start(pool.queue.poll());
		}
	}

	/**
	 * The most threads a pool may run when its queue is full.
	 */
	private int overflowCap(SimulatedPool pool) {
		return switch (this.overflow) {
			case NONE, QUEUE -> pool.size;
			case TO_MAX -> Math.min(pool.bounds.maxThreads(), pool.lineCap);
			case HALF_AGAIN -> Math.min(pool.bounds.maxThreads(), Math.max((int) (1.5 * pool.size), pool.size + 1));
			case IN_BURSTS -> pool.bursting ? pool.bounds.maxThreads() : pool.size;
		};
	}

	/**
	 * Open a pool's overflow for the next interval when the arrivals of the one that
	 * ended ran above the last window's rate by more than two standard deviations of a
	 * Poisson count, or while no window has closed.
	 */
	private void gateOverflow(SimulatedPool pool) {
		double seconds = (double) (this.now - pool.gatedAt) / SECOND;
		long arrived = pool.arrivalsTotal - pool.arrivalsAtGate;
		double expected = pool.windowRate * seconds;
		pool.bursting = Double.isNaN(expected) || arrived > expected + 2 * Math.sqrt(Math.max(1, expected));
		pool.gatedAt = this.now;
		pool.arrivalsAtGate = pool.arrivalsTotal;
	}

	private void closeWindow(int second) {
		double cpuLoad = Math.min(1, (this.cpuBusyCoreNanos + this.otherCoreNanos) / (this.cores * (double) SECOND));
		this.cpuBusyCoreNanos = 0;
		this.otherCoreNanos = 0;
		List<PoolState> states = new ArrayList<>();
		for (SimulatedPool pool : this.pools) {
			PoolSnapshot snap = snapshot(pool);
			PoolBounds bounds = pool.bounds;
			if (this.lineCeiling != null && pool.workload.downstreamPermits > 0) {
				touchLine(pool);
				bounds = this.lineCeiling.bounds(pool, pool.lineArea / SECOND, snap.littlesLaw());
				pool.lineArea = 0;
				pool.size = bounds.clamp(pool.size);
			}
			states.add(new PoolState(pool.name, bounds, pool.weight, pool.mode, pool.size, pool.liveThreads(), snap));
		}
		Map<String, Decision> plan = this.modelOnly ? Map.of() : this.tuner.plan(states, this.threadBudget, cpuLoad);
		int[] sizes = this.pools.stream().mapToInt((pool) -> pool.windowStartSize).toArray();
		for (int i = 0; i < this.pools.size(); i++) {
			SimulatedPool pool = this.pools.get(i);
			Decision decision = plan.get(pool.name);
			if (decision != null) {
				int from = pool.size;
				pool.size = decision.threads();
				if (pool.size != from) {
					pool.changes.add(new Change(second, from, pool.size, decision.reason()));
					pool.changesInWindow++;
				}
			}
			if (this.modelOnly) {
				PoolSnapshot snapshot = states.get(i).snapshot();
				int need = SizingModel.need(snapshot.littlesLaw(), snapshot.littlesLaw().meanServiceTimeMs());
				int from = pool.size;
				pool.size = (need > 0) ? pool.bounds.clamp(need) : pool.size;
				pool.changesInWindow += (pool.size != from) ? 1 : 0;
			}
			startQueued(pool);
		}
		this.peakLive = Math.max(this.peakLive, liveThreads());
		this.peakLiveBySecond.add(this.peakLive);
		for (int i = 0; i < this.pools.size(); i++) {
			SimulatedPool pool = this.pools.get(i);
			Decision decision = plan.get(pool.name);
			double[] responses = Arrays.copyOf(pool.responses, pool.responseCount);
			Arrays.sort(responses);
			List<String> reasons = new ArrayList<>(pool.pulseReasons);
			if (decision != null) {
				reasons.add(decision.reason());
			}
			// Live threads are at their most right after a resize: tasks above a smaller
			// size still run.
			pool.samples.add(new Sample(second, sizes[i], Math.max(pool.maxSizeInWindow, pool.size), pool.liveThreads(),
					pool.arrivals, pool.rejected, pool.completions, responses, pool.queue.size(), pool.running, cpuLoad,
					pool.size, pool.changesInWindow, String.join("; ", reasons)));
			pool.resetWindow();
		}
		this.peakLive = liveThreads();
	}

	private PoolSnapshot snapshot(SimulatedPool pool) {
		double throughput = pool.completions;
		double serviceMs = (pool.completions > 0) ? pool.serviceNanos / MILLI / pool.completions : 0;
		double waitMs = (pool.completions > 0) ? pool.waitNanos / MILLI / pool.completions : 0;
		double cpuMs = (pool.completions > 0) ? pool.cpuNanos / MILLI / pool.completions : 0;
		// Goetz: Ncpu · (1 + W/C), W being the service time not spent on the CPU.
		Double waitCompute = (cpuMs > 0) ? (serviceMs - cpuMs) / cpuMs : null;
		Integer goetz = (waitCompute != null) ? (int) Math.ceil(this.cores * (1 + waitCompute)) : null;
		Latency service = new Latency(serviceMs, 0, 0, 0, 0);
		Latency response = new Latency(serviceMs + waitMs, 0, 0, 0, 0);
		LittlesLaw law = new LittlesLaw(pool.arrivals, throughput, serviceMs, waitMs, serviceMs + waitMs, 0,
				throughput * (serviceMs + waitMs) / 1000, throughput * serviceMs / 1000, 0, 0, waitCompute, goetz);
		return new PoolSnapshot(pool.name, 1,
				new Sizes(pool.size, pool.size, pool.liveThreads(), pool.running, pool.queue.size(), pool.queueCapacity,
						pool.bounds.minThreads(), pool.bounds.maxThreads()),
				new TaskCounts(pool.arrivalsTotal, pool.completionsTotal, 0, pool.rejectedTotal, 0), pool.arrivals,
				pool.completions, new Latency(waitMs, 0, 0, 0, 0), service, response, law);
	}

	/**
	 * What each task of a pool does: CPU time, then blocking time (both within 1 % of
	 * these means when {@code sigma} is 0, {@link #EXACT_SPREAD}, otherwise lognormal
	 * with these means and that shape), the blocking part through a downstream admitting
	 * {@code downstreamPermits} calls at a time (0 for no limit).
	 *
	 * @param cpuMs mean CPU time per task
	 * @param blockMs mean blocking time per task
	 * @param sigma the lognormal shape, 0 for exact times (within 1 %)
	 * @param downstreamPermits calls the downstream admits at a time, 0 for no limit
	 * @param expensiveShare the share of tasks that are expensive, 0 for none
	 * @param expensiveFactor how many times longer an expensive task takes
	 */
	record Workload(double cpuMs, double blockMs, double sigma, int downstreamPermits, double expensiveShare,
			double expensiveFactor) {

		Workload(double cpuMs, double blockMs, double sigma, int downstreamPermits) {
			this(cpuMs, blockMs, sigma, downstreamPermits, 0, 1);
		}

		/**
		 * The same work with a share of expensive tasks mixed in, which take
		 * {@code factor} times as long on the CPU and blocked: a web server's cheap and
		 * expensive requests in one pool.
		 */
		Workload mixed(double share, double factor) {
			return new Workload(this.cpuMs, this.blockMs, this.sigma, this.downstreamPermits, share, factor);
		}

		/**
		 * The mean of a time per task, expensive tasks included.
		 */
		double mean(double cheapMs) {
			return cheapMs * (1 + this.expensiveShare * (this.expensiveFactor - 1));
		}

		double factor(SplittableRandom random) {
			return (this.expensiveShare > 0 && random.nextDouble() < this.expensiveShare) ? this.expensiveFactor : 1;
		}

		long draw(double meanMs, SplittableRandom random, SplittableRandom spread) {
			if (meanMs <= 0) {
				return 0;
			}
			if (this.sigma == 0) {
				return (long) (meanMs * (1 + EXACT_SPREAD * (2 * spread.nextDouble() - 1)) * MILLI);
			}
			double gaussian = gaussian(random);
			// exp(μ + σZ) has mean e^(μ + σ²/2): choose μ so that the mean is meanMs.
			return (long) (Math.exp(Math.log(meanMs) - this.sigma * this.sigma / 2 + this.sigma * gaussian) * MILLI);
		}

		private static double gaussian(SplittableRandom random) {
			// Box-Muller, so that the draws depend on the seed alone.
			double u = 1 - random.nextDouble();
			double v = random.nextDouble();
			return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
		}

	}

	/**
	 * One second of one pool.
	 *
	 * @param second the second that ended
	 * @param size the pool's size when it began
	 * @param maxSize the largest size the pool had during it, the one decided at its end
	 * included
	 * @param liveThreads the threads it held at its end, once resized: its new size, or
	 * more while tasks above a smaller size finish
	 * @param arrivals tasks offered in it
	 * @param rejected tasks turned away in it
	 * @param throughput tasks finished in it
	 * @param responseMs the response times of those tasks, sorted
	 * @param queued tasks waiting at its end
	 * @param running tasks in its threads at its end
	 * @param cpuLoad the share of the cores in use
	 * @param nextSize the size decided for the next second
	 * @param changes the size changes made in it, between windows and at its end
	 * @param reason why, every change's reason and the window's
	 */
	record Sample(int second, int size, int maxSize, int liveThreads, long arrivals, long rejected, long throughput,
			double[] responseMs, int queued, int running, double cpuLoad, int nextSize, int changes, String reason) {

		@Override
		public boolean equals(Object other) {
			return other instanceof Sample that && toString().equals(that.toString());
		}

		@Override
		public int hashCode() {
			return toString().hashCode();
		}

		@Override
		public String toString() {
			return "Sample[" + this.second + ", size " + this.size + " (max " + this.maxSize + "), live "
					+ this.liveThreads + ", arrivals " + this.arrivals + ", rejected " + this.rejected + ", throughput "
					+ this.throughput + ", responses " + Arrays.toString(this.responseMs) + ", queued " + this.queued
					+ ", running " + this.running + ", next " + this.nextSize + ": " + this.reason + "]";
		}

	}

	/**
	 * One change of a pool's size.
	 *
	 * @param at when, in seconds of virtual time
	 * @param from the size before
	 * @param to the size after
	 * @param reason why
	 */
	record Change(double at, int from, int to, String reason) {

	}

	/**
	 * What a run did: each pool's samples and size changes, the most live threads the
	 * pools held together in each second (at any moment: after every resize), and figures
	 * over a range of seconds.
	 *
	 * @param samples each pool's samples, by name
	 * @param changes each pool's size changes, by name
	 * @param peakLiveThreads the most live threads of all pools together, second by
	 * second
	 */
	record Run(Map<String, List<Sample>> samples, Map<String, List<Change>> changes, int[] peakLiveThreads) {

		@Override
		public boolean equals(Object other) {
			return other instanceof Run that && this.samples.equals(that.samples) && this.changes.equals(that.changes)
					&& Arrays.equals(this.peakLiveThreads, that.peakLiveThreads);
		}

		@Override
		public int hashCode() {
			return this.samples.hashCode();
		}

		List<Sample> of(String pool) {
			return this.samples.get(pool);
		}

		/**
		 * The only pool's size changes.
		 */
		List<Change> onlyChanges() {
			return this.changes.values().iterator().next();
		}

		/**
		 * The only pool's samples.
		 */
		List<Sample> only() {
			return this.samples.values().iterator().next();
		}

		/**
		 * Mean throughput over seconds {@code from} to {@code to}, both included.
		 */
		static double throughput(List<Sample> samples, int from, int to) {
			return samples.subList(from - 1, to).stream().mapToLong(Sample::throughput).average().orElse(0);
		}

		/**
		 * The 99th percentile of every response time in seconds {@code from} to
		 * {@code to}, both included.
		 */
		static double p99ResponseMs(List<Sample> samples, int from, int to) {
			double[] all = samples.subList(from - 1, to)
				.stream()
				.flatMapToDouble((sample) -> Arrays.stream(sample.responseMs()))
				.sorted()
				.toArray();
			return (all.length == 0) ? 0 : all[(int) Math.ceil(all.length * 0.99) - 1];
		}

		/**
		 * Changes of size in seconds {@code from} to {@code to}, both included, between
		 * windows and at their ends.
		 */
		static long sizeChanges(List<Sample> samples, int from, int to) {
			return samples.subList(from - 1, to).stream().mapToLong(Sample::changes).sum();
		}

		/**
		 * The largest size in seconds {@code from} to {@code to}, both included, at any
		 * moment.
		 */
		static int largestSize(List<Sample> samples, int from, int to) {
			return samples.subList(from - 1, to).stream().mapToInt(Sample::maxSize).max().orElse(0);
		}

		/**
		 * The smallest size in seconds {@code from} to {@code to}, both included, at any
		 * moment.
		 */
		static int smallestSize(List<Sample> samples, int from, int to) {
			return samples.subList(from - 1, to)
				.stream()
				.mapToInt((sample) -> Math.min(sample.size(), sample.nextSize()))
				.min()
				.orElse(0);
		}

		/**
		 * The seconds from {@code step} until the pool's size stopped changing before
		 * {@code end}: 0 when it did not change at all.
		 */
		static int settleSeconds(List<Sample> samples, int step, int end) {
			int lastChange = step;
			for (Sample sample : samples.subList(step, end)) {
				if (sample.changes() > 0) {
					lastChange = sample.second();
				}
			}
			return lastChange - step;
		}

		/**
		 * The seconds from {@code at} until a pool first had at least {@code size}
		 * threads, or infinity when it never had.
		 */
		static double secondsToReach(List<Change> changes, double at, int size) {
			return changes.stream()
				.filter((change) -> change.at() >= at && change.to() >= size)
				.mapToDouble((change) -> change.at() - at)
				.findFirst()
				.orElse(Double.POSITIVE_INFINITY);
		}

	}

	/**
	 * A ceiling from an oracle of the downstream's line: the threads waiting for one of
	 * its calls, averaged over each window, which the simulator knows and a pool in front
	 * of a local limit (a connection pool, a bulkhead) could read. Once a line of at
	 * least one thread lasted {@code windows} windows, the pool's max-threads becomes
	 * {@code margin} times the threads not waiting in it (at least one beyond them), and
	 * only falls while the line lasts; after {@code windows} windows with no line it is
	 * lifted. With {@code hold} the pool is held at the ceiling (its min-threads raised
	 * to it), as a pool fixed there. The threads of {@link Overflow#TO_MAX} stay within
	 * the ceiling too. Not the tuner's: the census measures the idea against the tuner
	 * alone ({@link TuningFamiliesCensusTests}).
	 *
	 * @param margin the ceiling as a multiple of the threads not waiting in the line
	 * @param windows the windows with a line before a ceiling, and without one before it
	 * is lifted
	 * @param hold whether the pool is held at the ceiling
	 */
	record LineCeiling(double margin, int windows, boolean hold) {

		private static final double LINE = 1;

		private static final double NO_LINE = 0.1;

		PoolBounds bounds(SimulatedPool pool, double line, LittlesLaw law) {
			pool.lineWindows = (line >= LINE) ? pool.lineWindows + 1 : 0;
			pool.clearWindows = (line < NO_LINE) ? pool.clearWindows + 1 : 0;
			if (pool.lineWindows >= this.windows) {
				double notWaiting = Math.max(1, law.throughput() * law.meanServiceTimeMs() / 1000 - line);
				int ceiling = Math.max((int) Math.ceil(this.margin * notWaiting), (int) Math.ceil(notWaiting) + 1);
				pool.lineCap = Math.min(pool.lineCap, ceiling);
			}
			else if (pool.clearWindows >= this.windows) {
				pool.lineCap = Integer.MAX_VALUE;
			}
			PoolBounds bounds = pool.bounds;
			if (pool.lineCap == Integer.MAX_VALUE) {
				return bounds;
			}
			int ceiling = Math.max(bounds.minThreads(), Math.min(bounds.maxThreads(), pool.lineCap));
			return new PoolBounds(this.hold ? ceiling : bounds.minThreads(), ceiling);
		}

	}

	/**
	 * The threads a pool starts beyond its size for a task that finds its queue full, as
	 * a {@code ThreadPoolExecutor} whose core size is below its maximum size does (the
	 * pool's size is then its core size); each takes queued tasks until the queue is
	 * empty, then ends. Not poolpilot's executors' way: the census measures the idea
	 * against the tuner alone ({@link TuningFamiliesCensusTests}).
	 */
	enum Overflow {

		/**
		 * None: the task is refused.
		 */
		NONE,

		/**
		 * Into the queue, beyond its capacity by the threads the pool may still add.
		 */
		QUEUE,

		/**
		 * Up to the pool's max-threads.
		 */
		TO_MAX,

		/**
		 * Up to half again the pool's size, at least one thread, within its max-threads.
		 */
		HALF_AGAIN,

		/**
		 * Up to the pool's max-threads while its arrivals run above the last window's
		 * rate (a burst, which threads serve), none on a steady load (which may be a
		 * downstream's limit, where they only wait).
		 */
		IN_BURSTS

	}

	/**
	 * Describes a simulation.
	 */
	static final class Builder {

		private int cores = 2;

		private int budget;

		private long seed = 1;

		private boolean modelOnly;

		private boolean pulses = true;

		private Overflow overflow = Overflow.NONE;

		private @Nullable LineCeiling lineCeiling;

		private double[] steal;

		private double[] otherThreads;

		private final List<SimulatedPool> pools = new ArrayList<>();

		private final List<HandResize> handResizes = new ArrayList<>();

		private long coldUntil;

		private double coldFactor = 1;

		Builder cores(int cores) {
			this.cores = cores;
			return this;
		}

		Builder budget(int budget) {
			this.budget = budget;
			return this;
		}

		Builder seed(long seed) {
			this.seed = seed;
			return this;
		}

		/**
		 * Size each pool by the sizing model alone, at its current service time, with
		 * nothing judged: what the tuner's guard is there to prevent.
		 */
		Builder modelOnly() {
			this.modelOnly = true;
			return this;
		}

		Builder pool(String name, Workload workload, DoubleUnaryOperator arrivalRate, PoolBounds bounds,
				int initialSize, int weight) {
			return pool(name, workload, arrivalRate, bounds, initialSize, weight, TuningMode.AUTO, 600);
		}

		Builder pool(String name, Workload workload, DoubleUnaryOperator arrivalRate, PoolBounds bounds,
				int initialSize, int weight, TuningMode mode, int queueCapacity) {
			this.pools
				.add(new SimulatedPool(name, workload, arrivalRate, bounds, initialSize, weight, mode, queueCapacity));
			return this;
		}

		/**
		 * The share of a pool's expensive tasks changes with time, as a web server's mix
		 * does when one of its requests is offered far more than the others: it replaces
		 * the share its workload was given, which gives the expensive tasks' factor.
		 */
		Builder expensiveShare(String pool, DoubleUnaryOperator share) {
			this.pools.stream()
				.filter((candidate) -> candidate.name.equals(pool))
				.forEach((candidate) -> candidate.expensiveShare = share);
			return this;
		}

		/**
		 * A person resizes a pool (core and maximum) at the start of a second, which
		 * switches it to manual.
		 */
		Builder resizeByHand(String pool, int second, int size) {
			this.handResizes.add(new HandResize(pool, second, size));
			return this;
		}

		/**
		 * A cold start: until the given time every blocking call takes {@code factor}
		 * times as long, as a downstream (or the path to it) warms up its code and its
		 * connections.
		 * @param untilSeconds when the calls take their own time again
		 * @param factor how many times as long they take before
		 * @return this builder
		 */
		Builder cold(double untilSeconds, double factor) {
			this.coldUntil = (long) (untilSeconds * SECOND);
			this.coldFactor = factor;
			return this;
		}

		/**
		 * A noisy host: in each 100 ms the host steals a share of the cores drawn from 0
		 * to {@code most}, the same for every run of the same {@code seed}.
		 * @param seed the draws' seed
		 * @param most the largest share stolen
		 * @param seconds how long the draws last (they repeat after)
		 * @return this builder
		 */
		Builder steal(long seed, double most, int seconds) {
			SplittableRandom random = new SplittableRandom(seed);
			this.steal = new double[seconds * (int) (SECOND / PULSE) + 1];
			for (int i = 0; i < this.steal.length; i++) {
				this.steal[i] = most * random.nextDouble();
			}
			return this;
		}

		/**
		 * A busy process: its other threads (a web server's handling of every request,
		 * the JIT compiler, the garbage collector) use a share of the cores drawn each
		 * second from {@code least} to {@code most}, the same for every run of the same
		 * {@code seed}. The pools' tasks get the rest, and the CPU reading the tuner gets
		 * counts them.
		 * @param seed the draws' seed
		 * @param least the smallest share
		 * @param most the largest share
		 * @param seconds how long the draws last (they repeat after)
		 * @return this builder
		 */
		Builder otherThreads(long seed, double least, double most, int seconds) {
			SplittableRandom random = new SplittableRandom(seed);
			int slots = (int) (SECOND / PULSE);
			this.otherThreads = new double[seconds * slots + 1];
			for (int second = 0; second * slots < this.otherThreads.length; second++) {
				double share = random.nextDouble(least, most);
				for (int slot = second * slots; slot < Math.min(this.otherThreads.length,
						(second + 1) * slots); slot++) {
					this.otherThreads[slot] = share;
				}
			}
			return this;
		}

		/**
		 * Let each pool start threads beyond its size when its queue is full.
		 * @param overflow how many
		 * @return this builder
		 */
		Builder overflow(Overflow overflow) {
			this.overflow = overflow;
			return this;
		}

		/**
		 * Cap each pool with a downstream by the oracle of its line.
		 * @param lineCeiling how, or {@code null} for no ceiling
		 * @return this builder
		 */
		Builder lineCeiling(@Nullable LineCeiling lineCeiling) {
			this.lineCeiling = lineCeiling;
			return this;
		}

		/**
		 * Without the tuner's fast path: the windows alone decide.
		 */
		Builder withoutPulses() {
			this.pulses = false;
			return this;
		}

		/**
		 * The same single pool at a fixed size: a static baseline.
		 */
		Builder fixedSize(int size) {
			return fixedSizes(size);
		}

		/**
		 * The same pools at fixed sizes, one per pool in order: a static baseline.
		 */
		Builder fixedSizes(int... sizes) {
			List<SimulatedPool> fixed = new ArrayList<>();
			for (int i = 0; i < this.pools.size(); i++) {
				SimulatedPool pool = this.pools.get(i);
				int size = sizes[i];
				fixed.add(new SimulatedPool(pool.name, pool.workload, pool.arrivalRate,
						new PoolBounds(size, Math.max(size, 1)), size, pool.weight, TuningMode.MANUAL,
						pool.queueCapacity));
				fixed.get(i).expensiveShare = pool.expensiveShare;
			}
			this.pools.clear();
			this.pools.addAll(fixed);
			return this;
		}

		Run run(int seconds) {
			return new PoolSimulator(this).run(seconds);
		}

	}

	private static final class SimulatedPool {

		private final String name;

		private final Workload workload;

		private final DoubleUnaryOperator arrivalRate;

		/**
		 * The share of expensive tasks by the second, or {@code null} for the workload's.
		 */
		private @Nullable DoubleUnaryOperator expensiveShare;

		private final PoolBounds bounds;

		private final int weight;

		private TuningMode mode;

		private final int queueCapacity;

		private final ArrayDeque<Task> queue = new ArrayDeque<>();

		private final ArrayDeque<Task> downstreamWaiting = new ArrayDeque<>();

		private final List<Sample> samples = new ArrayList<>();

		private final List<Change> changes = new ArrayList<>();

		private int size;

		private long arrivalsTotal;

		private long completionsTotal;

		private long rejectedTotal;

		private int running;

		private int downstreamBusy;

		private double lineArea;

		private long lineAt;

		private int lineCap = Integer.MAX_VALUE;

		private int lineWindows;

		private int clearWindows;

		// Window figures.

		private long arrivals;

		private long rejected;

		private long completions;

		private long serviceNanos;

		private long waitNanos;

		private long cpuNanos;

		private double[] responses = new double[1024];

		private int responseCount;

		private int windowStartSize;

		private int maxSizeInWindow;

		private int changesInWindow;

		// The overflow's gate (Overflow.IN_BURSTS).

		private double windowRate = Double.NaN;

		private long gatedAt;

		private long arrivalsAtGate;

		private boolean bursting = true;

		private final List<String> pulseReasons = new ArrayList<>();

		/**
		 * How many times its workload's mean a task arriving now takes.
		 */
		double factor(double second, SplittableRandom random) {
			DoubleUnaryOperator share = this.expensiveShare;
			if (share == null) {
				return this.workload.factor(random);
			}
			return (random.nextDouble() < share.applyAsDouble(second)) ? this.workload.expensiveFactor : 1;
		}

		SimulatedPool(String name, Workload workload, DoubleUnaryOperator arrivalRate, PoolBounds bounds,
				int initialSize, int weight, TuningMode mode, int queueCapacity) {
			this.name = name;
			this.workload = workload;
			this.arrivalRate = arrivalRate;
			this.bounds = bounds;
			this.size = initialSize;
			this.windowStartSize = initialSize;
			this.maxSizeInWindow = initialSize;
			this.weight = weight;
			this.mode = mode;
			this.queueCapacity = queueCapacity;
		}

		int liveThreads() {
			return Math.max(this.size, this.running);
		}

		void resetWindow() {
			this.arrivals = 0;
			this.rejected = 0;
			this.completions = 0;
			this.serviceNanos = 0;
			this.waitNanos = 0;
			this.cpuNanos = 0;
			this.responseCount = 0;
			this.windowStartSize = this.size;
			this.maxSizeInWindow = this.size;
			this.changesInWindow = 0;
			this.pulseReasons.clear();
		}

		void respond(double ms) {
			if (this.responseCount == this.responses.length) {
				this.responses = Arrays.copyOf(this.responses, this.responseCount * 2);
			}
			this.responses[this.responseCount++] = ms;
		}

	}

	private record HandResize(String pool, int second, int size) {
	}

	/**
	 * A simulated pool as the budget sees it.
	 */
	private static final class Member implements BudgetMember {

		private final SimulatedPool pool;

		Member(SimulatedPool pool) {
			this.pool = pool;
		}

		@Override
		public String getName() {
			return this.pool.name;
		}

		@Override
		public int getWeight() {
			return this.pool.weight;
		}

		@Override
		public int minThreads() {
			return this.pool.bounds.minThreads();
		}

		@Override
		public int maxThreads() {
			return this.pool.bounds.maxThreads();
		}

		@Override
		public int corePoolSize() {
			return this.pool.size;
		}

		@Override
		public int maxPoolSize() {
			return this.pool.size;
		}

		@Override
		public int liveThreads() {
			return this.pool.liveThreads();
		}

		@Override
		public List<Loan> resize(int corePoolSize, int maxPoolSize) {
			throw new UnsupportedOperationException("no simulated pool lends");
		}

	}

	private enum Kind {

		ARRIVAL, NO_ARRIVAL, CPU_DONE, BLOCK_DONE, STEAL

	}

	private record Event(long at, Kind kind, SimulatedPool pool, Task task, long version,
			long sequence) implements Comparable<Event> {

		@Override
		public int compareTo(Event other) {
			int byTime = Long.compare(this.at, other.at);
			return (byTime != 0) ? byTime : Long.compare(this.sequence, other.sequence);
		}

	}

	private static final class Task {

		private final SimulatedPool pool;

		private final long submittedAt;

		private final long cpuNanos;

		private final long blockNanos;

		private final long number;

		private long startedAt;

		/**
		 * The simulator's CPU time given to each task at which this one is done.
		 */
		private double cpuDoneAt;

		Task(SimulatedPool pool, long number, long submittedAt, long cpuNanos, long blockNanos) {
			this.pool = pool;
			this.number = number;
			this.submittedAt = submittedAt;
			this.cpuNanos = cpuNanos;
			this.blockNanos = blockNanos;
		}

	}

}
