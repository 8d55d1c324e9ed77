package io.github.poolpilot.autoconfigure;

import io.github.poolpilot.grpc.GrpcRejectionStatus;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties for the gRPC server's executor, managed as the pool named
 * {@code grpc}: the keys every pool has, with the server's defaults (min-threads 4,
 * max-threads 100), and its own.
 *
 * @author poolpilot authors
 */
@ConfigurationProperties("poolpilot.grpc-server")
public class PoolpilotGrpcServerProperties extends PoolSizing {

	private static final int DEFAULT_MIN_THREADS = 4;

	/**
	 * Whether the executor of Spring Boot's gRPC server is the managed pool named
	 * {@code grpc}: bounded, measured, tuned and refusing calls when full.
	 */
	private boolean enabled;

	/**
	 * Status of a call refused because the pool is full, sent with a
	 * grpc-retry-pushback-ms trailer.
	 */
	private GrpcRejectionStatus rejectionStatus = GrpcRejectionStatus.RESOURCE_EXHAUSTED;

	public PoolpilotGrpcServerProperties() {
		super(DEFAULT_MIN_THREADS);
		setMaxThreads(100);
	}

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public GrpcRejectionStatus getRejectionStatus() {
		return this.rejectionStatus;
	}

	public void setRejectionStatus(GrpcRejectionStatus rejectionStatus) {
		this.rejectionStatus = rejectionStatus;
	}

}
