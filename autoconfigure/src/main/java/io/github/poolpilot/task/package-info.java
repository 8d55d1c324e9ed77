/**
 * Spring's task-executor face of the managed executor: {@code ThreadPoolTaskExecutor}
 * beans backed by a {@code ManagedExecutor}.
 */
@NullMarked
package io.github.poolpilot.task;

import org.jspecify.annotations.NullMarked;
