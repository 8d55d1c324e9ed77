package io.github.poolpilot.benchmarks.scenarios;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.pool.PoolBounds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Tests for {@link Schedule}.
 *
 * @author poolpilot authors
 */
class ScheduleTests {

	@Test
	void theSameSeedGivesTheSameTasks() {
		Scenario scenario = Scenarios.s5();
		Schedule first = Schedule.generate(scenario.pools(), 20, 5);
		Schedule again = Schedule.generate(scenario.pools(), 20, 5);
		assertThat(again.size()).isEqualTo(first.size());
		for (int task = 0; task < first.size(); task++) {
			assertThat(again.pool(task)).isEqualTo(first.pool(task));
			assertThat(again.intendedNanos(task)).isEqualTo(first.intendedNanos(task));
			assertThat(again.cpuNanos(task)).isEqualTo(first.cpuNanos(task));
			assertThat(again.blockNanos(task)).isEqualTo(first.blockNanos(task));
		}
	}

	@Test
	void tasksComeInTheOrderOfTheirIntendedArrival() {
		Schedule schedule = Schedule.generate(Scenarios.s5().pools(), 40, 5);
		for (int task = 1; task < schedule.size(); task++) {
			assertThat(schedule.intendedNanos(task)).isGreaterThanOrEqualTo(schedule.intendedNanos(task - 1));
		}
	}

	@Test
	void arrivalsFollowEachPoolsRateAndStopWhereItIsZero() {
		// S5's pool B: nothing before 15 s, 300/s to 30 s, 900/s to 40 s, then nothing.
		Schedule schedule = Schedule.generate(Scenarios.s5().pools(), 60, 5);
		int[] perSecond = new int[60];
		for (int task = 0; task < schedule.size(); task++) {
			if (schedule.pool(task) == 1) {
				perSecond[(int) (schedule.intendedNanos(task) / Runs.SECOND)]++;
			}
		}
		assertThat(sum(perSecond, 0, 15)).isZero();
		assertThat(sum(perSecond, 15, 30) / 15.0).isCloseTo(300, within(15.0));
		assertThat(sum(perSecond, 30, 40) / 10.0).isCloseTo(900, within(45.0));
		assertThat(sum(perSecond, 41, 60)).isZero();
	}

	@Test
	void eachTaskTakesItsWorkloadsTimes() {
		PoolSpec exact = new PoolSpec("exact", new Workload(2, 18, 0, 0), (second) -> 100, new PoolBounds(1, 8), 1, 1,
				10);
		Schedule schedule = Schedule.generate(List.of(exact), 2, 1);
		for (int task = 0; task < schedule.size(); task++) {
			assertThat(schedule.cpuNanos(task)).isEqualTo(2_000_000L);
			assertThat(schedule.blockNanos(task)).isEqualTo(18_000_000L);
		}
	}

	@Test
	void aMixedWorkloadMakesItsShareOfTasksHeavyAndLeavesOneKindOfTaskAsItWas() {
		PoolSpec mixed = new PoolSpec("mixed", new Workload(1, 4, 0, 0, 0.2, 8), (second) -> 1000, new PoolBounds(1, 8),
				1, 1, 10);
		Schedule schedule = Schedule.generate(List.of(mixed), 10, 3);
		int heavy = 0;
		for (int task = 0; task < schedule.size(); task++) {
			long block = schedule.blockNanos(task);
			assertThat(block).isIn(4_000_000L, 32_000_000L);
			assertThat(schedule.cpuNanos(task)).isEqualTo(block / 4);
			heavy += (block == 32_000_000L) ? 1 : 0;
		}
		assertThat((double) heavy / schedule.size()).isCloseTo(0.2, within(0.02));
		PoolSpec single = new PoolSpec("single", new Workload(1, 4, 0.5, 0), (second) -> 1000, new PoolBounds(1, 8), 1,
				1, 10);
		PoolSpec singleSpelledOut = new PoolSpec("single", new Workload(1, 4, 0.5, 0, 0, 1), (second) -> 1000,
				new PoolBounds(1, 8), 1, 1, 10);
		Schedule one = Schedule.generate(List.of(single), 2, 3);
		Schedule same = Schedule.generate(List.of(singleSpelledOut), 2, 3);
		assertThat(same.size()).isEqualTo(one.size());
		for (int task = 0; task < one.size(); task++) {
			assertThat(same.blockNanos(task)).isEqualTo(one.blockNanos(task));
		}
	}

	private static int sum(int[] values, int from, int to) {
		int sum = 0;
		for (int i = from; i < to; i++) {
			sum += values[i];
		}
		return sum;
	}

}
