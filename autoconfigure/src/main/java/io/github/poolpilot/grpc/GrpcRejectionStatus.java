package io.github.poolpilot.grpc;

/**
 * The gRPC status a call is answered with when the {@code grpc} pool cannot take it: one
 * that tells a client the server is busy rather than that the call was wrong, so that a
 * retry policy may try again after the {@code grpc-retry-pushback-ms} it is given.
 *
 * @author poolpilot authors
 */
public enum GrpcRejectionStatus {

	/**
	 * The server is out of a resource (its threads): gRPC's status for a load shed.
	 */
	RESOURCE_EXHAUSTED,

	/**
	 * The server is unavailable for now: the status gRPC clients retry by default.
	 */
	UNAVAILABLE

}
