package io.github.poolpilot.benchmarks.scenarios;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleUnaryOperator;

import io.github.poolpilot.pool.PoolBounds;

/**
 * The tuning scenarios, with the workloads of the simulator's
 * {@code PoolSimulationTests}, shortened so that each strategy's run stays under a
 * minute: S1 to S6, S7 for max-queue-wait, S8 (a pool starting far above a downstream's
 * knee), S9 (a tenfold load step), S10 and S11 (the two shapes where the tuned pool
 * refused work that a pool fixed at its max-threads serves: a downstream behind a large
 * max, a web server's small pool under bursts of mixed work), S12 (the sample's knee run:
 * S8's downstream behind a max of 300, from idle).
 *
 * @author poolpilot authors
 */
final class Scenarios {

	/**
	 * S1: 2 ms of CPU per task; 2 cores serve 1000/s.
	 */
	static final Workload CPU_BOUND = new Workload(2, 0, 0, 0);

	/**
	 * S2, S4: 2 ms of CPU and 18 ms of blocking per task, each within about 10 %.
	 */
	static final Workload BLOCKING = new Workload(2, 18, 0.1, 0);

	/**
	 * S3: a 20 ms call through a downstream that admits 8 calls at a time (400/s at
	 * most).
	 */
	static final Workload DOWNSTREAM = new Workload(0, 20, 0, 8);

	/**
	 * S8: a 50 ms call through a downstream that admits 8 calls at a time (160/s at
	 * most).
	 */
	static final Workload SLOW_DOWNSTREAM = new Workload(0, 50, 0, 8);

	/**
	 * S9: a blocking call of about 20 ms that spends 0.5 ms on the CPU.
	 */
	static final Workload CPU_LIGHT = new Workload(0.5, 19.5, 0.1, 0);

	/**
	 * S5: a 20 ms call, within about 10 %, and almost no CPU.
	 */
	static final Workload CALL = new Workload(0, 20, 0.1, 0);

	/**
	 * S6: S2's means with lognormal times of shape 1.
	 */
	static final Workload LOGNORMAL = new Workload(2, 18, 1, 0);

	/**
	 * S10: a 50 ms call through a downstream that admits 5 calls at a time (100/s at
	 * most).
	 */
	static final Workload NARROW_DOWNSTREAM = new Workload(0, 50, 0, 5);

	/**
	 * S11: a web server's mix: 4 tasks in 5 take 0.2 ms of CPU and 4.8 ms blocking, the
	 * fifth 8 times that (a mean of 12 ms); 8 threads serve about 660/s.
	 */
	static final Workload WEB_MIX = new Workload(0.2, 4.8, 0.1, 0, 0.2, 8);

	static final PoolBounds BOUNDS = new PoolBounds(1, 64);

	static final int QUEUE_CAPACITY = 600;

	static final Duration MAX_QUEUE_WAIT = Duration.ofMillis(100);

	private Scenarios() {
	}

	/**
	 * Return every scenario, in order.
	 * @return S1 to S12
	 */
	static List<Scenario> all() {
		return List.of(s1(), s2(), s3(), s4(), s5(), s6(), s7(), s8(), s9(), s10(), s11(), s12());
	}

	/**
	 * Return the scenario of the given name.
	 * @param id {@code S1} to {@code S12}, in any case
	 * @return the scenario
	 * @throws IllegalArgumentException for an unknown name
	 */
	static Scenario named(String id) {
		return all().stream()
			.filter((scenario) -> scenario.id().equalsIgnoreCase(id))
			.findFirst()
			.orElseThrow(
					() -> new IllegalArgumentException("Unknown scenario '" + id + "': expected one of S1 to S12"));
	}

	static Scenario s1() {
		DoubleUnaryOperator load = constant(1200);
		return onePool("S1", "2 ms CPU per task at 1200/s, 1.2 x what 2 cores serve", 1, CPU_BOUND, load, 2, 20,
				sweep(new int[] { 1, 2, 3, 4, 6, 8 }, load));
	}

	static Scenario s2() {
		DoubleUnaryOperator load = constant(300);
		return onePool("S2", "2 ms CPU + 18 ms blocking per task at 300/s", 2, BLOCKING, load, 2, 20,
				sweep(new int[] { 6, 8, 10, 12, 16, 24 }, load));
	}

	static Scenario s3() {
		DoubleUnaryOperator load = constant(600);
		return onePool("S3", "20 ms calls through a downstream admitting 8, offered 600/s (1.5 x its 400/s)", 3,
				DOWNSTREAM, load, 4, 30, sweep(new int[] { 4, 6, 8, 10, 12, 16 }, load));
	}

