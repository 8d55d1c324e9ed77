package io.github.poolpilot.actuate;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.actuate.ThreadPoolsDescriptor.BudgetDescriptor;
import io.github.poolpilot.actuate.ThreadPoolsDescriptor.ClusterDescriptor;
import io.github.poolpilot.actuate.ThreadPoolsDescriptor.InstanceDescriptor;
import io.github.poolpilot.actuate.ThreadPoolsDescriptor.LatenessDescriptor;
import io.github.poolpilot.actuate.ThreadPoolsDescriptor.LittlesLawDescriptor;
import io.github.poolpilot.actuate.ThreadPoolsDescriptor.LoanDescriptor;
import io.github.poolpilot.actuate.ThreadPoolsDescriptor.PoolDescriptor;
import io.github.poolpilot.actuate.ThreadPoolsDescriptor.RejectionsDescriptor;
import io.github.poolpilot.actuate.ThreadPoolsDescriptor.RestartsDescriptor;
import io.github.poolpilot.actuate.ThreadPoolsDescriptor.TuningDescriptor;
import io.github.poolpilot.budget.ThreadBudget;
import io.github.poolpilot.budget.ThreadBudget.Loan;
import io.github.poolpilot.cluster.ClusterStatus;
import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.measure.PoolSnapshot.Lateness;
import io.github.poolpilot.measure.PoolSnapshot.LittlesLaw;
import io.github.poolpilot.measure.PoolSnapshot.Rejections;
import io.github.poolpilot.measure.PoolSnapshot.Sizes;
import io.github.poolpilot.measure.PoolSnapshot.TaskCounts;
import io.github.poolpilot.measure.ScheduledRuns;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.Restarts;
import io.github.poolpilot.pool.Settling;
import io.github.poolpilot.tuning.Decision;
import io.github.poolpilot.tuning.TuningState;

/**
 * How the endpoint describes the budget and each pool: it reads the core's records (a
 * pool's sizes, counts and last snapshot, its tuner's state, its cluster's lease) into
 * the {@link ThreadPoolsDescriptor} types its JSON is made of.
 *
 * @author poolpilot authors
 */
final class PoolDescriptions {

	private PoolDescriptions() {
	}

	static BudgetDescriptor budget(ThreadBudget budget) {
		return new BudgetDescriptor(budget.maxThreads(), budget.allocatedThreads(), budget.liveThreads(),
				budget.lendableThreads());
	}

	static PoolDescriptor pool(ManagedPool pool, TuningState tuning, @Nullable ClusterStatus cluster) {
		return pool(pool, tuning, cluster, List.of());
	}

	static PoolDescriptor pool(ManagedPool pool, TuningState tuning, @Nullable ClusterStatus cluster,
			List<Loan> loans) {
		Sizes sizes = pool.sizes();
		TaskCounts counts = pool.getRecorder().taskCounts();
		PoolSnapshot snapshot = pool.lastSnapshot();
		Decision decision = tuning.getLastDecision();
		return new PoolDescriptor(sizes.corePoolSize(), sizes.maxPoolSize(), sizes.poolSize(), sizes.activeCount(),
				sizes.queueSize(), sizes.queueCapacity(), counts.submitted(), counts.completed(), counts.failed(),
				counts.rejected(), rejections(counts.rejections()), counts.abandoned(), counts.timedOut(),
				sizes.minThreads(), sizes.maxThreads(), pool.getWeight(),
				new TuningDescriptor(tuning.getMode().value(), sizes.maxPoolSize(),
						(decision != null) ? decision.reason() : null, tuning.isLimited()),
				(snapshot != null) ? littlesLaw(snapshot) : null, (cluster != null) ? cluster(cluster) : null,
				pool.getBudget().lendableThreads(pool), loans(loans), lateness(pool), restarts(pool),
				pool.getExecutor().isQueueAtBroker() ? "broker" : null);
	}

	static List<LoanDescriptor> loans(List<Loan> loans) {
		return loans.stream().map((loan) -> new LoanDescriptor(loan.lender(), loan.from(), loan.to())).toList();
	}

	static @Nullable RestartsDescriptor restarts(ManagedPool pool) {
		Restarts restarts = pool.getExecutor().restarts();
		if (restarts == null) {
			return null;
		}
		Duration cost = restarts.lastCost();
		Settling settling = restarts.settling();
		return new RestartsDescriptor(restarts.count(), (cost != null) ? cost.toMillis() : -1,
				(settling != null) ? settling.remaining().toMillis() : 0, restarts.failure());
	}

	static @Nullable LatenessDescriptor lateness(ManagedPool pool) {
		ScheduledRuns runs = pool.getRecorder().scheduledRuns();
		if (runs == null) {
			return null;
		}
		PoolSnapshot snapshot = pool.lastSnapshot();
		Lateness lateness = (snapshot != null) ? snapshot.lateness() : null;
		if (lateness == null) {
			return new LatenessDescriptor(0, 0, 0, 0, 0, 0, runs.overruns(), runs.skipped());
		}
		return new LatenessDescriptor(lateness.meanMs(), lateness.p99Ms(), lateness.maxMs(), lateness.runs(),
				lateness.busyLateRuns(), lateness.meanBusyLatenessMs(), runs.overruns(), runs.skipped());
	}

	static ClusterDescriptor cluster(ClusterStatus status) {
		return new ClusterDescriptor(status.limit(), status.lease(), status.leaseAgeMs(), status.state().value(),
				status.fallback(),
				status.instances()
					.stream()
					.map((instance) -> new InstanceDescriptor(instance.id(), instance.demand(), instance.lease(),
							instance.self()))
					.toList());
	}

	static RejectionsDescriptor rejections(Rejections rejections) {
		return new RejectionsDescriptor(rejections.queueFull(), rejections.queueWait(), rejections.circuitOpen(),
				rejections.shutdown());
	}

	/**
	 * Describe a window's Little's-law and Goetz figures. Busy threads (X·S) are shown at
	 * most as many as the pool's threads: a window's completions can hold service time
	 * spent in the window before.
	 */
	static LittlesLawDescriptor littlesLaw(PoolSnapshot snapshot) {
		LittlesLaw law = snapshot.littlesLaw();
		return new LittlesLawDescriptor(law.arrivalRate(), law.throughput(), law.meanServiceTimeMs(),
				law.meanQueueWaitMs(), law.meanResponseTimeMs(), snapshot.responseTime().p50Ms(),
				snapshot.responseTime().p90Ms(), law.p99ResponseTimeMs(), snapshot.responseTime().samples(),
				law.estimatedConcurrency(),
				Math.min(law.busyThreads(), Math.max(snapshot.sizes().maxPoolSize(), snapshot.sizes().poolSize())),
				law.deadTimeRatio(), law.concurrencyPerCpu(), law.waitComputeRatio(), law.recommendedThreads());
	}

}
