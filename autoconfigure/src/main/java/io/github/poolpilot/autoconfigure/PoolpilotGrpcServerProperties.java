package io.github.poolpilot.autoconfigure;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.grpc.GrpcRejectionStatus;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties for the gRPC server's executor, managed as the pool named
 * {@code grpc}.
 *
 * @author poolpilot authors
 */
@ConfigurationProperties("poolpilot.grpc-server")
public class PoolpilotGrpcServerProperties {

	private static final int DEFAULT_MIN_THREADS = 4;

	/**
	 * Whether the executor of Spring Boot's gRPC server is the managed pool named
	 * {@code grpc}: bounded, measured, tuned and refusing calls when full.
	 */
	private boolean enabled;

	/**
	 * Fewest threads the pool may have; the pool starts with this many. Unless set, 4 or
	 * max-threads where that is lower.
	 */
	private @Nullable Integer minThreads;

	/**
	 * Most threads the pool may have.
	 */
	private int maxThreads = 100;

	/**
	 * Call events (a call's start, its messages, its end) that may wait for a thread;
	 * fixed at start.
	 */
	private int queueCapacity = 100;

	/**
	 * Share of the thread budget when pools compete.
	 */
	private int weight = 1;

	/**
	 * Status of a call refused because the pool is full, sent with a
	 * grpc-retry-pushback-ms trailer.
	 */
	private GrpcRejectionStatus rejectionStatus = GrpcRejectionStatus.RESOURCE_EXHAUSTED;

	/**
	 * How long a thread above min-threads may stay idle before it ends.
	 */
	private Duration keepAlive = Duration.ofSeconds(60);

	/**
	 * How long shutdown waits for the pool's running and queued call events once the
	 * server has stopped.
	 */
	private Duration awaitTermination = Duration.ofSeconds(30);

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public int getMinThreads() {
		return (this.minThreads != null) ? this.minThreads : Math.min(DEFAULT_MIN_THREADS, this.maxThreads);
	}

	public void setMinThreads(int minThreads) {
		this.minThreads = minThreads;
	}

	public int getMaxThreads() {
		return this.maxThreads;
	}

	public void setMaxThreads(int maxThreads) {
		this.maxThreads = maxThreads;
	}

	public int getQueueCapacity() {
		return this.queueCapacity;
	}

	public void setQueueCapacity(int queueCapacity) {
		this.queueCapacity = queueCapacity;
	}

	public int getWeight() {
		return this.weight;
	}

	public void setWeight(int weight) {
		this.weight = weight;
	}

	public GrpcRejectionStatus getRejectionStatus() {
		return this.rejectionStatus;
	}

	public void setRejectionStatus(GrpcRejectionStatus rejectionStatus) {
		this.rejectionStatus = rejectionStatus;
	}

	public Duration getKeepAlive() {
		return this.keepAlive;
	}

	public void setKeepAlive(Duration keepAlive) {
		this.keepAlive = keepAlive;
	}

	public Duration getAwaitTermination() {
		return this.awaitTermination;
	}

	public void setAwaitTermination(Duration awaitTermination) {
		this.awaitTermination = awaitTermination;
	}

}