	static Scenario s4() {
		DoubleUnaryOperator load = (second) -> (second < 15) ? 100 : (second < 35) ? 600 : 100;
		PoolSpec pool = new PoolSpec("pool", BLOCKING, load, BOUNDS, 2, 1, QUEUE_CAPACITY);
		List<Phase> steps = List.of(new Phase("100/s", new Window(0, 15), List.of("pool")),
				new Phase("600/s", new Window(15, 35), List.of("pool")),
				new Phase("100/s again", new Window(35, 50), List.of("pool")));
		return new Scenario("S4", "S2's tasks with the load stepping 100 -> 600 -> 100/s (15 s, 20 s, 15 s)", 4,
				List.of(pool), 50, new Window(5, 50), List.of(new Window(15, 35), new Window(35, 50)),
				List.of(new Window(20, 35), new Window(40, 50)), steps,
				sweep(new int[] { 12, 14, 16, 20, 24, 32 }, constant(600)), null, null);
	}

	static Scenario s5() {
		PoolBounds bounds = new PoolBounds(1, 60);
		PoolSpec a = new PoolSpec("a", CALL, (second) -> (second < 30) ? 1800 : 0, bounds, 10, 6, QUEUE_CAPACITY);
		PoolSpec b = new PoolSpec("b", CALL,
				(second) -> (second >= 15 && second < 30) ? 300 : (second >= 30 && second < 40) ? 900 : 0, bounds, 1, 1,
				QUEUE_CAPACITY);
		PoolSpec c = new PoolSpec("c", CALL, (second) -> (second >= 15 && second < 30) ? 300 : 0, bounds, 1, 1,
				QUEUE_CAPACITY);
		List<Phase> phases = List.of(new Phase("A alone", new Window(0, 15), List.of("a")),
				new Phase("all busy", new Window(15, 30), List.of("a", "b", "c")),
				new Phase("B burst", new Window(30, 40), List.of("b")),
				new Phase("idle", new Window(40, 60), List.of()));
		return new Scenario("S5",
				"3 pools sharing 40 threads, weights 6/1/1: A alone at 1800/s, all busy (B, C at 300/s), B burst at 900/s, idle",
				5, List.of(a, b, c), 60, new Window(5, 40), List.of(), List.of(new Window(0, 60)), phases, null,
				new int[] { 30, 5, 5 }, 40);
	}

	static Scenario s6() {
		DoubleUnaryOperator load = (second) -> (((int) second / 4) % 2 == 0) ? 420 : 0;
		return new Scenario("S6", "S2 at 70 % load: lognormal times (sigma 1), 4 s at 420/s then 4 s idle", 6,
				List.of(new PoolSpec("pool", LOGNORMAL, load, BOUNDS, 2, 1, QUEUE_CAPACITY)), 56, new Window(16, 56),
				List.of(new Window(0, 56)), List.of(new Window(16, 56)), List.of(),
				new SweepPlan(new int[] { 8, 10, 12, 16, 24, 32 }, 8, new Window(0, 8), load), null, null);
	}

	/**
	 * S7: S4's load step with a max-queue-wait of 100 ms, beside S4's pool with
	 * queue-length rejection alone (issue: admission by expected wait).
	 */
	static Scenario s7() {
		Scenario s4 = s4();
		return new Scenario("S7",
				"S4 with a max-queue-wait of 100 ms, beside queue-length rejection alone (15 s at 100/s, 20 s at 600/s, 15 s at 100/s)",
				s4.seed(), s4.pools(), s4.seconds(), s4.measured(), s4.settleWindows(), s4.steadyWindows(), s4.phases(),
				null, null, null, MAX_QUEUE_WAIT);
	}

	/**
	 * S8: the pool starts at 50 threads in front of a downstream that admits 8 calls of
	 * 50 ms, offered 1.5 × what it serves: it must find the knee from above.
	 */
	static Scenario s8() {
		DoubleUnaryOperator load = constant(240);
		PoolSpec pool = new PoolSpec("pool", SLOW_DOWNSTREAM, load, BOUNDS, 50, 1, QUEUE_CAPACITY);
		return new Scenario("S8",
				"50 ms calls through a downstream admitting 8, offered 240/s (1.5 x its 160/s), starting at 50 threads",
				8, List.of(pool), 50, new Window(5, 50), List.of(new Window(0, 50)), List.of(new Window(30, 50)),
				List.of(), sweep(new int[] { 4, 6, 8, 10, 12, 16 }, load), null, null);
	}

