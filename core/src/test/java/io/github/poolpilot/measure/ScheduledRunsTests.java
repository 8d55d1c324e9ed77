package io.github.poolpilot.measure;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.github.poolpilot.measure.PoolSnapshot.Latency;
import io.github.poolpilot.measure.PoolSnapshot.Lateness;
import io.github.poolpilot.testsupport.Draw;
import io.github.poolpilot.testsupport.Seeds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Tests for {@link ScheduledRuns}.
 *
 * @author poolpilot authors
 */
class ScheduledRunsTests {

	private static final long MS = 1_000_000;

	private final ScheduledRuns runs = new ScheduledRuns();

	@Test
	void aRunLateWhileEveryThreadWasBusyCountsItsLatenessAsBusy() {
		this.runs.started(0, 0, 1);
		this.runs.ended(100 * MS);
		this.runs.started(10 * MS, 100 * MS, 1);
		this.runs.ended(110 * MS);
		Lateness lateness = this.runs.close(Latency.NONE);
		assertThat(lateness.runs()).isEqualTo(2);
		assertThat(lateness.busyLateRuns()).isEqualTo(1);
		assertThat(lateness.maxBusyLatenessMs()).isEqualTo(90.0);
		assertThat(lateness.meanBusyLatenessMs()).isEqualTo(45.0);
	}

	@Test
	void aRunLateWhileAThreadWasFreeWaitedForACpuNotForAThread() {
		this.runs.started(0, 0, 2);
		this.runs.started(10 * MS, 50 * MS, 2);
		this.runs.ended(60 * MS);
		this.runs.ended(100 * MS);
		Lateness lateness = this.runs.close(Latency.NONE);
		assertThat(lateness.runs()).isEqualTo(2);
		assertThat(lateness.busyLateRuns()).isZero();
		assertThat(lateness.maxBusyLatenessMs()).isZero();
	}

	@Test
	void onlyTheLatenessSpentWhileEveryThreadWasBusyCounts() {
		// Due at 10, every thread busy from 40 to 70, started at 90: 30 ms waited for a
		// thread, the rest for a CPU.
		this.runs.started(0, 0, 2);
		this.runs.started(0, 40 * MS, 2);
		this.runs.ended(70 * MS);
		this.runs.started(10 * MS, 90 * MS, 2);
		Lateness lateness = this.runs.close(Latency.NONE);
		assertThat(lateness.maxBusyLatenessMs()).isEqualTo(30.0);
	}

	@Test
	void overrunsAndSkippedRunsAreCumulativeAndTheWindowStartsAgain() {
		this.runs.started(0, 0, 1);
		this.runs.ended(100 * MS);
		this.runs.started(10 * MS, 100 * MS, 1);
		this.runs.overran();
		this.runs.skipped(3);
		this.runs.skipped(0);
		Lateness first = this.runs.close(new Latency(45, 40, 80, 89, 90, 2));
		assertThat(first.meanMs()).isEqualTo(45.0);
		assertThat(first.p99Ms()).isEqualTo(89.0);
		assertThat(first.overruns()).isEqualTo(1);
		assertThat(first.skipped()).isEqualTo(3);
		Lateness second = this.runs.close(Latency.NONE);
		assertThat(second.runs()).isZero();
		assertThat(second.busyLateRuns()).isZero();
		assertThat(second.overruns()).isEqualTo(1);
		assertThat(second.skipped()).isEqualTo(3);
	}

	static LongStream seeds() {
		return Seeds.first(300);
	}

	/**
	 * Drawn runs of a drawn pool, played as a scheduled executor plays them (the run due
	 * first starts on the first free thread, a free thread taking it at its due time):
	 * without a CPU to wait for, every bit of every run's lateness was spent while every
	 * thread was busy, and none when runs never outnumber the threads.
	 */
	@ParameterizedTest
	@MethodSource("seeds")
	void withoutACpuToWaitForEveryLateStartWaitedForAThread(long seed) {
		Seeds.check(seed, "./mvnw -pl core test -Dtest=ScheduledRunsTests", () -> {
			Draw draw = new Draw(seed);
			int threads = draw.between(1, 4);
			List<long[]> plan = new ArrayList<>();
			long due = 0;
			int count = draw.between(1, 60);
			for (int i = 0; i < count; i++) {
				due += draw.between(0, 50) * MS;
				plan.add(new long[] { due, draw.between(1, 120) * MS });
			}
			ScheduledRuns runs = new ScheduledRuns();
			PriorityQueue<Long> ends = new PriorityQueue<>();
			long totalLateNanos = 0;
			int mostAtOnce = 0;
			List<long[]> events = new ArrayList<>();
			for (long[] run : plan) {
				long start = run[0];
				if (ends.size() == threads) {
					start = Math.max(start, ends.poll());
				}
				events.add(new long[] { run[0], start, start + run[1] });
				ends.add(start + run[1]);
				totalLateNanos += start - run[0];
			}
			// Replay in time order: ends before starts at the same instant, as a thread
			// takes its next run after its last ended.
			List<long[]> timeline = new ArrayList<>();
			for (long[] event : events) {
				timeline.add(new long[] { event[1], 1, event[0] });
				timeline.add(new long[] { event[2], 0, 0 });
			}
			timeline.sort((a, b) -> (a[0] != b[0]) ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
			int running = 0;
			for (long[] event : timeline) {
				if (event[1] == 1) {
					runs.started(event[2], event[0], threads);
					running++;
					mostAtOnce = Math.max(mostAtOnce, running);
				}
				else {
					runs.ended(event[0]);
					running--;
				}
			}
			Lateness lateness = runs.close(Latency.NONE);
			assertThat(lateness.runs()).isEqualTo(count);
			assertThat(lateness.meanBusyLatenessMs() * count).isCloseTo(totalLateNanos / 1e6, within(1e-6));
			if (mostAtOnce < threads) {
				assertThat(lateness.busyLateRuns()).isZero();
			}
		});
	}

}
