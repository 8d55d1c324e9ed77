package io.github.poolpilot.pool;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * A pool settling after a resize that restarts its workers, such as a Kafka listener's
 * consumers rejoining their group: while it settles, its windows show the restart rather
 * than what its new size does, so the tuner leaves its size alone; the longer a restart
 * takes, the longer it settles, so that restarts cannot follow each other.
 *
 * @param remaining how much longer it settles
 * @param lastResizeTook how long its last resize took until its workers worked again, or
 * {@code null} while its first one runs
 * @author poolpilot authors
 */
public record Settling(Duration remaining, @Nullable Duration lastResizeTook) {

}
