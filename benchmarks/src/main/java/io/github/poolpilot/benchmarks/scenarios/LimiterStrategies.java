package io.github.poolpilot.benchmarks.scenarios;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limit.VegasLimit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;

/**
 * The strategies of Netflix concurrency-limits: a limiter per pool in front of a large
 * pool that never refuses work, a task the limiter refuses being rejected.
 *
 * @author poolpilot authors
 */
final class LimiterStrategies {

	/**
	 * The pool behind the Gradient2 and Vegas limiters, as large as the limiters' own
	 * maximum.
	 */
	static final int LIMITED_POOL_SIZE = 200;

	private LimiterStrategies() {
	}

	/**
	 * Netflix concurrency-limits in front of a large pool: a {@link SimpleLimiter} with a
	 * {@link Gradient2Limit} per pool admits a task only while fewer than its limit are
	 * in flight, and a task it refuses is rejected. The limit starts at the pool's start
	 * size and may fall to 1 (its default floor of 20 would leave nothing to limit in
	 * these scenarios); its other settings are the library's defaults. The pool behind it
	 * has {@value #LIMITED_POOL_SIZE} threads and never refuses work.
	 * @return the strategy
	 */
	static Strategy gradient2() {
		return limited(Strategy.GRADIENT2, "Gradient2 limit in front of a " + LIMITED_POOL_SIZE + "-thread pool",
				(spec) -> Gradient2Limit.newBuilder()
					.initialLimit(spec.startSize())
					.minLimit(1)
					.maxConcurrency(LIMITED_POOL_SIZE)
					.build());
	}

	/**
	 * Netflix concurrency-limits' {@link VegasLimit} in front of a large pool, as
	 * {@link #gradient2()}: TCP Vegas's rule on each task's latency against the least
	 * seen, the queue estimated as limit · (1 − minimum/latest), the limit raised while
	 * it is short and cut when it is long. The limit starts at the pool's start size; its
	 * other settings are the library's defaults (its floor is 1).
	 * @return the strategy
	 */
	static Strategy vegas() {
		return limited(Strategy.VEGAS, "Vegas limit in front of a " + LIMITED_POOL_SIZE + "-thread pool",
				(spec) -> VegasLimit.newBuilder()
					.initialLimit(spec.startSize())
					.maxConcurrency(LIMITED_POOL_SIZE)
					.build());
	}

	private static Strategy limited(String name, String description, Function<PoolSpec, Limit> limits) {
		return new Strategy(name, description, (scenario, console) -> {
			List<Target> targets = new ArrayList<>();
			List<ExecutorService> executors = new ArrayList<>();
			for (PoolSpec spec : scenario.pools()) {
				ThreadPoolExecutor executor = new ThreadPoolExecutor(LIMITED_POOL_SIZE, LIMITED_POOL_SIZE, 60,
						TimeUnit.SECONDS, new LinkedBlockingQueue<>(), Strategy.threads(scenario, name, spec));
				SimpleLimiter<Void> limiter = SimpleLimiter.newBuilder()
					.named(spec.name())
					.limit(limits.apply(spec))
					.build();
				targets.add(limited(executor, limiter));
				executors.add(executor);
			}
			return new Deployment(targets, executors);
		});
	}

	private static Target limited(ThreadPoolExecutor executor, SimpleLimiter<Void> limiter) {
		return new Target() {

			@Override
			public boolean submit(TaskRun task) {
				Optional<Limiter.Listener> acquired = limiter.acquire(null);
				if (acquired.isEmpty()) {
					return false;
				}
				Limiter.Listener listener = acquired.get();
				try {
					executor.execute(() -> {
						if (task.perform()) {
							listener.onSuccess();
						}
						else {
							listener.onIgnore();
						}
					});
					return true;
				}
				catch (RejectedExecutionException ex) {
					listener.onIgnore();
					return false;
				}
			}

			@Override
			public int size() {
				return limiter.getLimit();
			}

			@Override
			public int liveThreads() {
				return executor.getPoolSize();
			}

			@Override
			public int queued() {
				return executor.getQueue().size();
			}

		};
	}

}
