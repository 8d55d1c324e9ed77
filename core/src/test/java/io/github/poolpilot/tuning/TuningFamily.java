package io.github.poolpilot.tuning;

import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;

import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.testsupport.Draw;
import io.github.poolpilot.tuning.PoolSimulator.Workload;

/**
 * One pool's scenario drawn from a seed, for the simulator's families: a downstream
 * admitting 1 to 64 calls at a time (or none), a service time of 1 to 500 ms of which a
 * share is CPU time on the simulator's 2 cores, an offered load of 0.2 to 3 times what
 * the pool can serve at its max-threads, max-threads 4 to 400, a queue of 4 to 1000, the
 * pool starting at its min-threads, at half its max-threads (a share of a budget) or at
 * its max-threads, steady or bursty Poisson arrivals, sometimes a mix of cheap and
 * expensive tasks, sometimes a noisy host that steals up to 60 % of the cores 100 ms at a
 * time. To keep a few hundred draws within seconds, the offered rate stays at most
 * {@value #MOST_ARRIVALS} tasks a second: a draw that would offer more has its service
 * times lengthened in proportion, which keeps its load in threads and in multiples of its
 * capacity.
 *
 * @param seed the seed it was drawn from
 * @param workload what each task does
 * @param bounds the pool's min and max threads
 * @param queueCapacity the pool's queue
 * @param start the pool's size at the start
 * @param capacity the tasks a second the pool serves at its max-threads: the least of the
 * downstream's, the threads' and the cores'
 * @param load the offered load as a multiple of the capacity
 * @param burstSeconds the mean length of a burst or a lull, 0 for steady arrivals
 * @param burstDepth how far a burst rises and a lull falls, as a share of the mean rate
 * @param steal the most of the cores the host steals at a time, 0 for a quiet host
 * @param quietSeconds the seconds before the load: a load step from idle, or from a light
 * load
 * @param quietShare the share of the load offered in those seconds: 0 for idle
 * @param coldSeconds the seconds after the first arrival during which the blocking calls
 * take {@value #COLD_FACTOR} times as long: a downstream, or the path to it, warming up
 * @param seconds how long a run lasts
 * @author poolpilot authors
 */
