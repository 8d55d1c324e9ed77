package io.github.poolpilot.actuate;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import io.github.poolpilot.measure.PoolSnapshot.Rejections;
import io.github.poolpilot.measure.PoolSnapshot.Sizes;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.pool.Restarts;
import io.github.poolpilot.tuning.Tuner;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * {@link HealthIndicator} that names the managed pools in trouble: refusing work (its
 * queue is full now, or it refused tasks since the previous check), its circuit open (it
 * refused tasks because its circuit breaker was open since the previous check), or its
 * growth limited (the tuner found it short of threads the budget or its max-threads would
 * not give), or its last restart failed (a Kafka listener that could not start the
 * consumers asked for: the endpoint's {@code restarts.failure} says whether it is
 * stopped). A pool in trouble is answering as designed, shedding load, so the status
 * stays {@code UP}: the application is not taken out of a load balancer because one pool
 * is busy. The details say which pools, and why.
 *
 * @author poolpilot authors
 */
public class ThreadPoolsHealthIndicator implements HealthIndicator {

	private final PoolRegistry registry;

	private final Tuner tuner;

	private final Map<String, Rejections> previous = new ConcurrentHashMap<>();

	/**
	 * Create an indicator.
	 * @param registry the managed pools
	 * @param tuner the tuner, which knows whose growth is limited
	 */
	public ThreadPoolsHealthIndicator(PoolRegistry registry, Tuner tuner) {
		this.registry = registry;
		this.tuner = tuner;
	}

	@Override
	public Health health() {
		Map<String, List<String>> troubled = new TreeMap<>();
		for (ManagedPool pool : this.registry.pools()) {
			List<String> troubles = troubles(pool);
			if (!troubles.isEmpty()) {
				troubled.put(pool.getName(), troubles);
			}
		}
		return Health.up().withDetail("pools", this.registry.pools().size()).withDetail("troubled", troubled).build();
	}

	private List<String> troubles(ManagedPool pool) {
		List<String> troubles = new ArrayList<>();
		Sizes sizes = pool.sizes();
		Rejections now = pool.getRecorder().taskCounts().rejections();
		Rejections before = this.previous.put(pool.getName(), now);
		Rejections since = (before != null) ? since(now, before) : now;
		if ((sizes.queueCapacity() > 0 && sizes.queueSize() >= sizes.queueCapacity())
				|| since.queueFull() + since.queueWait() + since.shutdown() > 0) {
			troubles.add("refusing");
		}
		if (since.circuitOpen() > 0) {
			troubles.add("circuit open");
		}
		if (this.tuner.state(pool.getName()).isLimited()) {
			troubles.add("growth limited");
		}
		Restarts restarts = pool.getExecutor().restarts();
		if (restarts != null && restarts.failure() != null) {
			troubles.add("restart failed");
		}
		return troubles;
	}

	private static Rejections since(Rejections now, Rejections before) {
		return new Rejections(now.queueFull() - before.queueFull(), now.queueWait() - before.queueWait(),
				now.circuitOpen() - before.circuitOpen(), now.shutdown() - before.shutdown());
	}

}
