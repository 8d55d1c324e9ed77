package io.github.poolpilot.autoconfigure;

import java.util.Map;

import io.github.poolpilot.autoconfigure.PoolpilotProperties.Pool;

/**
 * Checks {@link PoolpilotProperties} before any pool is created, so that a bad value
 * fails start-up with a message naming it rather than surfacing later.
 *
 * @author poolpilot authors
 */
final class PoolpilotPropertiesValidator {

	private PoolpilotPropertiesValidator() {
	}

	static void validate(PoolpilotProperties properties) {
		int minThreadsSum = 0;
		for (Map.Entry<String, Pool> entry : properties.getPools().entrySet()) {
			validate("poolpilot.pools." + entry.getKey() + ".", entry.getValue());
			minThreadsSum += entry.getValue().getMinThreads();
		}
		Integer budget = properties.getBudget().getMaxThreads();
		if (budget != null && budget < Math.max(1, minThreadsSum)) {
			throw new InvalidPoolpilotPropertyException("poolpilot.budget.max-threads", budget,
					"must be at least 1 and at least the sum of the pools' min-threads (" + minThreadsSum + ")");
		}
		if (properties.getExistingExecutors().getQueueCapacity() < 1) {
			throw new InvalidPoolpilotPropertyException("poolpilot.existing-executors.queue-capacity",
					properties.getExistingExecutors().getQueueCapacity(),
					"must be at least 1 (the queue is always bounded)");
		}
		if (properties.getMeasurement().getWindow().isNegative() || properties.getMeasurement().getWindow().isZero()) {
			throw new InvalidPoolpilotPropertyException("poolpilot.measurement.window",
					properties.getMeasurement().getWindow(), "must be a positive duration");
		}
		if (properties.getMeasurement().getTimingSampleEvery() < 1) {
			throw new InvalidPoolpilotPropertyException("poolpilot.measurement.timing-sample-every",
					properties.getMeasurement().getTimingSampleEvery(), "must be at least 1 (1 times every task)");
		}
		if (properties.getMeasurement().getCpuSampleEvery() < 0) {
			throw new InvalidPoolpilotPropertyException("poolpilot.measurement.cpu-sample-every",
					properties.getMeasurement().getCpuSampleEvery(), "must be 0 (off) or more");
		}
	}

	private static void validate(String prefix, Pool pool) {
		if (pool.getMinThreads() < 1) {
			throw new InvalidPoolpilotPropertyException(prefix + "min-threads", pool.getMinThreads(),
					"must be at least 1");
		}
		if (pool.getMaxThreads() < pool.getMinThreads()) {
			throw new InvalidPoolpilotPropertyException(prefix + "max-threads", pool.getMaxThreads(),
					"must be at least min-threads (" + pool.getMinThreads() + ")");
		}
		if (pool.getQueueCapacity() < 1) {
			throw new InvalidPoolpilotPropertyException(prefix + "queue-capacity", pool.getQueueCapacity(),
					"must be at least 1 (the queue is always bounded)");
		}
		if (pool.getWeight() < 1) {
			throw new InvalidPoolpilotPropertyException(prefix + "weight", pool.getWeight(), "must be at least 1");
		}
		if (pool.getRejectionStatus() != 429 && pool.getRejectionStatus() != 503) {
			throw new InvalidPoolpilotPropertyException(prefix + "rejection-status", pool.getRejectionStatus(),
					"must be 429 or 503");
		}
		if (pool.getKeepAlive().isNegative()) {
			throw new InvalidPoolpilotPropertyException(prefix + "keep-alive", pool.getKeepAlive(),
					"must not be negative");
		}
		if (pool.getAwaitTermination().isNegative()) {
			throw new InvalidPoolpilotPropertyException(prefix + "await-termination", pool.getAwaitTermination(),
					"must not be negative");
		}
	}

}
