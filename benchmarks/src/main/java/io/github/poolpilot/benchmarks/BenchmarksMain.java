package io.github.poolpilot.benchmarks;

import java.util.Arrays;

import io.github.poolpilot.benchmarks.ab.AbRun;
import io.github.poolpilot.benchmarks.cluster.ClusterRun;
import io.github.poolpilot.benchmarks.scenarios.ScenarioRunner;

/**
 * The benchmark jar's entry point: {@code scenarios [S1 ... S6] [options]} runs the
 * real-thread tuning scenarios, {@code ab [options]} the A/B harness of the executor
 * overhead ({@link AbRun}), {@code paths PATH TASKS} one path of a managed pool for an
 * instruction counter ({@link PathCost}), {@code cluster-run [options]} the documented
 * run of a limit shared through Redis ({@link ClusterRun}), anything else goes to JMH as
 * it would without this class.
 *
 * @author poolpilot authors
 */
public final class BenchmarksMain {

	private BenchmarksMain() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length > 0 && args[0].equals("scenarios")) {
			System.exit(ScenarioRunner.run(Arrays.copyOfRange(args, 1, args.length)));
		}
		if (args.length > 0 && args[0].equals("ab")) {
			System.exit(AbRun.run(Arrays.copyOfRange(args, 1, args.length)));
		}
		if (args.length > 0 && args[0].equals("paths")) {
			System.exit(PathCost.run(Arrays.copyOfRange(args, 1, args.length)));
		}
		if (args.length > 0 && args[0].equals("cluster-run")) {
			ClusterRun.main(Arrays.copyOfRange(args, 1, args.length));
		}
		org.openjdk.jmh.Main.main(args);
	}

}
