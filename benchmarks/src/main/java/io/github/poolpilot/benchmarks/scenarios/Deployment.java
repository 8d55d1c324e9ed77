package io.github.poolpilot.benchmarks.scenarios;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.pool.PoolSampler;

/**
 * The pools of one strategy for one run, with the sampler (and tuner) that closes their
 * measurement windows.
 *
 * @author poolpilot authors
 */
final class Deployment implements AutoCloseable {

	private final List<Target> targets;

	private final List<ExecutorService> executors;

	private final List<TuningRecord> tuning = Collections.synchronizedList(new ArrayList<>());

	private @Nullable PoolSampler sampler;

	private volatile long startNanos;

	Deployment(List<Target> targets, List<ExecutorService> executors) {
		this.targets = targets;
		this.executors = executors;
	}

	void sampler(PoolSampler sampler) {
		this.sampler = sampler;
	}

	List<Target> targets() {
		return this.targets;
	}

	/**
	 * Start the windows (and the tuner) with the run.
	 * @param startNanos when the run started, by {@link System#nanoTime()}
	 */
	void start(long startNanos) {
		this.startNanos = startNanos;
		if (this.sampler != null) {
			this.sampler.start();
		}
	}

	/**
	 * Return the seconds since the run started.
	 */
	double second() {
		return (System.nanoTime() - this.startNanos) / (double) Runs.SECOND;
	}

	void record(TuningRecord record) {
		this.tuning.add(record);
	}

	List<TuningRecord> tuning() {
		synchronized (this.tuning) {
			return List.copyOf(this.tuning);
		}
	}

	/**
	 * Stop the tuner, then stop every pool, interrupting the tasks still running and
	 * dropping the queued ones.
	 * @return whether every pool terminated within 10 s
	 */
	boolean stop() {
		if (this.sampler != null) {
			this.sampler.close();
		}
		this.executors.forEach(ExecutorService::shutdownNow);
		boolean terminated = true;
		for (ExecutorService executor : this.executors) {
			try {
				terminated &= executor.awaitTermination(10, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		}
		return terminated;
	}

	@Override
	public void close() {
		stop();
	}

}
