package io.github.poolpilot.tuning;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.measure.ScheduledRuns;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.ManagedPool.SizeControl;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolExecutor;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.testsupport.FakeClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A scheduler sized by the real tuner from its runs' lateness, on virtual time: one
 * thread, as Spring Boot's scheduler has by default, a slow job that runs 3 s every 10 s
 * and five quick jobs every 200 ms. The scheduler is played as a
 * {@code ScheduledThreadPoolExecutor} plays it (the run due first takes the first free
 * thread; a fixed-rate task's next run is due a period after the last was due), the runs
 * are measured through the pool's real recorder, and every second the window closes and
 * the tuner decides, with its fast path between windows.
 *
 * @author poolpilot authors
 */
class SchedulerLatenessScenarioTests {

	private static final long MS = 1_000_000;

	@Test
	void aSlowJobNoLongerDelaysTheOthersOnceThePoolGrew() {
		Scenario scenario = new Scenario(0.3, 0);
		scenario.run(20_000);
		assertThat(scenario.quickLatenessMaxMs(0, 20_000)).as("quick jobs wait for the slow one at first")
			.isGreaterThan(2_000);
		scenario.run(600_000);
		assertThat(scenario.pool.maxPoolSize()).isEqualTo(2);
		assertThat(scenario.quickLatenessMaxMs(60_000, 600_000)).as("quick jobs on time once the pool grew")
			.isLessThan(5);
		assertThat(scenario.tuner.state("taskScheduler").getLastDecision()).isNotNull();
	}

	@Test
	void runsLateBecauseEveryThreadIsBusyButTheCpuIsTheLimitDoNotGrowThePool() {
		Scenario scenario = new Scenario(0.97, 0);
		scenario.run(120_000);
		assertThat(scenario.pool.maxPoolSize()).isEqualTo(1);
		assertThat(scenario.quickLatenessMaxMs(60_000, 120_000)).isGreaterThan(2_000);
	}

	@Test
	void runsLateForACpuWhileAThreadIsFreeDoNotGrowThePool() {
		// Four threads, more than the jobs ever need at once; every run waits 40 ms for a
		// CPU before it starts.
		Scenario scenario = new Scenario(0.97, 40, 4);
		scenario.run(120_000);
		assertThat(scenario.runs.overruns()).isZero();
		assertThat(scenario.quickLatenessMaxMs(60_000, 120_000)).isGreaterThanOrEqualTo(40);
		assertThat(scenario.pool.maxPoolSize()).isEqualTo(4);
	}

	/**
	 * One scheduler, its jobs and the tuner on virtual time, a millisecond a step.
	 */
	private static final class Scenario implements PoolExecutor, SizeControl {

		final FakeClock clock = new FakeClock();

		final PoolRecorder recorder = PoolRecorder.builder()
			.clock(this.clock)
			.cpuSampleEvery(0)
			.scheduledRuns()
			.build();

		final ScheduledRuns runs = this.recorder.scheduledRuns();

		final ManagedPool pool;

		final Tuner tuner;

		final List<Job> jobs = new ArrayList<>();

		/**
		 * Each quick run's start and lateness, in milliseconds.
		 */
		final List<long[]> quickRuns = new ArrayList<>();

		final long cpuDelayMs;

		int threads;

		long now;

		Scenario(double cpuLoad, long cpuDelayMs) {
			this(cpuLoad, cpuDelayMs, 1);
		}

		Scenario(double cpuLoad, long cpuDelayMs, int threads) {
			this.cpuDelayMs = cpuDelayMs;
			this.threads = threads;
			this.pool = new ManagedPool("taskScheduler", this, this, this.recorder, new PoolBounds(threads, 8));
			PoolRegistry registry = new PoolRegistry(10);
			registry.register(this.pool);
			this.tuner = new Tuner(registry, this.clock, () -> cpuLoad, (pool, decision) -> {
			});
			this.jobs.add(new Job(false, 10_000, 3_000, 500));
			for (int i = 0; i < 5; i++) {
				this.jobs.add(new Job(true, 200, 2, 7 * i));
			}
		}

		void run(long untilMs) {
			while (this.now < untilMs) {
				this.now++;
				this.clock.advanceMillis(1);
				finishRuns();
				startRuns();
				if (this.now % 1000 == 0) {
					this.pool.takeSnapshot();
					this.tuner.tick();
				}
				else if (this.now % 100 == 0) {
					this.tuner.pulse();
				}
			}
		}

		private void finishRuns() {
			for (Job job : this.jobs) {
				if (job.running && job.endsAt <= this.now) {
					job.running = false;
					this.recorder.timedTaskFinished(job.dueAt * MS, job.startedAt * MS, -1, false);
					this.runs.ended(this.now * MS);
					job.dueAt += job.periodMs;
					if (this.now > job.dueAt) {
						this.runs.overran();
					}
				}
			}
		}

		private void startRuns() {
			List<Job> due = new ArrayList<>();
			for (Job job : this.jobs) {
				if (!job.running && job.dueAt + this.cpuDelayMs <= this.now) {
					due.add(job);
				}
			}
			due.sort(Comparator.comparingLong((Job job) -> job.dueAt));
			for (Job job : due) {
				if (getActiveCount() >= this.threads) {
					return;
				}
				job.running = true;
				job.startedAt = this.now;
				job.endsAt = this.now + job.runMs;
				this.recorder.taskSubmitted();
				this.runs.started(job.dueAt * MS, this.now * MS, this.threads);
				if (job.quick) {
					this.quickRuns.add(new long[] { this.now, this.now - job.dueAt });
				}
			}
		}

		long quickLatenessMaxMs(long fromMs, long toMs) {
			return this.quickRuns.stream()
				.filter((run) -> run[0] >= fromMs && run[0] < toMs)
				.mapToLong((run) -> run[1])
				.max()
				.orElse(0);
		}

		@Override
		public int getCorePoolSize() {
			return this.threads;
		}

		@Override
		public int getMaximumPoolSize() {
			return this.threads;
		}

		@Override
		public int getPoolSize() {
			return this.threads;
		}

		@Override
		public int getActiveCount() {
			return (int) this.jobs.stream().filter((job) -> job.running).count();
		}

		@Override
		public int getQueueSize() {
			return (int) this.jobs.stream().filter((job) -> !job.running && job.dueAt <= this.now).count();
		}

		@Override
		public int getQueueCapacity() {
			return Integer.MAX_VALUE;
		}

		@Override
		public boolean isShutdown() {
			return false;
		}

		@Override
		public void setCorePoolSize(int corePoolSize) {
		}

		@Override
		public void setMaximumPoolSize(int maxPoolSize) {
			this.threads = maxPoolSize;
		}

	}

	private static final class Job {

		final boolean quick;

		final long periodMs;

		final long runMs;

		long dueAt;

		boolean running;

		long startedAt;

		long endsAt;

		Job(boolean quick, long periodMs, long runMs, long firstAtMs) {
			this.quick = quick;
			this.periodMs = periodMs;
			this.runMs = runMs;
			this.dueAt = firstAtMs;
		}

	}

}
