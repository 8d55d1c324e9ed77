/**
 * What a pool checks around each task besides its threads and queue: max-queue-wait,
 * timeouts, and the guard interface that a circuit breaker implements.
 */
@NullMarked
package io.github.poolpilot.guard;

import org.jspecify.annotations.NullMarked;
