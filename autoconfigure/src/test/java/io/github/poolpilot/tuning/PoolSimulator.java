package io.github.poolpilot.tuning;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;

import io.github.poolpilot.core.PoolBounds;
import io.github.poolpilot.core.PoolSnapshot;
import io.github.poolpilot.core.PoolSnapshot.Latency;
import io.github.poolpilot.core.PoolSnapshot.LittlesLaw;
import io.github.poolpilot.core.PoolSnapshot.Sizes;
import io.github.poolpilot.core.PoolSnapshot.TaskCounts;
import io.github.poolpilot.tuning.PoolController.Decision;

/**
 * A discrete-event simulation of one pool on virtual time, driving the real
 * {@link PoolController} once a second. Tasks arrive as a Poisson process, spend some CPU
 * time on a machine of N cores shared by every running task (processor sharing), then
 * block, optionally on a downstream that admits K calls at a time. Runs identically for a
 * given seed, in milliseconds of real time.
 *
 * @author poolpilot authors
 */
final class PoolSimulator {

	private static final long SECOND = 1_000_000_000L;

	private final int cores;

	private final double cpuMs;

	private final double blockMs;

	private final int downstreamPermits;

	private final int queueCapacity;

	private final PoolBounds bounds;

	private final SplittableRandom random;

	private final PoolController controller;

	private long now;

	private int size;

	private long sequence;

	private final PriorityQueue<Event> events = new PriorityQueue<>();

	private final ArrayDeque<Task> queue = new ArrayDeque<>();

	private final ArrayDeque<Task> downstreamWaiting = new ArrayDeque<>();

	private final List<Task> onCpu = new ArrayList<>();

	private int running;

	private int downstreamBusy;

	private long cpuEventVersion;

	// Window figures.

	private long arrivals;

	private long completions;

	private double serviceMsSum;

	private double waitMsSum;

	private double cpuBusyCoreNanos;

	private final List<Sample> samples = new ArrayList<>();

	PoolSimulator(int cores, double cpuMs, double blockMs, int downstreamPermits, int queueCapacity, PoolBounds bounds,
			int initialSize, long seed) {
		this.cores = cores;
		this.cpuMs = cpuMs;
		this.blockMs = blockMs;
		this.downstreamPermits = downstreamPermits;
		this.queueCapacity = queueCapacity;
		this.bounds = bounds;
		this.size = initialSize;
		this.random = new SplittableRandom(seed);
		this.controller = new PoolController(() -> this.now);
	}

	/**
	 * Run for a number of seconds with an arrival rate that may change with time.
	 * @param seconds how long
	 * @param arrivalRate tasks per second as a function of the second
	 * @return one sample per second
	 */
	List<Sample> run(int seconds, DoubleUnaryOperator arrivalRate) {
		long end = this.now + seconds * SECOND;
		scheduleArrival(arrivalRate);
		for (long tick = this.now + SECOND; tick <= end; tick += SECOND) {
			advanceTo(tick, arrivalRate);
			closeWindow();
		}
		return this.samples;
	}

	private void advanceTo(long until, DoubleUnaryOperator arrivalRate) {
		while (!this.events.isEmpty() && this.events.peek().at <= until) {
			Event event = this.events.poll();
			progressCpu(event.at);
			this.now = event.at;
			switch (event.kind) {
				case ARRIVAL -> {
					arrive();
					scheduleArrival(arrivalRate);
				}
				case NO_ARRIVAL -> scheduleArrival(arrivalRate);
				case CPU_DONE -> {
					if (event.version == this.cpuEventVersion) {
						finishCpuWork();
					}
				}
				case BLOCK_DONE -> finishBlocking(event.task);
			}
		}
		progressCpu(until);
		this.now = until;
	}

	private void scheduleArrival(DoubleUnaryOperator arrivalRate) {
		double rate = arrivalRate.applyAsDouble((double) this.now / SECOND);
		if (rate <= 0) {
			// No arrivals now: look again in a millisecond of virtual time.
			this.events.add(new Event(this.now + SECOND / 1000, Kind.NO_ARRIVAL, null, 0, this.sequence++));
			return;
		}
		long gap = (long) (-Math.log(1 - this.random.nextDouble()) / rate * SECOND);
		this.events.add(new Event(this.now + Math.max(1, gap), Kind.ARRIVAL, null, 0, this.sequence++));
	}

	private void arrive() {
		this.arrivals++;
		Task task = new Task(this.now);
		if (this.running < this.size) {
			start(task);
		}
		else if (this.queue.size() < this.queueCapacity) {
			this.queue.add(task);
		}
	}

	private void start(Task task) {
		this.running++;
		task.startedAt = this.now;
		task.cpuLeftNanos = this.cpuMs * 1_000_000;
		if (task.cpuLeftNanos > 0) {
			this.onCpu.add(task);
			rescheduleCpu();
		}
		else {
			block(task);
		}
	}

	private double cpuRate() {
		return this.onCpu.isEmpty() ? 0 : Math.min(1.0, (double) this.cores / this.onCpu.size());
	}

