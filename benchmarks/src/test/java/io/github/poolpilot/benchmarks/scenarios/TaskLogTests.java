package io.github.poolpilot.benchmarks.scenarios;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.benchmarks.scenarios.TaskLog.PerSecond;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Tests for {@link TaskLog}, on hand-made task times.
 *
 * @author poolpilot authors
 */
class TaskLogTests {

	private static final long MS = 1_000_000L;

	private static final long S = Runs.SECOND;

	@Test
	void latencyRunsFromTheIntendedStartNotFromTheSubmit() {
		TaskLog log = log(new long[] { 100 * MS });
		log.accepting(0);
		// However late it was handed to the pool, the task is measured from 100 ms.
		log.ended(0, 350 * MS, true);
		log.close(2 * S);
		assertThat(log.latencyNanos(0)).isEqualTo(250 * MS);
	}

	@Test
	void throughputCountsTheTasksCompletedInTheWindow() {
		TaskLog log = log(new long[] { 0, 100 * MS, 900 * MS, 1500 * MS, 2500 * MS });
		for (int task = 0; task < 5; task++) {
			log.accepting(task);
		}
		log.ended(0, 500 * MS, true);
		log.ended(1, 1200 * MS, true);
		log.ended(2, 1900 * MS, true);
		log.ended(3, 1999 * MS, false);
		log.ended(4, 2600 * MS, true);
		log.close(3 * S);
		// [1, 3): tasks 1, 2 and 4 completed; 3 was interrupted.
		assertThat(log.throughput(-1, new Window(1, 3))).isCloseTo(1.5, within(1e-9));
		assertThat(log.neverCompleted()).isEqualTo(1);
	}

	@Test
	void p99LeavesRejectedTasksOutAndCountsUnfinishedOnesToTheEndOfTheRun() {
		long[] intended = new long[200];
		for (int task = 0; task < intended.length; task++) {
			intended[task] = task * 5 * MS;
		}
		TaskLog log = log(intended);
		for (int task = 0; task < 200; task++) {
			if (task < 10) {
				log.accepting(task);
				log.rejected(task);
			}
			else if (task < 197) {
				log.accepting(task);
				log.ended(task, intended[task] + 10 * MS, true);
			}
			else {
				log.accepting(task);
			}
		}
		log.close(5 * S);
		// 190 accepted: 187 at 10 ms, 3 never ended, counted up to 5 s (at least 4 s).
		assertThat(log.p99Ms(-1, new Window(0, 1))).isGreaterThan(3900);
		assertThat(log.rejected(-1, new Window(0, 1))).isEqualTo(10);
		assertThat(log.offered(-1, new Window(0, 1))).isEqualTo(200);
	}

	@Test
	void p99IsTakenOverTheTasksMeantToArriveInTheWindow() {
		long[] intended = new long[100];
		for (int task = 0; task < 100; task++) {
			intended[task] = task * 10 * MS;
		}
		TaskLog log = log(intended);
		for (int task = 0; task < 100; task++) {
			log.accepting(task);
			log.ended(task, intended[task] + (task + 1) * MS, true);
		}
		log.close(2 * S);
		// Latencies 1 to 100 ms: p99 is 99 ms.
		assertThat(log.p99Ms(-1, new Window(0, 1))).isCloseTo(99, within(0.1));
	}

	@Test
	void perSecondFiguresGoByArrivalForOffersAndByEndForCompletions() {
		TaskLog log = log(new long[] { 100 * MS, 200 * MS, 1100 * MS });
		log.accepting(0);
		log.ended(0, 1300 * MS, true);
		log.accepting(1);
		log.rejected(1);
		log.accepting(2);
		log.ended(2, 1200 * MS, true);
		log.close(2 * S);
		PerSecond perSecond = log.perSecond(-1, 2);
		assertThat(perSecond.offered()).containsExactly(2, 1);
		assertThat(perSecond.rejected()).containsExactly(1, 0);
		assertThat(perSecond.completed()).containsExactly(0, 2);
		assertThat(perSecond.p99Ms()[0]).isNaN();
		assertThat(perSecond.p99Ms()[1]).isCloseTo(1200, within(2.0));
	}

	@Test
	void figuresOfOnePoolLeaveTheOthersOut() {
		Schedule schedule = new Schedule(new int[] { 0, 1, 1 }, new long[] { 0, 10 * MS, 20 * MS }, new long[3],
				new long[3]);
		TaskLog log = new TaskLog(schedule);
		for (int task = 0; task < 3; task++) {
			log.accepting(task);
			log.ended(task, 500 * MS, true);
		}
		log.close(S);
		assertThat(log.throughput(1, new Window(0, 1))).isEqualTo(2);
		assertThat(log.throughput(0, new Window(0, 1))).isEqualTo(1);
		assertThat(log.throughput(-1, new Window(0, 1))).isEqualTo(3);
	}

	@Test
	void unservedCountsRefusedTasksAndTasksNotCompletedByTheDeadline() {
		TaskLog log = log(new long[] { 0, 100 * MS, 200 * MS, 300 * MS, 400 * MS, 2500 * MS });
		log.accepting(0);
		log.ended(0, 900 * MS, true);
		log.accepting(1);
		log.rejected(1);
		log.accepting(2);
		log.ended(2, 1100 * MS, true);
		log.accepting(3);
		log.ended(3, 1000 * MS, false);
		log.accepting(4);
		log.accepting(5);
		log.ended(5, 2600 * MS, true);
		log.close(3 * S);
		// Served by 1 s: task 0 only. Refused: 1. Late: 2. Interrupted: 3. Never ended:
		// 4.
		// Task 5 was meant to arrive outside the window.
		assertThat(log.unserved(-1, new Window(0, 2), S)).isEqualTo(4);
		assertThat(log.unserved(-1, new Window(0, 2), 2 * S)).isEqualTo(3);
		assertThat(log.unserved(-1, new Window(2, 3), 2 * S)).isEqualTo(1);
		assertThat(log.unserved(-1, new Window(2, 3), 3 * S)).isZero();
	}

	private static TaskLog log(long[] intended) {
		return new TaskLog(
				new Schedule(new int[intended.length], intended, new long[intended.length], new long[intended.length]));
	}

}