record TuningFamily(long seed, Workload workload, PoolBounds bounds, int queueCapacity, int start, double capacity,
		double load, double burstSeconds, double burstDepth, double steal, int quietSeconds, double quietShare,
		double coldSeconds, int seconds) {

	static final int MOST_ARRIVALS = 200;

	static final double COLD_FACTOR = 5;

	static final int CORES = 2;

	static TuningFamily draw(long seed) {
		Draw draw = new Draw(seed);
		int permits = draw.chance(0.7) ? draw.between(1, 64) : 0;
		double serviceMs = draw.logUniform(1, 500);
		double cpuShare = draw.oneOf(0.0, 0.02, 0.1, 0.3, 1.0);
		if (permits > 0 && cpuShare == 1.0) {
			cpuShare = 0.3;
		}
		double sigma = draw.oneOf(0.0, 0.1, 0.5, 1.0);
		boolean mixed = draw.chance(0.3);
		double expensiveShare = mixed ? draw.uniform(0.05, 0.3) : 0;
		double expensiveFactor = mixed ? draw.uniform(3, 10) : 1;
		int maxThreads = (int) Math.round(draw.logUniform(4, 400));
		int minThreads = Math.min(maxThreads, draw.between(1, 4));
		int queue = (int) Math.round(draw.logUniform(4, 1000));
		double load = draw.uniform(0.2, 3);
		int start = draw.oneOf(minThreads, Math.max(minThreads, maxThreads / 2), maxThreads);
		double burstSeconds = draw.chance(0.5) ? draw.uniform(0.5, 4) : 0;
		double burstDepth = (burstSeconds > 0) ? draw.uniform(0.3, 0.9) : 0;
		double steal = draw.chance(0.3) ? draw.uniform(0.1, 0.6) : 0;
		Workload workload = new Workload(serviceMs * cpuShare, serviceMs * (1 - cpuShare), sigma, permits)
			.mixed(expensiveShare, expensiveFactor);
		double capacity = capacity(workload, maxThreads);
		double scale = Math.max(1, load * capacity / MOST_ARRIVALS);
		workload = new Workload(workload.cpuMs() * scale, workload.blockMs() * scale, sigma, permits, expensiveShare,
				expensiveFactor);
		return new TuningFamily(seed, workload, new PoolBounds(minThreads, maxThreads), queue, start,
				capacity(workload, maxThreads), load, burstSeconds, burstDepth, steal, 0, 0, 0, 90);
	}

	/**
	 * A scenario given rather than drawn.
	 * @param seed the seed of its arrivals, task times and host
	 * @param workload what each task does
	 * @param bounds the pool's min and max threads
	 * @param queueCapacity the pool's queue
	 * @param start the pool's size at the start
	 * @param rate the mean arrival rate, tasks a second
	 * @param burstSeconds the mean length of a burst or a lull, 0 for steady arrivals
	 * @param burstDepth how far a burst rises and a lull falls
	 * @param steal the most of the cores the host steals at a time, 0 for a quiet host
	 * @param quietSeconds the seconds before the first arrival
	 * @return the scenario
	 */
	static TuningFamily of(long seed, Workload workload, PoolBounds bounds, int queueCapacity, int start, double rate,
			double burstSeconds, double burstDepth, double steal, int quietSeconds) {
		double capacity = capacity(workload, bounds.maxThreads());
		return new TuningFamily(seed, workload, bounds, queueCapacity, start, capacity, rate / capacity, burstSeconds,
				burstDepth, steal, quietSeconds, 0, 0, 90);
	}

	/**
	 * The same scenario whose blocking calls take {@value #COLD_FACTOR} times as long for
	 * the first seconds of its load.
	 * @param seconds how long the calls are slow, from the first arrival
	 * @return the scenario
	 */
	TuningFamily cold(double seconds) {
		return new TuningFamily(this.seed, this.workload, this.bounds, this.queueCapacity, this.start, this.capacity,
				this.load, this.burstSeconds, this.burstDepth, this.steal, this.quietSeconds, this.quietShare, seconds,
				this.seconds);
	}

	/**
	 * The same scenario after a light load: for its first seconds it is offered a share
	 * of its load, enough for a base service time to be measured at a small size, and
	 * then the whole load for as long as the scenario lasted.
	 * @param seconds how long the light load lasts
	 * @param share the share of the load offered meanwhile
	 * @return the scenario
	 */
	TuningFamily afterALightLoad(int seconds, double share) {
		return new TuningFamily(this.seed, this.workload, this.bounds, this.queueCapacity, this.start, this.capacity,
				this.load, this.burstSeconds, this.burstDepth, this.steal, seconds, share, this.coldSeconds,
				this.seconds + seconds);
	}

	/**
	 * The tasks a second a pool of {@code threads} serves: the least of the downstream's,
	 * the threads' and the cores' (without the host's steal).
	 */
	static double capacity(Workload workload, int threads) {
		double capacity = threads * 1000 / workload.mean(workload.cpuMs() + workload.blockMs());
		if (workload.downstreamPermits() > 0 && workload.blockMs() > 0) {
			capacity = Math.min(capacity, workload.downstreamPermits() * 1000 / workload.mean(workload.blockMs()));
		}
		if (workload.cpuMs() > 0) {
			capacity = Math.min(capacity, CORES * 1000 / workload.mean(workload.cpuMs()));
		}
		return capacity;
	}

	double offeredRate() {
		return this.load * this.capacity;
	}

	/**
	 * Return the knee in threads when a downstream is what limits the pool below its
	 * max-threads: the threads that keep its calls busy, each task holding a call for its
	 * blocking time only. {@code 0} when the downstream is not the limit.
	 */
	double knee() {
		int permits = this.workload.downstreamPermits();
		if (permits == 0 || this.workload.blockMs() == 0) {
			return 0;
		}
		double downstream = permits * 1000 / this.workload.mean(this.workload.blockMs());
		if (downstream > this.capacity * 1.001 || this.offeredRate() < downstream) {
			return 0;
		}
		return permits * (this.workload.cpuMs() + this.workload.blockMs()) / this.workload.blockMs();
	}

	/**
	 * The arrival rate second by second: steady, or bursts and lulls of random lengths
	 * around the same mean.
	 */
	DoubleUnaryOperator arrivals() {
		double rate = offeredRate();
		int quiet = this.quietSeconds;
		double before = rate * this.quietShare;
		if (this.burstSeconds == 0) {
			return (second) -> (second < quiet) ? before : rate;
		}
		int slotsPerSecond = 20;
		double[] slots = new double[this.seconds * slotsPerSecond + 1];
		SplittableRandom random = new SplittableRandom(this.seed * 31 + 17);
		boolean burst = random.nextBoolean();
		double left = -Math.log(1 - random.nextDouble()) * this.burstSeconds;
		for (int i = 0; i < slots.length; i++) {
			slots[i] = rate * (burst ? 1 + this.burstDepth : 1 - this.burstDepth);
			left -= 1.0 / slotsPerSecond;
			if (left <= 0) {
				burst = !burst;
				left = -Math.log(1 - random.nextDouble()) * this.burstSeconds;
			}
		}
		return (second) -> {
			double now = slots[Math.min(slots.length - 1, (int) (second * slotsPerSecond))];
			return (second < quiet) ? now * this.quietShare : now;
		};
	}

	/**
	 * The second of the first arrival: the load's start, or the light load's before it.
	 */
	private int firstArrival() {
		return (this.quietShare > 0) ? 0 : this.quietSeconds;
	}

	/**
	 * The tuned pool.
	 */
	PoolSimulator.Builder tuned() {
		PoolSimulator.Builder builder = PoolSimulator.builder()
			.cores(CORES)
			.seed(this.seed)
			.pool("family", this.workload, arrivals(), this.bounds, this.start, 1, TuningMode.AUTO, this.queueCapacity)
			.cold(firstArrival() + this.coldSeconds, COLD_FACTOR);
		return (this.steal > 0) ? builder.steal(this.seed * 7 + 3, this.steal, this.seconds) : builder;
	}

	/**
	 * The same pool fixed at its max-threads, on the same arrivals and the same host.
	 */
	PoolSimulator.Builder fixedAtMax() {
		return tuned().fixedSize(this.bounds.maxThreads());
	}

	@Override
	public String toString() {
		Workload work = this.workload;
		return String.format(
				"seed %d: %.1f ms CPU + %.1f ms blocked (sigma %.1f)%s%s, threads %d..%d from %d, queue %d, "
						+ "offered %.1f/s = %.2f x capacity %.1f/s%s%s%s%s, knee %.1f",
				this.seed, work.cpuMs(), work.blockMs(), work.sigma(),
				(work.downstreamPermits() > 0) ? ", downstream admits " + work.downstreamPermits() : "",
				(work.expensiveShare() > 0) ? String.format(", %.0f %% of tasks %.1f x as long",
						100 * work.expensiveShare(), work.expensiveFactor()) : "",
				this.bounds.minThreads(), this.bounds.maxThreads(), this.start, this.queueCapacity, offeredRate(),
				this.load, this.capacity,
				(this.burstSeconds > 0)
						? String.format(", bursts of %.1f s at +-%.0f %%", this.burstSeconds, 100 * this.burstDepth)
						: ", steady",
				(this.steal > 0) ? String.format(", host steals up to %.0f %% of the cores", 100 * this.steal) : "",
				(this.quietSeconds == 0) ? ""
						: (this.quietShare > 0)
								? String.format(", %.0f %% of it for the first %d s", 100 * this.quietShare,
										this.quietSeconds)
								: String.format(", idle for the first %d s", this.quietSeconds),
				(this.coldSeconds > 0)
						? String.format(", calls %.0f x as long for its first %.1f s", COLD_FACTOR, this.coldSeconds)
						: "",
				knee());
	}

}
