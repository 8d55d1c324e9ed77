package io.github.poolpilot.grpc;

import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;

import io.github.poolpilot.pool.PoolRejectedException;

/**
 * Answers a call the {@code grpc} pool refused, before any other interceptor or the
 * service sees it: the pool's status, a description naming the pool and the
 * {@code grpc-retry-pushback-ms} trailer, the same retry delay as the web server's
 * {@code Retry-After} (the time the pool needs to drain its queue), in milliseconds. A
 * health check is served even then, on the refusal lane, so that the server's health is
 * answered under a flood of calls.
 *
 * @author poolpilot authors
 */
public final class GrpcRefusalInterceptor implements ServerInterceptor {

	/**
	 * The trailer that tells a gRPC client when to retry, in milliseconds.
	 */
	public static final Metadata.Key<String> RETRY_PUSHBACK = Metadata.Key.of("grpc-retry-pushback-ms",
			Metadata.ASCII_STRING_MARSHALLER);

	/**
	 * The standard health service, answered whatever the pool's state.
	 */
	static final String HEALTH_SERVICE = "grpc.health.v1.Health";

	private final Status.Code status;

	/**
	 * Create an interceptor that answers refused calls with the given status.
	 * @param status the status of a refused call
	 */
	public GrpcRefusalInterceptor(GrpcRejectionStatus status) {
		this.status = Status.Code.valueOf(status.name());
	}

	@Override
	public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
			ServerCallHandler<Q, R> next) {
		GrpcRefusal refusal = GrpcRefusal.current();
		if (refusal == null || HEALTH_SERVICE.equals(call.getMethodDescriptor().getServiceName())) {
			return next.startCall(call, headers);
		}
		Runnable closed = refusal.refuse();
		PoolRejectedException rejection = refusal.getRejection();
		Metadata trailers = new Metadata();
		trailers.put(RETRY_PUSHBACK, Long.toString(rejection.getRetryAfter().toMillis()));
		call.close(this.status.toStatus().withDescription(rejection.getMessage()), trailers);
		return new ServerCall.Listener<>() {

			@Override
			public void onComplete() {
				closed.run();
			}

			@Override
			public void onCancel() {
				closed.run();
			}

		};
	}

}
