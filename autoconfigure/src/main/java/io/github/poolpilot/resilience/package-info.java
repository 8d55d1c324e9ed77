/**
 * Resilience4j for managed pools: a pool's tasks through a circuit breaker, and its task
 * timeout from a time limiter.
 */
@NullMarked
package io.github.poolpilot.resilience;

import org.jspecify.annotations.NullMarked;
