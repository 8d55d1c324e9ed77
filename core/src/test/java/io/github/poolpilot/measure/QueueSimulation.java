package io.github.poolpilot.measure;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.DoubleSupplier;

import io.github.poolpilot.measure.PoolSnapshot.Sizes;
import io.github.poolpilot.testsupport.FakeClock;

/**
 * A first-come first-served pool of {@code threads} servers on a simulated clock, fed a
 * known workload, that drives a {@link PoolRecorder} as an executor and a sampler do
 * (submit, start, end, a sample of its busy threads every millisecond, a snapshot every
 * window) and keeps the true figures of each window to check the recorder's against.
 *
 * @author poolpilot authors
 */
final class QueueSimulation {

	static final long MILLI = 1_000_000;

	static final long WINDOW = 1_000 * MILLI;

	/**
	 * A task's CPU time is this share of its service time: W/C = 3.
	 */
	static final double CPU_SHARE = 0.25;

	private final int threads;

	private final long sampleEvery;

	private final FakeClock clock = new FakeClock();

	private long cpuNow;

	private final PoolRecorder recorder;

	QueueSimulation(int threads, long sampleEvery, long seed) {
		this.threads = threads;
		this.sampleEvery = sampleEvery;
		SplittableRandom draws = new SplittableRandom(seed);
		this.recorder = PoolRecorder.builder()
			.clock(this.clock)
			.cpuClock(() -> this.cpuNow)
			.cpuSampleEvery(1)
			.processors(2)
			.draw(draws::nextInt)
			.build();
	}

	PoolRecorder recorder() {
		return this.recorder;
	}

	/**
	 * Run the given windows of work: arrivals at the given rate (exponential gaps), each
	 * task's service time drawn from the supplier, in nanoseconds.
	 * @param windows how many windows
	 * @param arrivalsPerSecond the offered rate
	 * @param serviceNanos the service time of each task
	 * @param random the workload's random numbers
	 * @return each window's snapshot and truth
	 */
	List<Window> run(int windows, double arrivalsPerSecond, DoubleSupplier serviceNanos, SplittableRandom random) {
		List<Task> tasks = new ArrayList<>();
		double at = 0;
		long end = windows * WINDOW;
		long[] free = new long[this.threads];
		while (true) {
			at += -Math.log(1 - random.nextDouble()) / arrivalsPerSecond * 1e9;
			if (at >= end) {
				break;
			}
			Task task = new Task((long) at, Math.max(1, (long) serviceNanos.getAsDouble()));
			int server = 0;
			for (int i = 1; i < free.length; i++) {
				if (free[i] < free[server]) {
					server = i;
				}
			}
			task.startedAt = Math.max(task.submittedAt, free[server]);
			task.endedAt = task.startedAt + task.serviceNanos;
			free[server] = task.endedAt;
			tasks.add(task);
		}
		List<Event> events = new ArrayList<>();
		for (Task task : tasks) {
			events.add(new Event(task.submittedAt, Kind.ARRIVAL, task));
			if (task.endedAt < end) {
				events.add(new Event(task.startedAt, Kind.START, task));
				events.add(new Event(task.endedAt, Kind.END, task));
			}
			else if (task.startedAt < end) {
				events.add(new Event(task.startedAt, Kind.START, task));
			}
		}
		for (long t = this.sampleEvery; t < end; t += this.sampleEvery) {
			if (t % WINDOW != 0) {
				events.add(new Event(t, Kind.SAMPLE, null));
			}
		}
		for (int w = 1; w <= windows; w++) {
			events.add(new Event(w * WINDOW, Kind.CLOSE, null));
		}
		events.sort(Comparator.comparingLong(Event::at).thenComparing(Event::kind));
		return replay(events, tasks);
	}

	private List<Window> replay(List<Event> events, List<Task> tasks) {
		List<Window> windows = new ArrayList<>();
		int queued = 0;
		int busy = 0;
		long windowStart = 0;
		long last = 0;
		double busyIntegral = 0;
		for (Event event : events) {
			long now = event.at();
			busyIntegral += busy * (double) (now - last);
			last = now;
			this.clock.advance(java.time.Duration.ofNanos(now - this.clock.nanoTime()));
			Task task = event.task();
			switch (event.kind()) {
				case END -> {
					busy--;
					if (task.timed) {
						this.cpuNow = task.cpuStart + (long) (task.serviceNanos * CPU_SHARE);
						this.recorder.timedTaskFinished(task.submittedAt, task.startedAt, task.cpuStart, false);
					}
					else {
						this.recorder.untimedTaskFinished(false);
					}
				}
				case START -> {
					queued--;
					busy++;
					if (task.timed) {
						this.cpuNow = 0;
						task.cpuStart = this.recorder.cpuSampleStart();
					}
				}
				case ARRIVAL -> {
					this.recorder.taskSubmitted();
					task.timed = this.recorder.timesThisTask();
					queued++;
				}
				case SAMPLE -> this.recorder.sampleOccupancy(busy);
				case CLOSE -> {
					PoolSnapshot snapshot = this.recorder.snapshot("simulated",
							new Sizes(this.threads, this.threads, this.threads, busy, queued, 1_000_000, 1, 8));
					long from = windowStart;
					Task[] ended = tasks.stream()
						.filter((t) -> t.endedAt > from && t.endedAt <= now)
						.toArray(Task[]::new);
					long timed = Arrays.stream(ended).filter((t) -> t.timed).count();
					windows.add(new Window(snapshot, Truth.of(ended, tasks, from, now, busyIntegral), timed));
					windowStart = now;
					busyIntegral = 0;
				}
			}
		}
		return windows;
	}

	enum Kind {

		// At one instant: an end frees its thread before a start takes it, a task arrives
		// before it starts, and samples and closes see all three.
		END, ARRIVAL, START, SAMPLE, CLOSE

	}

	record Event(long at, Kind kind, Task task) {

	}

	static final class Task {

		final long submittedAt;

		final long serviceNanos;

		long startedAt;

		long endedAt;

		boolean timed;

		long cpuStart;

		Task(long submittedAt, long serviceNanos) {
			this.submittedAt = submittedAt;
			this.serviceNanos = serviceNanos;
		}

		long responseNanos() {
			return this.endedAt - this.submittedAt;
		}

	}

	/**
	 * One window's snapshot, its true figures and how many of its tasks were timed.
	 */
	record Window(PoolSnapshot snapshot, Truth truth, long timed) {

	}

	/**
	 * The true figures of one window, from every task that ended in it, in milliseconds.
	 */
	record Truth(long arrivals, long completions, double queueWaitMs, double serviceMs, double responseMs,
			double p99ResponseMs, double busyThreads) {

		static Truth of(Task[] ended, List<Task> all, long from, long to, double busyIntegral) {
			long arrivals = all.stream().filter((t) -> t.submittedAt >= from && t.submittedAt < to).count();
			double wait = Arrays.stream(ended).mapToLong((t) -> t.startedAt - t.submittedAt).average().orElse(0);
			double service = Arrays.stream(ended).mapToLong((t) -> t.serviceNanos).average().orElse(0);
			long[] responses = Arrays.stream(ended).mapToLong(Task::responseNanos).sorted().toArray();
			double p99 = (responses.length > 0) ? responses[(int) Math.ceil(responses.length * 0.99) - 1] : 0;
			return new Truth(arrivals, ended.length, wait / MILLI, service / MILLI, (wait + service) / MILLI,
					p99 / MILLI, busyIntegral / (to - from));
		}

	}

}
