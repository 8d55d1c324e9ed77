package io.github.poolpilot.sample.session;

import java.time.OffsetDateTime;

/**
 * The answer to {@code POST /api/stop}.
 *
 * @param sessionId the session
 * @param stoppedAt when it stopped
 * @param exchanges how many exchanges it recorded
 * @author poolpilot authors
 */
public record StoppedSession(long sessionId, OffsetDateTime stoppedAt, int exchanges) {

}