	private void progressCpu(long until) {
		long elapsed = until - this.now;
		if (elapsed <= 0 || this.onCpu.isEmpty()) {
			return;
		}
		double rate = cpuRate();
		for (Task task : this.onCpu) {
			task.cpuLeftNanos -= elapsed * rate;
		}
		this.cpuBusyCoreNanos += elapsed * Math.min(this.cores, this.onCpu.size());
	}

	private void rescheduleCpu() {
		this.cpuEventVersion++;
		if (this.onCpu.isEmpty()) {
			return;
		}
		double least = this.onCpu.stream().mapToDouble((task) -> task.cpuLeftNanos).min().orElse(0);
		long at = this.now + (long) Math.ceil(Math.max(0, least) / cpuRate());
		this.events.add(new Event(at, Kind.CPU_DONE, null, this.cpuEventVersion, this.sequence++));
	}

	private void finishCpuWork() {
		List<Task> done = new ArrayList<>();
		for (Task task : this.onCpu) {
			if (task.cpuLeftNanos <= 1) {
				done.add(task);
			}
		}
		this.onCpu.removeAll(done);
		rescheduleCpu();
		done.forEach(this::block);
	}

	private void block(Task task) {
		if (this.downstreamPermits > 0) {
			if (this.downstreamBusy >= this.downstreamPermits) {
				this.downstreamWaiting.add(task);
				return;
			}
			this.downstreamBusy++;
		}
		this.events
			.add(new Event(this.now + (long) (this.blockMs * 1_000_000), Kind.BLOCK_DONE, task, 0, this.sequence++));
	}

	private void finishBlocking(Task task) {
		if (this.downstreamPermits > 0) {
			this.downstreamBusy--;
			Task next = this.downstreamWaiting.poll();
			if (next != null) {
				block(next);
			}
		}
		this.running--;
		this.completions++;
		this.serviceMsSum += (this.now - task.startedAt) / 1e6;
		this.waitMsSum += (task.startedAt - task.submittedAt) / 1e6;
		startQueued();
	}

	private void startQueued() {
		while (this.running < this.size && !this.queue.isEmpty()) {
			start(this.queue.poll());
		}
	}

	private void closeWindow() {
		double throughput = this.completions;
		double serviceMs = (this.completions > 0) ? this.serviceMsSum / this.completions : 0;
		double waitMs = (this.completions > 0) ? this.waitMsSum / this.completions : 0;
		double busy = throughput * serviceMs / 1000;
		double cpuLoad = this.cpuBusyCoreNanos / (this.cores * (double) SECOND);
		// Goetz: Ncpu · (1 + W/C), W being the service time not spent on the CPU.
		Integer goetz = (this.cpuMs > 0 && serviceMs > 0)
				? (int) Math.ceil(this.cores * (1 + (serviceMs - this.cpuMs) / this.cpuMs)) : null;
		Latency service = new Latency(serviceMs, serviceMs, serviceMs, serviceMs, serviceMs);
		Latency response = new Latency(serviceMs + waitMs, 0, 0, 0, 0);
		LittlesLaw law = new LittlesLaw(this.arrivals, throughput, serviceMs, waitMs, serviceMs + waitMs,
				serviceMs + waitMs, throughput * (serviceMs + waitMs) / 1000, busy, 0, 0, null, goetz);
		PoolSnapshot snapshot = new PoolSnapshot("sim", 1,
				new Sizes(this.size, this.size, this.size, this.running, this.queue.size(), this.queueCapacity,
						this.bounds.minThreads(), this.bounds.maxThreads()),
				new TaskCounts(0, 0, 0, 0, 0), this.arrivals, this.completions, new Latency(waitMs, 0, 0, 0, 0),
				service, response, law);
		Decision decision = this.controller.decide(snapshot, this.size, this.bounds, cpuLoad);
		this.samples.add(new Sample(this.samples.size() + 1, this.size, throughput, serviceMs + waitMs, cpuLoad,
				decision.threads(), decision.reason()));
		if (decision.threads() != this.size) {
			this.size = decision.threads();
			startQueued();
		}
		this.arrivals = 0;
		this.completions = 0;
		this.serviceMsSum = 0;
		this.waitMsSum = 0;
		this.cpuBusyCoreNanos = 0;
	}

	/**
	 * One second of a run.
	 *
	 * @param second the second that ended
	 * @param size the pool's size during it
	 * @param throughput tasks finished in it
	 * @param meanResponseMs their mean response time
	 * @param cpuLoad the share of the cores in use
	 * @param nextSize the size decided for the next second
	 * @param reason why
	 */
	record Sample(int second, int size, double throughput, double meanResponseMs, double cpuLoad, int nextSize,
			String reason) {

	}

	private enum Kind {

		ARRIVAL, NO_ARRIVAL, CPU_DONE, BLOCK_DONE

	}

	private record Event(long at, Kind kind, Task task, long version, long sequence) implements Comparable<Event> {

		@Override
		public int compareTo(Event other) {
			int byTime = Long.compare(this.at, other.at);
			return (byTime != 0) ? byTime : Long.compare(this.sequence, other.sequence);
		}

	}

	private static final class Task {

		private final long submittedAt;

		private long startedAt;

		private double cpuLeftNanos;

		Task(long submittedAt) {
			this.submittedAt = submittedAt;
		}

	}

}
