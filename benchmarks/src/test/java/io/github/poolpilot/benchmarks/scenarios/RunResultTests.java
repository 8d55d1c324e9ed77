package io.github.poolpilot.benchmarks.scenarios;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.benchmarks.scenarios.RunResult.PoolSeries;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Tests for {@link RunResult}.
 *
 * @author poolpilot authors
 */
class RunResultTests {

	@Test
	void otherProcessesUseWhatTheMachineUsedLessWhatThisProcessUsed() {
		RunResult run = run(new double[] { 0.5, 0.5, 0.5, Double.NaN }, new double[] { 0.6, 0.9, 0.4, 1.0 });
		// 0.1, 0.4 and (never negative) 0; the unknown second is left out.
		assertThat(run.otherProcessesCpu(new Window(0, 4))).isCloseTo(0.5 / 3, within(1e-9));
		assertThat(run.otherProcessesCpu(new Window(1, 2))).isCloseTo(0.4, within(1e-9));
	}

	@Test
	void sizesAndLiveThreadsOfSeveralPoolsAddUp() {
		RunResult run = new RunResult("poolpilot", 3,
				new TaskLog(new Schedule(new int[0], new long[0], new long[0], new long[0])),
				List.of(new PoolSeries("a", new int[] { 10, 20, 30 }, new int[3], new int[3]),
						new PoolSeries("b", new int[] { 1, 5, 10 }, new int[3], new int[3])),
				new int[] { 11, 40, 25 }, new double[3], new double[3], List.of(), 3);
		assertThat(run.totalSize()).containsExactly(11, 25, 40);
		assertThat(run.maxLiveThreads()).isEqualTo(40);
		assertThat(run.meanLiveThreads(new Window(0, 3))).isCloseTo(76 / 3.0, within(1e-9));
		assertThat(run.meanLiveThreads(new Window(1, 5))).isCloseTo(32.5, within(1e-9));
	}

	private static RunResult run(double[] processCpu, double[] machineCpu) {
		int seconds = processCpu.length;
		return new RunResult("best-static", seconds,
				new TaskLog(new Schedule(new int[0], new long[0], new long[0], new long[0])),
				List.of(new PoolSeries("pool", new int[seconds], new int[seconds], new int[seconds])), new int[seconds],
				processCpu, machineCpu, List.of(), seconds);
	}

}