	/**
	 * S9: a tenfold load step, 50 → 500 → 50/s, on blocking work that barely uses the
	 * CPU.
	 */
	static Scenario s9() {
		DoubleUnaryOperator load = (second) -> (second < 15) ? 50 : (second < 35) ? 500 : 50;
		PoolSpec pool = new PoolSpec("pool", CPU_LIGHT, load, BOUNDS, 2, 1, QUEUE_CAPACITY);
		List<Phase> steps = List.of(new Phase("50/s", new Window(0, 15), List.of("pool")),
				new Phase("500/s", new Window(15, 35), List.of("pool")),
				new Phase("50/s again", new Window(35, 50), List.of("pool")));
		return new Scenario("S9",
				"0.5 ms CPU + 19.5 ms blocking per task with the load stepping 50 -> 500 -> 50/s (15 s, 20 s, 15 s)", 9,
				List.of(pool), 50, new Window(5, 50), List.of(new Window(15, 35), new Window(35, 50)),
				List.of(new Window(20, 35), new Window(40, 50)), steps,
				sweep(new int[] { 12, 14, 16, 20, 24, 32 }, constant(500)), null, null);
	}

	/**
	 * S10: a pool of 1 to 300 threads, idle for 5 s, then offered a third more than the
	 * downstream in front of it serves (5 calls of 50 ms at once): its surge must not
	 * feed on its own growth, and it must not refuse more than a pool fixed at 300.
	 */
	static Scenario s10() {
		DoubleUnaryOperator load = (second) -> (second < 5) ? 0 : 133;
		PoolSpec pool = new PoolSpec("pool", NARROW_DOWNSTREAM, load, new PoolBounds(1, 300), 1, 1, 100);
		return new Scenario("S10",
				"50 ms calls through a downstream admitting 5, 1..300 threads, idle 5 s then offered 133/s (1.33 x its 100/s)",
				10, List.of(pool), 50, new Window(5, 50), List.of(new Window(5, 50)), List.of(new Window(30, 50)),
				List.of(), sweep(new int[] { 3, 4, 5, 6, 8, 12 }, constant(133)), null, null);
	}

	/**
	 * S11: a web server's pool of 2 to 8 threads and a queue of 16, starting at 2,
	 * offered mixed work at about 45 % of what 8 threads serve, in bursts: 2.5 times the
	 * mean rate for 60 ms of every 200 ms.
	 */
	static Scenario s11() {
		DoubleUnaryOperator load = (second) -> ((second * 1000) % 200 < 60) ? 750 : 107;
		PoolSpec pool = new PoolSpec("pool", WEB_MIX, load, new PoolBounds(2, 8), 2, 1, 16);
		return new Scenario("S11",
				"a web server's mixed work (1 task in 5 eight times longer), 2..8 threads, queue 16, 300/s in bursts of 750/s",
				11, List.of(pool), 50, new Window(5, 50), List.of(new Window(0, 50)), List.of(new Window(10, 50)),
				List.of(), sweep(new int[] { 2, 3, 4, 6, 8 }, load), null, null);
	}

	/**
	 * S12: the sample's knee run on real threads: S8's downstream (8 calls of 50 ms,
	 * 160/s) behind a pool of 5 to 300 threads with a queue of 100, starting at 50 on an
	 * idle application, offered 240/s from the second second. No window measures an
	 * uncongested service time before the pool is far above the knee: it must come down
	 * while it refuses.
	 */
	static Scenario s12() {
		DoubleUnaryOperator load = (second) -> (second < 1) ? 0 : 240;
		PoolSpec pool = new PoolSpec("pool", SLOW_DOWNSTREAM, load, new PoolBounds(5, 300), 50, 1, 100);
		return new Scenario("S12",
				"50 ms calls through a downstream admitting 8, 5..300 threads from 50, idle 1 s then offered 240/s (1.5 x its 160/s)",
				12, List.of(pool), 50, new Window(5, 50), List.of(new Window(1, 50)), List.of(new Window(30, 50)),
				List.of(), sweep(new int[] { 4, 6, 8, 10, 12, 16 }, constant(240)), null, null);
	}

	private static Scenario onePool(String id, String title, long seed, Workload workload, DoubleUnaryOperator load,
			int startSize, int seconds, SweepPlan sweep) {
		PoolSpec pool = new PoolSpec("pool", workload, load, BOUNDS, startSize, 1, QUEUE_CAPACITY);
		return new Scenario(id, title, seed, List.of(pool), seconds, new Window(5, seconds),
				List.of(new Window(0, seconds)), List.of(new Window(5, seconds)), List.of(), sweep, null, null);
	}

	private static SweepPlan sweep(int[] sizes, DoubleUnaryOperator load) {
		return new SweepPlan(sizes, 4, new Window(1, 4), load);
	}

	private static DoubleUnaryOperator constant(double rate) {
		return (second) -> rate;
	}

	static String describe(Scenario scenario) {
		return String.format(Locale.ROOT, "%s: %s; %d s per strategy, measured %s", scenario.id(), scenario.title(),
				scenario.seconds(), scenario.measured());
	}

}
