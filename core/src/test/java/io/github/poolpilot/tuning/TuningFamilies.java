package io.github.poolpilot.tuning;

import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.tuning.PoolSimulator.Workload;

/**
 * The failures reported against the second tuner (issue 29), and one seen since on the
 * sample's load test, as scenarios of the simulator's families.
 *
 * @author poolpilot authors
 */
final class TuningFamilies {

	/**
	 * A web server's pool, 2..8 threads with a queue of 16, offered 200 requests a second
	 * in bursts of about a second at ±30 %: cheap requests of 3 ms of CPU and 2 ms
	 * waiting on a database, 15 % of them six times as long, on a host that steals up to
	 * 30 % of the cores. The pool fixed at 8 threads refuses a few of them; the second
	 * tuner held 2 threads and refused ten times as many.
	 */
	static final TuningFamily WEB_SERVER = TuningFamily.of(29, new Workload(3, 2, 0.5, 0).mixed(0.15, 6),
			new PoolBounds(2, 8), 16, 2, 200, 1, 0.3, 0.3, 0);

	/**
	 * A pool of 1..300 threads in front of a downstream that admits 5 calls at a time (50
	 * ms each, 100 calls a second), idle for 5 s and then offered a third more than the
	 * downstream serves. The second tuner's surge, its service time measured on the
	 * growing pool, took it to 67 threads, and it stayed above the knee + 50 % for 15 s.
	 */
	static final TuningFamily TALK = TuningFamily.of(684, new Workload(0.5, 50, 0.1, 5), new PoolBounds(1, 300), 100, 1,
			133, 0, 0, 0, 5);

	/**
	 * A web server's pool, 10..200 threads with a queue of 100, in front of a downstream
	 * that admits 20 calls of 300 ms (66.7 calls a second), offered three times as many
	 * in bursts of about a second at ±50 %, as in the sample's load test. Its surges and
	 * steps, each kept on the noise of a throughput the downstream holds, took it to its
	 * 200 threads, where it stayed, refusing, while every thread beyond about 22 only
	 * waited for the downstream: a pool that refuses work is not cut without a knee seen,
	 * and does not probe down.
	 */
	static final TuningFamily SLOW_DOWNSTREAM = TuningFamily.of(1, new Workload(0.5, 300, 0.1, 20),
			new PoolBounds(10, 200), 100, 10, 200, 1, 0.5, 0, 0);

	/**
	 * The sample's web-server run as its load generator sends it: the pool and downstream
	 * of {@link #SLOW_DOWNSTREAM}, offered 204 requests a second at a steady rate rather
	 * than in bursts. Its base service time climbed with the pool once the uncongested
	 * windows of its start were old, and it grew to several times its knee, as on real
	 * threads ({@link WebRunFamilyTests}). Then it ended at 33 threads, three beyond its
	 * knee + 50 %: the slowdown rule's cut to 22 (a tenth beyond X·S₀) stood, but its
	 * shortening was within the service time's noise, so growth did not rest and the
	 * refusals grew the pool again. A cut that stands now rests growth: it probes down
	 * from 22, learns the knee near 20 and holds 22.
	 */
	static final TuningFamily WEB_RUN = webRun(1, 0.1);

	/**
	 * The sample's knee run: a pool of 5..300 threads set to 50 on an idle application,
	 * then offered 240 calls a second, one and a half times what a downstream that admits
	 * 8 calls of 50 ms serves. With no base service time measured yet, its surge sized
	 * the step on a service time that counted the wait in the downstream's line and took
	 * it to 134; refusing in every window, it never probed down, while every thread
	 * beyond about 9 only waited. On real threads the same run went to 300 and stayed.
	 */
	static final TuningFamily KNEE_FROM_IDLE = TuningFamily.of(1, new Workload(0.5, 50, 0.1, 8), new PoolBounds(5, 300),
			100, 50, 240, 0, 0, 0, 1);

	/**
	 * The sample's knee run as it went on real threads: the same pool and load, but the
	 * path to the downstream (an HTTP call to the application's own server) warming up,
	 * so that its first calls took about five times as long. The surge, its service time
	 * estimated on those calls, took the pool to its max-threads of 300; refusing in
	 * every window, with a base service time measured congested, it never probed down.
	 */
	static final TuningFamily KNEE_COLD = KNEE_FROM_IDLE.cold(1.5);

	private TuningFamilies() {
	}

	/**
	 * The sample's web-server run at a steady rate ({@link #WEB_RUN}), its calls' noise
	 * given.
	 * @param seed the seed of its arrivals and task times
	 * @param sigma the calls' noise
	 * @return the scenario
	 */
	static TuningFamily webRun(long seed, double sigma) {
		return TuningFamily.of(seed, new Workload(0.5, 300, sigma, 20), new PoolBounds(10, 200), 100, 10, 204, 0, 0, 0,
				0);
	}

}
