package io.github.poolpilot.autoconfigure;

import java.time.Duration;

/**
 * Checks the gRPC server's pool's keys before the pool is made, naming the key that is
 * wrong and what it allows.
 *
 * @author poolpilot authors
 */
final class GrpcServerSettings {

	private static final String PREFIX = "poolpilot.grpc-server.";

	private GrpcServerSettings() {
	}

	static void validate(PoolpilotGrpcServerProperties settings) {
		if (settings.getMinThreads() < 1) {
			throw new InvalidPoolpilotPropertyException(PREFIX + "min-threads", settings.getMinThreads(),
					"must be at least 1");
		}
		if (settings.getMaxThreads() < settings.getMinThreads()) {
			throw new InvalidPoolpilotPropertyException(PREFIX + "max-threads", settings.getMaxThreads(),
					"must be at least min-threads (" + settings.getMinThreads() + ")");
		}
		if (settings.getQueueCapacity() < 1) {
			throw new InvalidPoolpilotPropertyException(PREFIX + "queue-capacity", settings.getQueueCapacity(),
					"must be at least 1 (the queue is always bounded)");
		}
		if (settings.getWeight() < 1) {
			throw new InvalidPoolpilotPropertyException(PREFIX + "weight", settings.getWeight(), "must be at least 1");
		}
		checkPositive("keep-alive", settings.getKeepAlive());
		if (settings.getAwaitTermination().isNegative()) {
			throw new InvalidPoolpilotPropertyException(PREFIX + "await-termination", settings.getAwaitTermination(),
					"must be 0 or a positive duration");
		}
	}

	private static void checkPositive(String key, Duration duration) {
		if (duration.isNegative() || duration.isZero()) {
			throw new InvalidPoolpilotPropertyException(PREFIX + key, duration, "must be a positive duration");
		}
	}

}
