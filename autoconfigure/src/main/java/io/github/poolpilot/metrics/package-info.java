/**
 * Micrometer meters for what Spring Boot's {@code executor.*} binding lacks: rejected and
 * failed tasks, queue-wait and execution timers, the tuner's target and the budget.
 */
@NullMarked
package io.github.poolpilot.metrics;

import org.jspecify.annotations.NullMarked;
