/**
 * Spring's {@code ThreadPoolTaskScheduler} beans as managed pools: their runs measured
 * against when they were due.
 */
@NullMarked
package io.github.poolpilot.scheduling;

import org.jspecify.annotations.NullMarked;
