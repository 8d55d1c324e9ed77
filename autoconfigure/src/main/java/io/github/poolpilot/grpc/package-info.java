/**
 * The gRPC server's executor as the managed pool named {@code grpc}: each call event
 * measured from its hand-over, bounded, and a call the pool cannot take answered at once
 * with its status and a {@code grpc-retry-pushback-ms} trailer.
 */
@NullMarked
package io.github.poolpilot.grpc;

import org.jspecify.annotations.NullMarked;
